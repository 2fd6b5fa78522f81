// Linux host adapter: the nic-state document, its layout, and the guarantee that apply.sh sets exactly
// what nic-state.json says. The agreement check reads apply.sh as commands and fails on any value of
// the document that the script does not set, and on any field of the document it does not know.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/linux/nic.h"
#include "platform/linux/nic_state.h"
#include "platform/platform.h"
#include "render/template_set.h"
#include "util/escape.h"

using namespace fabricctl;
using nlohmann::ordered_json;

namespace {

/// apply.sh rendered from `state` through the shipped template, as `fabricctl render` does.
std::string apply_sh(const ordered_json& state, int roce_dscp) {
  Diags diags;
  const auto path = std::filesystem::path(FABRICCTL_SOURCE_DIR) / "templates" / "linux" / "apply.sh.mustache";
  const auto text = read_template(path, diags);
  REQUIRE_MESSAGE(text, diags.str());
  const auto out = render_template(*text, linux_host::apply_context(state, roce_dscp), path.string(), diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

/// The commands of one port's section of apply.sh ("# ---- <netdev>..." up to the next section),
/// continuation lines joined, comments dropped.
std::set<std::string> port_commands(const std::string& sh, const std::string& netdev) {
  std::set<std::string> commands;
  std::istringstream in(sh);
  bool inside = false;
  std::string command;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# ---- ", 0) == 0) {
      const std::string title = line.substr(7);
      inside = title == netdev || title.rfind(netdev + ":", 0) == 0;
      continue;
    }
    if (!inside || line.empty() || line[0] == '#') continue;
    const bool continues = line.size() >= 2 && line.substr(line.size() - 2) == " \\";
    command += (command.empty() ? "" : " ") + line.substr(line.find_first_not_of(' '));
    if (continues) {
      command.resize(command.size() - 2);
      continue;
    }
    commands.insert(command);
    command.clear();
  }
  return commands;
}

std::string q(const std::string& s) { return shell_quote(s); }

std::string dcb_map(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? " " : "") + std::to_string(i) + ":" + values[i];
  return out;
}

/// Every leaf of a port of nic-state.json, as "pfc/cable_length_m" etc. (array items count as one leaf).
void leaves(const ordered_json& j, const std::string& prefix, std::set<std::string>& out) {
  if (!j.is_object()) {
    out.insert(prefix);
    return;
  }
  for (const auto& [k, v] : j.items()) leaves(v, prefix.empty() ? k : prefix + "/" + k, out);
}

