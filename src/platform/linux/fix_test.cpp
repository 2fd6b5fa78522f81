#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "render/template_set.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

/// The fix of `setting` on the host's first NIC (ens1f0np0), or on `port`.
std::string fix_of(const DeviceDesired& host, Setting setting, std::vector<int> keys = {}, size_t port = 0) {
  return linux_fix(Fix{setting, &host, &host.ports.at(port), std::move(keys)});
}

std::string render_apply_sh(const DeviceDesired& device) {
  Diags diags;
  const auto path = std::filesystem::path(FABRICCTL_SOURCE_DIR) / "templates" / "linux" / "apply.sh.mustache";
  auto text = read_template(path, diags);
  REQUIRE_MESSAGE(text, diags.str());
  auto out = render_template(*text, linux_context(device), path.string(), diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

}  // namespace

TEST_CASE("linux fix: the adapter row phrases Linux fixes") {
  const DeviceDesired host = test::example_host();
  const Fix f{Setting::mtu, &host, &host.ports[1], {}};
  CHECK((adapter(Platform::linux_host).fix == &linux_fix));
  CHECK(fix_text(f) == "ip link set dev 'ens2f0np0' mtu 9000");
}

TEST_CASE("linux fix: one command per setting, the port quoted for the shell") {
  const DeviceDesired host = test::example_host();
  CHECK(fix_of(host, Setting::mtu) == "ip link set dev 'ens1f0np0' mtu 9000");
  CHECK(fix_of(host, Setting::link_up) == "ip link set dev 'ens1f0np0' up");
  CHECK(fix_of(host, Setting::speed) == "ethtool 'ens1f0np0'");
  CHECK(fix_of(host, Setting::cabling) == "lldpcli show neighbors ports 'ens1f0np0'");
  CHECK(fix_of(host, Setting::rdma_gid) == "ip addr show dev 'ens1f0np0'");
  CHECK(fix_of(host, Setting::rdma_port, {}, 1) == "rdma link show 'mlx5_1/1'");
  CHECK(fix_of(host, Setting::cnp) ==
        "echo 48 > '/sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp'\n"
        "echo 6 > '/sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio'");
  CHECK(fix_of(host, Setting::ets) ==
        "dcb ets set dev 'ens1f0np0' prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 tc-tsa 0:ets 1:strict 2:strict 3:ets "
        "4:strict 5:strict 6:strict 7:strict tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0");

  // A name the shell would split or expand stays one word.
  DeviceDesired odd = host;
  odd.ports[0].name = "en's 1";
  CHECK(fix_of(odd, Setting::mtu) == "ip link set dev 'en'\\''s 1' mtu 9000");
  CHECK(fix_of(odd, Setting::cnp).rfind("echo 48 > '/sys/class/net/en'\\''s 1/ecn/roce_np/cnp_dscp'", 0) == 0);
}

TEST_CASE("linux fix: DCQCN parameters: the profile's values of those that differ, as apply.sh writes them") {
  DeviceDesired host = test::example_host();
  host.qos.dcqcn.rp = {{"rpg_time_reset", 300}, {"rpg_ai_rate", 10}};
  host.qos.dcqcn.np_min_time_between_cnps = 0;
  const int ai =
      static_cast<int>(std::find(kDcqcnRpParams.begin(), kDcqcnRpParams.end(), "rpg_ai_rate") - kDcqcnRpParams.begin());
  CHECK(fix_of(host, Setting::dcqcn_params, {ai}) == "echo 10 > '/sys/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate'");
  CHECK(fix_of(host, Setting::dcqcn_params, {kDcqcnNpGapKey}) ==
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_np/min_time_between_cnps'");
  CHECK(fix_of(host, Setting::dcqcn_params) ==
        "echo 300 > '/sys/class/net/ens1f0np0/ecn/roce_rp/rpg_time_reset'\n"
        "echo 10 > '/sys/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate'\n"
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_np/min_time_between_cnps'");
}

TEST_CASE("linux fix: PFC, DSCP and DCQCN set only the keys that differ; no keys means all") {
  const DeviceDesired host = test::example_host();
  CHECK(fix_of(host, Setting::pfc, {3}) == "dcb pfc set dev 'ens1f0np0' prio-pfc 3:on");
  CHECK(fix_of(host, Setting::pfc, {3, 4}) == "dcb pfc set dev 'ens1f0np0' prio-pfc 3:on 4:off");
  CHECK(fix_of(host, Setting::pfc) ==
        "dcb pfc set dev 'ens1f0np0' prio-pfc 0:off 1:off 2:off 3:on 4:off 5:off 6:off 7:off");

  CHECK(fix_of(host, Setting::dscp_map, {26, 48}) == "dcb app replace dev 'ens1f0np0' dscp-prio 26:3 48:6");
  CHECK(fix_of(host, Setting::dscp_map, {10}) == "dcb app replace dev 'ens1f0np0' dscp-prio 10:0");

  CHECK(fix_of(host, Setting::dcqcn, {3}) ==
        "echo 1 > '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3'\n"
        "echo 1 > '/sys/class/net/ens1f0np0/ecn/roce_np/enable/3'");
  const std::vector<std::string> all = test::lines_of(fix_of(host, Setting::dcqcn));
  REQUIRE(all.size() == 16);
  CHECK(all[0] == "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/0'");
  CHECK(all[6] == "echo 1 > '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3'");
  CHECK(all[7] == "echo 1 > '/sys/class/net/ens1f0np0/ecn/roce_np/enable/3'");
  CHECK(all[15] == "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_np/enable/7'");

  DeviceDesired off = host;
  off.qos.dcqcn.enabled = false;
  CHECK(fix_of(off, Setting::dcqcn, {3}) ==
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3'\n"
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_np/enable/3'");
}

TEST_CASE("linux fix: trust follows the mlx5 rule, DSCP while the app table has entries") {
  DeviceDesired host = test::example_host();
  std::string pairs;
  for (int d = 0; d < kDscpValues; ++d) pairs += " " + std::to_string(d) + ":" + (d == 26 ? "3" : d == 48 ? "6" : "0");
  CHECK(fix_of(host, Setting::trust) == "dcb app replace dev 'ens1f0np0' dscp-prio" + pairs);
  // Keys of a trust fix do not narrow it: trusting DSCP needs the whole map.
  CHECK(fix_of(host, Setting::trust, {26}) == "dcb app replace dev 'ens1f0np0' dscp-prio" + pairs);

  host.qos.trust = Trust::pcp;
  CHECK(fix_of(host, Setting::trust) == "dcb app flush dev 'ens1f0np0' dscp-prio");
  CHECK(fix_of(host, Setting::dscp_map, {26}) == "dcb app flush dev 'ens1f0np0' dscp-prio");
}

TEST_CASE("linux fix: switch settings have no host command") {
  const DeviceDesired host = test::example_host();
  CHECK(fix_of(host, Setting::ecn, {3}).empty());
  CHECK(fix_of(host, Setting::watchdog).empty());
}

TEST_CASE("linux fix: the MTU command is the one apply.sh runs") {
  DeviceDesired host = test::example_host();
  host.ports[1].mtu = 4200;
  const std::string script = render_apply_sh(host);
  for (size_t i = 0; i < host.ports.size(); ++i) {
    const std::string line = fix_of(host, Setting::mtu, {}, i);
    CAPTURE(line);
    CHECK(test::has_line(script, line));
  }
  CHECK(fix_of(host, Setting::mtu, {}, 1) == "ip link set dev 'ens2f0np0' mtu 4200");
}
