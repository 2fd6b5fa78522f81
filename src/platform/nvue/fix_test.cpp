#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "render/template_set.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf() { return test::example_switch(Platform::nvue, {"swp1", "swp2s0"}); }

std::string fix_of(const DeviceDesired& d, Setting setting, std::vector<int> keys = {}, size_t port = 0) {
  return nvue_fix(Fix{setting, &d, &d.ports.at(port), std::move(keys)});
}

std::string render_commands(const DeviceDesired& d) {
  Diags diags;
  auto text = read_template(FABRICCTL_SOURCE_DIR "/templates/nvue/commands.nvue.mustache", diags);
  REQUIRE(text);
  auto out = render_template(*text, nvue_context(d), "commands.nvue.mustache", diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

}  // namespace

TEST_CASE("nvue fix: the adapter row phrases NVUE fixes") {
  const DeviceDesired d = leaf();
  CHECK((adapter(Platform::nvue).fix == &nvue_fix));
  CHECK(fix_text(Fix{Setting::mtu, &d, &d.ports[1], {}}) ==
        "nv set interface swp2s0 link mtu 9100\nnv config apply -y");
}

TEST_CASE("nvue fix: nv set lines, then nv config apply; show commands bare") {
  const DeviceDesired d = leaf();
  CHECK(fix_of(d, Setting::mtu) == "nv set interface swp1 link mtu 9100\nnv config apply -y");
  CHECK(fix_of(d, Setting::link_up) == "nv set interface swp1 link state up\nnv config apply -y");
  CHECK(fix_of(d, Setting::trust) == "nv set qos mapping default-global trust l3\nnv config apply -y");
  CHECK(fix_of(d, Setting::dscp_map, {26, 48}) ==
        "nv set qos mapping default-global dscp 26 switch-priority 3\n"
        "nv set qos mapping default-global dscp 48 switch-priority 6\nnv config apply -y");
  CHECK(fix_of(d, Setting::pfc, {3}) == "nv set qos pfc default-global switch-priority 3\nnv config apply -y");
  CHECK(fix_of(d, Setting::ecn, {3}) ==
        "nv set qos congestion-control default-global traffic-class 3 ecn enable\n"
        "nv set qos congestion-control default-global traffic-class 3 min-threshold 153600\n"
        "nv set qos congestion-control default-global traffic-class 3 max-threshold 1536000\n"
        "nv set qos congestion-control default-global traffic-class 3 probability 20\n"
        "nv config apply -y");
  CHECK(fix_of(d, Setting::watchdog, {}, 1) ==
        "nv set qos pfc-watchdog polling-interval 100\nnv set qos pfc-watchdog robustness 2\n"
        "nv set interface swp2s0 qos pfc-watchdog state enable\nnv config apply -y");
  CHECK(fix_of(d, Setting::ets) ==
        "nv set qos egress-queue-mapping default-global switch-priority 0 traffic-class 0\n"
        "nv set qos egress-queue-mapping default-global switch-priority 1 traffic-class 0\n"
        "nv set qos egress-queue-mapping default-global switch-priority 2 traffic-class 0\n"
        "nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 3\n"
        "nv set qos egress-queue-mapping default-global switch-priority 4 traffic-class 0\n"
        "nv set qos egress-queue-mapping default-global switch-priority 5 traffic-class 0\n"
        "nv set qos egress-queue-mapping default-global switch-priority 6 traffic-class 6\n"
        "nv set qos egress-queue-mapping default-global switch-priority 7 traffic-class 0\n"
        "nv set qos egress-scheduler default-global traffic-class 0 mode dwrr\n"
        "nv set qos egress-scheduler default-global traffic-class 0 bw-percent 50\n"
        "nv set qos egress-scheduler default-global traffic-class 1 mode strict\n"
        "nv set qos egress-scheduler default-global traffic-class 2 mode strict\n"
        "nv set qos egress-scheduler default-global traffic-class 3 mode dwrr\n"
        "nv set qos egress-scheduler default-global traffic-class 3 bw-percent 50\n"
        "nv set qos egress-scheduler default-global traffic-class 4 mode strict\n"
        "nv set qos egress-scheduler default-global traffic-class 5 mode strict\n"
        "nv set qos egress-scheduler default-global traffic-class 6 mode strict\n"
        "nv set qos egress-scheduler default-global traffic-class 7 mode strict\n"
        "nv config apply -y");
  CHECK(fix_of(d, Setting::speed) == "nv show interface swp1 link");
  CHECK(fix_of(d, Setting::cabling) == "nv show interface swp1 lldp");

  DeviceDesired pcp = leaf();
  pcp.qos.trust = Trust::pcp;
  CHECK(fix_of(pcp, Setting::trust) == "nv set qos mapping default-global trust l2\nnv config apply -y");
  DeviceDesired lossy = leaf();
  lossy.qos.lossless.fill(false);
  CHECK(fix_of(lossy, Setting::pfc, {3}) == "nv unset qos pfc default-global\nnv config apply -y");
  DeviceDesired off = leaf();
  off.qos.watchdog.enabled = false;
  CHECK(fix_of(off, Setting::watchdog) == "nv unset interface swp1 qos pfc-watchdog\nnv config apply -y");
  DeviceDesired no_ecn = leaf();
  no_ecn.qos.ecn_enabled = false;
  no_ecn.qos.ecn.clear();
  CHECK(fix_of(no_ecn, Setting::ecn, {3}) ==
        "nv set qos congestion-control default-global traffic-class 3 ecn disable\nnv config apply -y");
}

TEST_CASE("nvue fix: host settings have no switch command") {
  const DeviceDesired d = leaf();
  for (Setting s : {Setting::dcqcn, Setting::cnp, Setting::rdma_gid, Setting::rdma_port}) CHECK(fix_of(d, s).empty());
}

TEST_CASE("nvue fix: every nv set line is a line of the rendered commands.nvue") {
  DeviceDesired d = leaf();
  d.ports[1].mtu = 9000;
  const std::string commands = render_commands(d);
  for (size_t port = 0; port < d.ports.size(); ++port) {
    for (Setting s : {Setting::mtu, Setting::trust, Setting::dscp_map, Setting::pfc, Setting::ets, Setting::ecn,
                      Setting::watchdog}) {
      const std::vector<std::string> lines = test::lines_of(fix_of(d, s, {}, port));
      REQUIRE(lines.size() >= 2);
      CHECK(lines.back() == "nv config apply -y");
      for (size_t i = 0; i + 1 < lines.size(); ++i) {
        CAPTURE(lines[i]);
        CHECK(test::has_line(commands, lines[i]));
      }
    }
  }
  CHECK(fix_of(d, Setting::mtu, {}, 1) == "nv set interface swp2s0 link mtu 9000\nnv config apply -y");
}

TEST_CASE("nvue fix: PFC in RoCE mode is RoCE turned back on, in the inventory release's words") {
  DeviceDesired d = leaf();
  d.qos.ecn = {{0, 150000, 1500000, 100}, {3, 150000, 1500000, 100}};  // RoCE mode's profile
  d.qos.watchdog.enabled = true;
  REQUIRE(nvue_context(d)["roce"].is_object());
  CHECK(fix_of(d, Setting::pfc, {3}) == "nv set qos roce enable on\nnv set qos roce mode lossless\nnv config apply -y");
  d.hardware.nos_release = "5.15";
  CHECK(fix_of(d, Setting::pfc, {3}) ==
        "nv set qos roce state enabled\nnv set qos roce mode lossless\nnv config apply -y");
}