/// What in `state` apply.sh does not set as the document says; empty when they agree.
std::vector<std::string> disagreements(const ordered_json& state, const std::string& sh) {
  // Leaves apply.sh sets, and leaves that only describe the port for verify (no command sets them).
  static const std::set<std::string> applied = {"netdev",
                                                "mtu",
                                                "rdma/device",
                                                "rdma/port",
                                                "rdma/gid_type",
                                                "rdma/roce_tos",
                                                "rdma/traffic_class",
                                                "trust",
                                                "app_dscp_prio",
                                                "pfc/enabled_priorities",
                                                "pfc/cable_length_m",
                                                "ets/prio_tc",
                                                "ets/tc",
                                                "dcqcn/enabled",
                                                "dcqcn/rp_enabled_priorities",
                                                "dcqcn/np_enabled_priorities",
                                                "dcqcn/cnp_dscp",
                                                "dcqcn/cnp_802p_prio",
                                                "dcqcn/min_time_between_cnps"};
  static const std::set<std::string> described = {"speed_mbps", "rail", "peer",     "peer/device",
                                                  "peer/port",  "rdma", "rdma/mtu", "headroom_bytes"};
  std::vector<std::string> out;
  for (const ordered_json& ps : state.at("ports")) {
    const std::string netdev = ps.at("netdev").get<std::string>();
    const std::set<std::string> cmds = port_commands(sh, netdev);
    const auto need = [&](const std::string& command) {
      if (!cmds.count(command)) out.push_back(netdev + ": no command `" + command + "`");
    };
    std::set<std::string> fields;
    leaves(ps, "", fields);
    for (const std::string& f : fields)
      if (!applied.count(f) && !described.count(f) && f.rfind("dcqcn/rp/", 0) != 0)
        out.push_back(netdev + ": field " + f + " is neither applied nor known to be descriptive");

    need("ip link set dev " + q(netdev) + " mtu " + std::to_string(ps["mtu"].get<int>()));

    std::vector<std::string> prio_tc, tsa, bw;
    for (const auto& tc : ps["ets"]["prio_tc"]) prio_tc.push_back(std::to_string(tc.get<int>()));
    for (const auto& t : ps["ets"]["tc"]) {
      tsa.push_back(t["tsa"].get<std::string>());
      bw.push_back(std::to_string(t["bw"].get<int>()));
    }
    need("dcb ets set dev " + q(netdev) + " prio-tc " + dcb_map(prio_tc) + " tc-tsa " + dcb_map(tsa) + " tc-bw " +
         dcb_map(bw));

    std::vector<std::string> pfc(8, "off");
    for (const auto& p : ps["pfc"]["enabled_priorities"]) pfc.at(p.get<size_t>()) = "on";
    const int cable = ps["pfc"]["cable_length_m"].get<int>();
    need("dcb pfc set dev " + q(netdev) + " prio-pfc " + dcb_map(pfc) +
         (cable > 0 && cable < linux_host::kMlx5MaxCableLengthM ? " delay " + std::to_string(cable) : ""));

    if (ps["trust"] == "dscp") {
      std::string pairs;
      for (const auto& pair : ps["app_dscp_prio"])
        pairs += " " + std::to_string(pair[0].get<int>()) + ":" + std::to_string(pair[1].get<int>());
      need("dcb app replace dev " + q(netdev) + " dscp-prio" + pairs);
      need("check_app " + q(netdev) + pairs);
    } else {
      if (!ps["app_dscp_prio"].empty()) out.push_back(netdev + ": DSCP app entries with trust " + ps["trust"].dump());
      need("dcb app flush dev " + q(netdev) + " dscp-prio");
      need("check_app " + q(netdev));
    }

    if (!ps["rdma"].is_null()) {
      const std::string dir = "/sys/kernel/config/rdma_cm/" + ps["rdma"]["device"].get<std::string>() + "/ports/" +
                              std::to_string(ps["rdma"]["port"].get<int>());
      need("set_sysfs " + q(dir + "/default_roce_mode") + " " + q(ps["rdma"]["gid_type"].get<std::string>()));
      need("set_sysfs " + q(dir + "/default_roce_tos") + " " + std::to_string(ps["rdma"]["roce_tos"].get<int>()));
      need("set_tclass " +
           q(linux_host::traffic_class_path(ps["rdma"]["device"].get<std::string>(), ps["rdma"]["port"].get<int>())) +
           " " + std::to_string(ps["rdma"]["traffic_class"].get<int>()));
    }

    const ordered_json& dcqcn = ps["dcqcn"];
    const std::string ecn = "/sys/class/net/" + netdev + "/ecn/";
    const auto sysfs = [&](const std::string& file, const ordered_json& value) {
      need("set_sysfs " + q(ecn + file) + " " + std::to_string(value.get<int>()));
    };
    if (dcqcn["enabled"].get<bool>()) {
      sysfs("roce_np/cnp_dscp", dcqcn["cnp_dscp"]);
      sysfs("roce_np/cnp_802p_prio", dcqcn["cnp_802p_prio"]);
      // null: the profile leaves it to the firmware, and apply.sh writes nothing
      if (!dcqcn["min_time_between_cnps"].is_null())
        sysfs("roce_np/min_time_between_cnps", dcqcn["min_time_between_cnps"]);
      for (const auto& [name, value] : dcqcn["rp"].items()) sysfs("roce_rp/" + name, value);
    }
    for (const auto& [point, key] :
         {std::pair{"roce_rp", "rp_enabled_priorities"}, std::pair{"roce_np", "np_enabled_priorities"}}) {
      std::set<int> on;
      for (const auto& p : dcqcn[key]) on.insert(p.get<int>());
      for (int p = 0; p < 8; ++p) sysfs(std::string(point) + "/enable/" + std::to_string(p), on.count(p) ? 1 : 0);
    }
  }
  // The host's NCCL defaults: apply.sh replaces fabricctl's keys in /etc/nccl.conf with these lines.
  std::set<std::string> nccl_fields;
  leaves(state.at("nccl"), "nccl", nccl_fields);
  for (const std::string& f : nccl_fields)
    if (f != "nccl/ib_hca" && f != "nccl/ib_tc" && f != "nccl/ib_gid_index")
      out.push_back("field " + f + " is neither applied nor known to be descriptive");
  std::string set_conf = "set_conf " + q(std::string(linux_host::kNcclConf));
  for (std::string_view k : linux_host::kNcclKeys) set_conf += " " + std::string(k);
  set_conf += " --";
  const ordered_json& nccl = state.at("nccl");
  std::string hca = "=";
  for (const auto& h : nccl["ib_hca"])
    hca += (hca.size() > 1 ? "," : "") + h["device"].get<std::string>() + ":" + std::to_string(h["port"].get<int>());
  if (!nccl["ib_hca"].empty()) set_conf += " " + q("NCCL_IB_HCA=" + hca);
  set_conf += " " + q("NCCL_IB_TC=" + std::to_string(nccl["ib_tc"].get<int>()));
  if (!nccl["ib_gid_index"].is_null())
    set_conf += " " + q("NCCL_IB_GID_INDEX=" + std::to_string(nccl["ib_gid_index"].get<int>()));
  if (!port_commands(sh, "NCCL defaults (nccl.conf beside this script)").count(set_conf))
    out.push_back("no command `" + set_conf + "`");
  return out;
}

}  // namespace

