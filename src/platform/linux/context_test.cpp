#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "fixtures.h"
#include "platform/linux/nic.h"
#include "platform/platform.h"
#include "render/template_set.h"
#include "temp_dir.h"
#include "util/escape.h"

using namespace fabricctl;
namespace fs = std::filesystem;
using fabricctl::test::TempDir;

namespace {

/// nic-state.json (data, built by the adapter) or a template of templates/linux/ rendered with the context.
std::string render_linux(const std::string& template_name, const DeviceDesired& device) {
  if (template_name == "nic-state.json") return linux_nic_state_json(device, linux_nic_state(device));
  Diags diags;
  const fs::path path = fs::path(FABRICCTL_SOURCE_DIR) / "templates" / "linux" / template_name;
  auto text = read_template(path, diags);
  REQUIRE_MESSAGE(text, diags.str());
  auto out = render_template(*text, linux_context(device), path.string(), diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

bool contains_line(const std::string& text, const std::string& line) {
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l == line) return true;
  return false;
}

void check_text_hygiene(const std::string& text) {
  REQUIRE_FALSE(text.empty());
  CHECK(text.back() == '\n');
  CHECK(text.find("\n\n\n") == std::string::npos);
  std::istringstream in(text);
  int n = 0;
  for (std::string l; std::getline(in, l);) {
    ++n;
    INFO("line " << n << ": [" << l << "]");
    CHECK((l.empty() || (l.back() != ' ' && l.back() != '\t')));
    CHECK(l.find("{{") == std::string::npos);
  }
}

/// A fresh, empty directory under the system temp dir, removed with the object.
void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// `sh -n` on the script: 0 when it parses.
int sh_syntax_check(const std::string& script) {
  TempDir dir;
  write_file(dir.path / "apply.sh", script);
  return run("sh -n '" + (dir.path / "apply.sh").string() + "' 2>/dev/null");
}

std::vector<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.rfind(prefix, 0) == 0) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("linux: roce_tos, shell_quote and comment_safe") {
  QosIntent q = test::roce_lossless_qos();
  CHECK(linux_host::roce_tos(q) == 106);  // DSCP 26 << 2 | ECT(0)
  q.dcqcn.enabled = false;
  CHECK(linux_host::roce_tos(q) == 104);
  q.roce_dscp = 46;
  CHECK(linux_host::roce_tos(q) == 184);

  CHECK(shell_quote("ens1f0np0") == "'ens1f0np0'");
  CHECK(shell_quote("a'b") == "'a'\\''b'");
  CHECK(shell_quote("$(reboot)") == "'$(reboot)'");
  CHECK(linux_host::comment_safe("a\nb\tc") == "a?b?c");
}

TEST_CASE("linux: nic-state.json carries the desired NIC state") {
  const DeviceDesired host = test::example_host();
  const std::string text = render_linux("nic-state.json", host);
  check_text_hygiene(text);
  // Ports in the order they are given (resolve hands them over in natural order; render_golden.sh renders
  // an inventory that lists them in reverse): the other order is other bytes, with the same ports.
  DeviceDesired reversed = host;
  std::swap(reversed.ports[0], reversed.ports[1]);
  const nlohmann::json r = nlohmann::json::parse(render_linux("nic-state.json", reversed));
  REQUIRE(r["ports"].size() == 2);
  CHECK(r["ports"][0]["netdev"] == "ens2f0np0");
  CHECK(r["ports"][1]["netdev"] == "ens1f0np0");

  CHECK(text.find("\n\n") == std::string::npos);
  nlohmann::json j;
  REQUIRE_NOTHROW(j = nlohmann::json::parse(text));
  // Hand-formatted, but indented by two spaces per level like a JSON pretty-printer.
  CHECK(text.rfind("{\n  \"schema\": \"fabricctl.nic-state/v1\",\n  \"device\": \"host1\",\n", 0) == 0);

  CHECK(j["schema"] == "fabricctl.nic-state/v1");
  CHECK(j["device"] == "host1");
  CHECK(j["profile"] == "roce-lossless");
  REQUIRE(j["ports"].size() == 2);

  const auto& p = j["ports"][0];
  CHECK(p["netdev"] == "ens1f0np0");
  CHECK(p["mtu"] == 9000);
  CHECK(p["speed_mbps"] == 400000);
  CHECK(p["rail"] == 0);
  CHECK(p["peer"] == nlohmann::json{{"device", "leaf1"}, {"port", "Ethernet0"}});
  CHECK(p["rdma"]["device"] == "mlx5_0");
  CHECK(p["rdma"]["port"] == 1);
  CHECK(p["rdma"]["mtu"] == 4096);
  CHECK(p["rdma"]["gid_type"] == "RoCE v2");
  CHECK(p["rdma"]["roce_tos"] == 106);
  CHECK(p["trust"] == "dscp");
  CHECK(p["headroom_bytes"] == 150528);

  // The DSCP app table: every DSCP, in order; 26 -> 3 and 48 -> 6, the rest 0.
  REQUIRE(p["app_dscp_prio"].size() == 64);
  for (int d = 0; d < 64; ++d) {
    const int want = d == 26 ? 3 : d == 48 ? 6 : 0;
    CHECK(p["app_dscp_prio"][static_cast<size_t>(d)] == nlohmann::json::array({d, want}));
  }

  CHECK(p["pfc"]["enabled_priorities"] == nlohmann::json::array({3}));
  CHECK(p["pfc"]["cable_length_m"] == 3);

  CHECK(p["ets"]["prio_tc"] == nlohmann::json::array({0, 0, 0, 3, 0, 0, 6, 0}));
  REQUIRE(p["ets"]["tc"].size() == 8);
  int ets_sum = 0;
  for (int tc = 0; tc < 8; ++tc) {
    const auto& t = p["ets"]["tc"][static_cast<size_t>(tc)];
    CHECK(t["tc"] == tc);
    if (t["tsa"] == "ets") ets_sum += t["bw"].get<int>();
    else CHECK(t["bw"] == 0);
  }
  CHECK(ets_sum == 100);
  CHECK(p["ets"]["tc"][0] == nlohmann::json{{"tc", 0}, {"tsa", "ets"}, {"bw", 50}});
  CHECK(p["ets"]["tc"][3] == nlohmann::json{{"tc", 3}, {"tsa", "ets"}, {"bw", 50}});
  CHECK(p["ets"]["tc"][6] == nlohmann::json{{"tc", 6}, {"tsa", "strict"}, {"bw", 0}});
  CHECK(p["ets"]["tc"][1]["tsa"] == "strict");  // unused

  const auto& dc = p["dcqcn"];
  CHECK(dc["enabled"] == true);
  CHECK(dc["rp_enabled_priorities"] == nlohmann::json::array({3}));
  CHECK(dc["np_enabled_priorities"] == nlohmann::json::array({3}));
  CHECK(dc["cnp_dscp"] == 48);
  CHECK(dc["cnp_802p_prio"] == 6);
  // The profile sets no reaction or notification point parameter: the firmware's values stay.
  CHECK(dc["min_time_between_cnps"].is_null());
  CHECK(dc["rp"] == nlohmann::json::object());

  const auto& p2 = j["ports"][1];
  CHECK(p2["netdev"] == "ens2f0np0");
  CHECK(p2["rdma"]["device"] == "mlx5_1");
  CHECK(p2["rail"] == 1);
  CHECK(p2["peer"]["device"] == "leaf2");
}

TEST_CASE("linux: nic-state.json with optional parts missing is still valid JSON") {
  DeviceDesired host = test::example_host();
  host.ports.resize(1);
  host.ports[0].speed_mbps.reset();
  host.ports[0].rail.reset();
  host.ports[0].peer_device.clear();
  host.ports[0].rdma_device.clear();
  host.qos.trust = Trust::pcp;
  const std::string text = render_linux("nic-state.json", host);
  check_text_hygiene(text);
  nlohmann::json j;
  REQUIRE_NOTHROW(j = nlohmann::json::parse(text));
  const auto& p = j["ports"][0];
  CHECK(p["speed_mbps"].is_null());
  CHECK(p["rail"].is_null());
  CHECK(p["peer"].is_null());
  CHECK(p["rdma"].is_null());
  CHECK(p["trust"] == "pcp");
  CHECK(p["app_dscp_prio"].empty());
  CHECK(text.find("\"app_dscp_prio\": [],\n") != std::string::npos);
  CHECK(text.find("\n\n") == std::string::npos);

  host.ports.clear();
  const std::string none = render_linux("nic-state.json", host);
  CHECK(nlohmann::json::parse(none)["ports"].empty());
  CHECK(none.find("  \"ports\": [],\n  \"nccl\": {") != std::string::npos);
}

TEST_CASE("linux: apply.sh sets the same state with ip, dcb, sysfs and configfs") {
  const DeviceDesired host = test::example_host();
  const std::string sh = render_linux("apply.sh.mustache", host);
  check_text_hygiene(sh);
  CHECK(sh == render_linux("apply.sh.mustache", host));
  CHECK(sh.rfind("#!/bin/sh\n", 0) == 0);
  CHECK(contains_line(sh, "set -eu"));
  CHECK(sh_syntax_check(sh) == 0);

  // Pre-flight comes before the first change.
  CHECK(sh.find("require_dir '/sys/class/net/ens2f0np0/ecn'") < sh.find("ip link set"));
  CHECK(contains_line(sh,
                      "require_dir '/sys/kernel/config/rdma_cm' "
                      "'run: modprobe rdma_cm; mount -t configfs none /sys/kernel/config'"));

  CHECK(contains_line(sh, "ip link set dev 'ens1f0np0' mtu 9000"));
  CHECK(contains_line(sh, "ip link set dev 'ens2f0np0' mtu 9000"));
  CHECK(contains_line(sh, "dcb ets set dev 'ens1f0np0' \\"));
  CHECK(contains_line(sh, "  prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 \\"));
  CHECK(contains_line(sh, "  tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict \\"));
  CHECK(contains_line(sh, "  tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0"));
  CHECK(
      contains_line(sh, "dcb pfc set dev 'ens1f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 3"));
  CHECK(contains_line(sh, "dcb app replace dev 'ens1f0np0' dscp-prio \\"));
  CHECK(contains_line(sh, "  0:0 1:0 2:0 3:0 4:0 5:0 6:0 7:0 \\"));
  CHECK(contains_line(sh, "  24:0 25:0 26:3 27:0 28:0 29:0 30:0 31:0 \\"));
  CHECK(contains_line(sh, "  48:6 49:0 50:0 51:0 52:0 53:0 54:0 55:0 \\"));
  CHECK(contains_line(sh, "  56:0 57:0 58:0 59:0 60:0 61:0 62:0 63:0"));  // last row: no continuation

  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp' 48"));
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio' 6"));
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3' 1"));
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/3' 1"));
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/6' 0"));
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/enable/0' 0"));
  // No parameter is set by the profile, so none is written: the firmware's stay (its minimum CNP
  // spacing is 0 us, not the 4 us older notes give).
  CHECK(lines_starting(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/").size() == 8);
  CHECK(sh.find("min_time_between_cnps") == std::string::npos);

  CHECK(contains_line(sh, "make_dir '/sys/kernel/config/rdma_cm/mlx5_0'"));
  CHECK(contains_line(sh, "set_sysfs '/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_mode' 'RoCE v2'"));
  CHECK(contains_line(sh, "set_sysfs '/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos' 106"));
  CHECK(contains_line(sh, "set_sysfs '/sys/kernel/config/rdma_cm/mlx5_1/ports/1/default_roce_tos' 106"));
}

TEST_CASE("linux: apply.sh writes the DCQCN parameters the profile sets, in mlx5's order, before enabling") {
  DeviceDesired host = test::example_host();
  host.qos.dcqcn.rp = {{"rpg_time_reset", 300}, {"initial_alpha_value", 1023}};  // as resolve orders them
  host.qos.dcqcn.np_min_time_between_cnps = 0;
  const std::string sh = render_linux("apply.sh.mustache", host);
  check_text_hygiene(sh);
  CHECK(sh_syntax_check(sh) == 0);
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_np/min_time_between_cnps' 0"));
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/rpg_time_reset' 300"));
  CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/initial_alpha_value' 1023"));
  CHECK(lines_starting(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/roce_rp/").size() == 2 + 8);
  CHECK(sh.find("roce_rp/rpg_time_reset") < sh.find("roce_rp/initial_alpha_value"));
  // Parameters are written before DCQCN is enabled.
  CHECK(sh.find("roce_rp/initial_alpha_value") < sh.find("roce_rp/enable/3"));

  const nlohmann::json j = nlohmann::json::parse(render_linux("nic-state.json", host));
  const auto& dc = j["ports"][0]["dcqcn"];
  CHECK(dc["min_time_between_cnps"] == 0);
  CHECK(dc["rp"] == nlohmann::json{{"rpg_time_reset", 300}, {"initial_alpha_value", 1023}});
}

TEST_CASE("linux: apply.sh with DCQCN off writes 0 to every enable file and nothing else") {
  DeviceDesired host = test::example_host();
  host.qos.dcqcn.enabled = false;
  const std::string sh = render_linux("apply.sh.mustache", host);
  check_text_hygiene(sh);
  CHECK(sh_syntax_check(sh) == 0);
  for (const char* point : {"roce_rp", "roce_np"})
    for (int p = 0; p < 8; ++p)
      CHECK(contains_line(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/" + std::string(point) + "/enable/" +
                                  std::to_string(p) + "' 0"));
  CHECK(lines_starting(sh, "set_sysfs '/sys/class/net/ens1f0np0/ecn/").size() == 16);
  CHECK(sh.find("' 1\n") == std::string::npos);
  CHECK(sh.find("cnp_dscp") == std::string::npos);
  CHECK(contains_line(sh, "set_sysfs '/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos' 104"));

  nlohmann::json j = nlohmann::json::parse(render_linux("nic-state.json", host));
  CHECK(j["ports"][0]["dcqcn"]["enabled"] == false);
  CHECK(j["ports"][0]["dcqcn"]["rp_enabled_priorities"].empty());
  CHECK(j["ports"][0]["rdma"]["roce_tos"] == 104);
}

TEST_CASE("linux: apply.sh for PCP trust, no RDMA device and unknown cable length") {
  DeviceDesired host = test::example_host();
  host.qos.trust = Trust::pcp;
  host.ports[0].rdma_device.clear();
  host.ports[1].rdma_device.clear();
  host.ports[0].cable_length_m = 0;
  const std::string sh = render_linux("apply.sh.mustache", host);
  check_text_hygiene(sh);
  CHECK(sh_syntax_check(sh) == 0);
  CHECK(contains_line(sh, "dcb app flush dev 'ens1f0np0' dscp-prio"));
  CHECK(sh.find("\ndcb app replace") == std::string::npos);
  CHECK(contains_line(sh, "check_app 'ens1f0np0'"));
  CHECK(sh.find("make_dir '") == std::string::npos);
  CHECK(sh.find("require_dir '/sys/kernel/config/rdma_cm'") == std::string::npos);
  CHECK(sh.find("default_roce_tos") == std::string::npos);
  CHECK(contains_line(sh, "dcb pfc set dev 'ens1f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off"));
  CHECK(
      contains_line(sh, "dcb pfc set dev 'ens2f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 3"));
}

TEST_CASE("linux: the sh -n check rejects a broken script") {
  // Guards the syntax check itself: it must be able to fail.
  CHECK(sh_syntax_check("#!/bin/sh\nif then\n") != 0);
}

TEST_CASE("linux: apply.sh runs against a fake sysfs and writes only what differs") {
  TempDir tmp;
  const fs::path root = tmp.path / "root";
  const fs::path bin = tmp.path / "bin";
  const fs::path log = tmp.path / "commands.log";
  const DeviceDesired host = test::example_host();

  // Stand-ins for ip and dcb that log their arguments. `dcb -j app show` prints the device's last
  // `app replace` as iproute2 6.1 does ({"dscp_prio":[[0,0],...]}), less the entry FAKE_DROP names: an
  // entry the driver refused while `dcb app replace` still exited 0.
  write_file(bin / "ip", "#!/bin/sh\necho \"ip $*\" >>\"$FAKE_LOG\"\n");
  write_file(bin / "dcb",
             "#!/bin/sh\n"
             "echo \"dcb $*\" >>\"$FAKE_LOG\"\n"
             "[ \"$1 $2 $3\" = '-j app show' ] || exit 0\n"
             "line=$(grep \"^dcb app replace dev $5 dscp-prio\" \"$FAKE_LOG\" | tail -n 1)\n"
             "printf '{\"dscp_prio\":['\n"
             "sep=\n"
             "for p in ${line#*dscp-prio }; do\n"
             "  [ \"$p\" = \"${FAKE_DROP:-}\" ] && continue\n"
             "  printf '%s[%s,%s]' \"$sep\" \"${p%%:*}\" \"${p#*:}\"\n"
             "  sep=,\n"
             "done\n"
             "printf ']}\\n'\n");
  for (const char* tool : {"ip", "dcb"}) fs::permissions(bin / tool, fs::perms::owner_all, fs::perm_options::add);
  // The sysfs/configfs files the mlx5 driver and rdma_cm would provide, all at their defaults.
  for (const auto& port : host.ports) {
    const fs::path ecn = root / ("sys/class/net/" + port.name) / "ecn";
    for (const char* point : {"roce_rp", "roce_np"})
      for (int p = 0; p < 8; ++p) write_file(ecn / point / "enable" / std::to_string(p), "0\n");
    for (const char* f : {"cnp_dscp", "cnp_802p_prio", "min_time_between_cnps"}) write_file(ecn / "roce_np" / f, "0\n");
    for (const char* f :
         {"clamp_tgt_rate", "clamp_tgt_rate_after_time_inc", "rpg_time_reset", "rpg_byte_reset", "rpg_threshold",
          "rpg_max_rate", "rpg_ai_rate", "rpg_hai_rate", "rpg_gd", "rpg_min_dec_fac", "rpg_min_rate",
          "rate_to_set_on_first_cnp", "dce_tcp_g", "dce_tcp_rtt", "rate_reduce_monitor_period", "initial_alpha_value"})
      write_file(ecn / "roce_rp" / f, "0\n");
    const fs::path cm = root / "sys/kernel/config/rdma_cm" / port.rdma_device / "ports/1";
    write_file(cm / "default_roce_mode", "IB/RoCE v1\n");
    write_file(cm / "default_roce_tos", "0\n");
    write_file(root / "sys/class/infiniband" / port.rdma_device / "tc/1/traffic_class", "\n");
  }
  // An NCCL configuration of the site's own: its other lines must survive, fabricctl's keys are replaced.
  write_file(root / "etc/nccl.conf", "NCCL_SOCKET_IFNAME==eno1\nNCCL_IB_TC=0\nNCCL_DEBUG=WARN\n");
  // Already enabled: must not be written again (mlx5 may answer EPERM). An old mtime shows a write.
  const fs::path enabled = root / "sys/class/net/ens1f0np0/ecn/roce_rp/enable/3";
  write_file(enabled, "1\n");
  const auto old_time = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
  fs::last_write_time(enabled, old_time);

  write_file(tmp.path / "apply.sh", render_linux("apply.sh.mustache", host));
  const std::string env =
      "PATH='" + bin.string() + "':\"$PATH\" FABRICCTL_ROOT='" + root.string() + "' FAKE_LOG='" + log.string() + "' ";
  const std::string cmd =
      env + "sh '" + (tmp.path / "apply.sh").string() + "' >'" + (tmp.path / "out").string() + "' 2>&1";
  const int rc = run(cmd);
  INFO(read_file(tmp.path / "out"));
  REQUIRE(rc == 0);

  const fs::path ecn0 = root / "sys/class/net/ens1f0np0/ecn";
  CHECK(read_file(ecn0 / "roce_np/enable/3") == "1\n");
  CHECK(read_file(ecn0 / "roce_rp/enable/3") == "1\n");
  CHECK(fs::last_write_time(enabled) == old_time);
  CHECK(read_file(ecn0 / "roce_rp/enable/6") == "0\n");
  CHECK(read_file(ecn0 / "roce_np/cnp_dscp") == "48\n");
  CHECK(read_file(ecn0 / "roce_np/cnp_802p_prio") == "6\n");
  // The profile sets no DCQCN parameter: the firmware's values (here 0) are left as they are.
  CHECK(read_file(ecn0 / "roce_rp/rpg_byte_reset") == "0\n");
  CHECK(read_file(ecn0 / "roce_np/min_time_between_cnps") == "0\n");
  const fs::path cm1 = root / "sys/kernel/config/rdma_cm/mlx5_1/ports/1";
  CHECK(read_file(cm1 / "default_roce_mode") == "RoCE v2\n");
  CHECK(read_file(cm1 / "default_roce_tos") == "106\n");
  CHECK(read_file(root / "sys/class/infiniband/mlx5_1/tc/1/traffic_class") == "106\n");
  CHECK(read_file(root / "etc/nccl.conf") ==
        "NCCL_SOCKET_IFNAME==eno1\nNCCL_DEBUG=WARN\nNCCL_IB_HCA==mlx5_0:1,mlx5_1:1\nNCCL_IB_TC=106\n");

  const std::string commands = read_file(log);
  CHECK(contains_line(commands, "ip link set dev ens1f0np0 mtu 9000"));
  CHECK(contains_line(commands,
                      "dcb pfc set dev ens2f0np0 prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off delay 3"));
  CHECK(contains_line(commands,
                      "dcb ets set dev ens1f0np0 prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 "
                      "tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict "
                      "tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0"));
  CHECK(commands.find("dcb app replace dev ens1f0np0 dscp-prio 0:0 1:0") != std::string::npos);

  SUBCASE("a second run leaves nccl.conf alone") {
    const auto before = fs::last_write_time(root / "etc/nccl.conf");
    fs::last_write_time(root / "etc/nccl.conf", old_time);
    CHECK(run(cmd) == 0);
    CHECK(fs::last_write_time(root / "etc/nccl.conf") == old_time);
    CHECK(before != old_time);
  }

  SUBCASE("a traffic_class showing the override already is not written again") {
    // What the driver shows after storing 106 (MLNX_OFED main_ext.c traffic_class_show).
    const fs::path tc = root / "sys/class/infiniband/mlx5_0/tc/1/traffic_class";
    write_file(tc, "Global tclass=106\n");
    fs::last_write_time(tc, old_time);
    CHECK(run(cmd) == 0);
    CHECK(fs::last_write_time(tc) == old_time);
    write_file(tc, "Global tclass=96\ndst_ip=10.0.0.0/24,tclass=104\n");  // another override: written
    CHECK(run(cmd) == 0);
    CHECK(read_file(tc) == "106\n");
  }

  SUBCASE("a DSCP app entry the driver refused stops the script") {
    CHECK(run("FAKE_DROP=26:3 " + cmd) != 0);
    CHECK(read_file(tmp.path / "out").find("ens1f0np0: DSCP 26:3 missing from the app table") != std::string::npos);
  }

  SUBCASE("a missing ecn sysfs stops the script before it changes anything") {
    fs::remove_all(root / "sys/class/net/ens2f0np0/ecn");
    fs::remove(log);
    CHECK(run(cmd) != 0);
    CHECK_FALSE(fs::exists(log));
    CHECK(read_file(tmp.path / "out").find("/sys/class/net/ens2f0np0/ecn: missing") != std::string::npos);
  }
}