TEST_CASE("linux: apply.sh sets every value of nic-state.json, for every variant") {
  DeviceDesired host = test::example_host();
  SUBCASE("roce-lossless") {}
  SUBCASE("DCQCN off") { host.qos.dcqcn.enabled = false; }
  SUBCASE("DCQCN parameters set by the profile") {
    host.qos.dcqcn.rp = {{"rpg_ai_rate", 10}, {"rpg_hai_rate", 100}};
    host.qos.dcqcn.np_min_time_between_cnps = 4;
  }
  SUBCASE("PCP trust, no RDMA, unknown cable length, no peer") {
    host.qos.trust = Trust::pcp;
    host.ports[0].rdma_device.clear();
    host.ports[0].cable_length_m = 0;
    host.ports[1].peer_device.clear();
    host.ports[1].speed_mbps.reset();
  }
  SUBCASE("two lossless priorities, no ETS share for TC 0") {
    host.qos.lossless[4] = true;
    host.qos.priority_to_tc[4] = 4;
    host.qos.tc[4] = {true, false, 50};
    host.qos.tc[0].bandwidth_pct = 0;
  }
  SUBCASE("no lossless priority") { host.qos.lossless.fill(false); }
  SUBCASE("NCCL picks the GID, rails in reverse inventory order") {
    host.qos.nccl_gid_index = kNcclGidAuto;
    host.ports[0].rail = 1;
    host.ports[1].rail = 0;
  }
  const ordered_json state = linux_host::nic_state(host);
  const std::string sh = apply_sh(state, host.qos.roce_dscp);
  const auto problems = disagreements(state, sh);
  for (const std::string& p : problems) CAPTURE(p);
  CHECK_MESSAGE(problems.empty(), (problems.empty() ? "" : problems.front()));
  // What `fabricctl render` writes is these two, from the same document.
  CHECK(linux_nic_state_json(host, linux_nic_state(host)) == linux_host::dump_nic_state(state));
  CHECK(apply_sh(state, host.qos.roce_dscp) == sh);
}

TEST_CASE("linux: apply.sh follows each port's own QoS when the ports of a document differ") {
  // The context builds the QoS part once for ports that share it; a port whose QoS differs (here,
  // the second one) must still get its own.
  const DeviceDesired host = test::example_host();
  ordered_json state = linux_host::nic_state(host);
  REQUIRE(state["ports"].size() >= 2);
  SUBCASE("DSCP map") { state["ports"][1]["app_dscp_prio"][26][1] = 0; }
  SUBCASE("PFC") { state["ports"][1]["pfc"]["enabled_priorities"] = {3, 4}; }
  SUBCASE("ETS") { state["ports"][1]["ets"]["prio_tc"][5] = 2; }
  SUBCASE("DCQCN enables") { state["ports"][1]["dcqcn"]["rp_enabled_priorities"] = ordered_json::array(); }
  SUBCASE("trust") {
    state["ports"][1]["trust"] = "pcp";
    state["ports"][1]["app_dscp_prio"] = ordered_json::array();
  }
  const std::string sh = apply_sh(state, host.qos.roce_dscp);
  const auto problems = disagreements(state, sh);
  CHECK_MESSAGE(problems.empty(), (problems.empty() ? "" : problems.front()));
}

TEST_CASE("linux: the agreement check fails when apply.sh and nic-state.json disagree") {
  const DeviceDesired host = test::example_host();
  const ordered_json state = linux_host::nic_state(host);
  const std::string sh = apply_sh(state, host.qos.roce_dscp);
  REQUIRE(disagreements(state, sh).empty());

  // The document says one thing, the script was rendered from another.
  ordered_json other = state;
  SUBCASE("MTU") { other["ports"][0]["mtu"] = 1500; }
  SUBCASE("a DSCP mapping") { other["ports"][1]["app_dscp_prio"][26][1] = 0; }
  SUBCASE("PFC") { other["ports"][0]["pfc"]["enabled_priorities"] = {3, 4}; }
  SUBCASE("ETS") { other["ports"][0]["ets"]["tc"][0]["bw"] = 40; }
  SUBCASE("RoCE ToS") { other["ports"][0]["rdma"]["roce_tos"] = 104; }
  SUBCASE("a DCQCN parameter") { other["ports"][1]["dcqcn"]["rp"]["rpg_ai_rate"] = 6; }
  SUBCASE("a DCQCN enable") { other["ports"][0]["dcqcn"]["np_enabled_priorities"] = ordered_json::array(); }
  SUBCASE("a field apply.sh does not know") { other["ports"][0]["pfc"]["buffer_size"] = 1; }
  CHECK_FALSE(disagreements(other, sh).empty());
}

TEST_CASE("linux: nic-state.json layout: 2-space indentation, short flat values on one line") {
  const ordered_json doc = ordered_json::parse(R"({"a": [1, 2], "o": {"x": 1, "peer": {"device": "d", "port": "p"},
      "list": [[0, 1], {"tc": 0}], "e": [], "n": null}})");
  CHECK(linux_host::dump_nic_state(doc) ==
        "{\n"
        "  \"a\": [1, 2],\n"
        "  \"o\": {\n"
        "    \"x\": 1,\n"
        "    \"peer\": {\"device\": \"d\", \"port\": \"p\"},\n"
        "    \"list\": [\n"
        "      [0, 1],\n"
        "      {\"tc\": 0}\n"
        "    ],\n"
        "    \"e\": [],\n"
        "    \"n\": null\n"
        "  }\n"
        "}\n");
  // Any object that is not the peer or an array item spreads over lines, even when flat.
  CHECK(linux_host::dump_nic_state(ordered_json::parse(R"({"rdma": {"port": 1}})")) ==
        "{\n  \"rdma\": {\n    \"port\": 1\n  }\n}\n");
  CHECK(linux_host::dump_nic_state(ordered_json::parse(R"({"s": "a\"b"})")) == "{\n  \"s\": \"a\\\"b\"\n}\n");
}
