#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "render/template_set.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf_to_fix() { return test::example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1"}); }

std::string fix_of(const DeviceDesired& d, Setting setting, std::vector<int> keys = {}, size_t port = 0) {
  return eos_fix(Fix{setting, &d, &d.ports.at(port), std::move(keys)});
}

std::string render_session(const DeviceDesired& d) {
  Diags diags;
  auto text = read_template(FABRICCTL_SOURCE_DIR "/templates/eos/session.cfg.mustache", diags);
  REQUIRE(text);
  auto out = render_template(*text, eos_context(d), "session.cfg.mustache", diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

}  // namespace

TEST_CASE("eos fix: the adapter row phrases EOS fixes") {
  const DeviceDesired d = leaf_to_fix();
  CHECK((adapter(Platform::eos).fix == &eos_fix));
  CHECK(fix_text(Fix{Setting::mtu, &d, &d.ports[1], {}}) == "configure\ninterface Ethernet2/1\n   mtu 9100\nend");
}

TEST_CASE("eos fix: configuration wrapped in configure ... end, show commands bare") {
  const DeviceDesired d = leaf_to_fix();
  CHECK(fix_of(d, Setting::mtu) == "configure\ninterface Ethernet1/1\n   mtu 9100\nend");
  CHECK(fix_of(d, Setting::trust) == "configure\ninterface Ethernet1/1\n   qos trust dscp\nend");
  CHECK(fix_of(d, Setting::link_up) == "configure\ninterface Ethernet1/1\n   no shutdown\nend");
  CHECK(fix_of(d, Setting::dscp_map, {26, 48}) ==
        "configure\nqos map dscp 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\nend");
  CHECK(
      fix_of(d, Setting::pfc, {3}) ==
      "configure\ninterface Ethernet1/1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\nend");
  CHECK(
      fix_of(d, Setting::pfc, {4}) ==
      "configure\ninterface Ethernet1/1\n   priority-flow-control on\n   no priority-flow-control priority 4 no-drop\n"
      "end");
  CHECK(
      fix_of(d, Setting::ecn, {3}) ==
      "configure\ninterface Ethernet1/1\n   uc-tx-queue 3\n"
      "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1536000 bytes max-mark-probability 20 "
      "weight 0\n"
      "end");
  // ECN off on a queue: the form EOS prints for the default.
  CHECK(fix_of(d, Setting::ecn, {0}) ==
        "configure\ninterface Ethernet1/1\n   uc-tx-queue 0\n      no random-detect ecn minimum-threshold\nend");
  CHECK(fix_of(d, Setting::ets) ==
        "configure\n"
        "qos map traffic-class 0 1 2 4 5 to uc-tx-queue 0\n"
        "qos map traffic-class 3 to uc-tx-queue 3\n"
        "qos map traffic-class 6 to uc-tx-queue 6\n"
        "interface Ethernet1/1\n"
        "   uc-tx-queue 0\n      no priority\n      bandwidth percent 50\n"
        "   uc-tx-queue 3\n      no priority\n      bandwidth percent 50\n"
        "   uc-tx-queue 6\n      priority strict\n      no bandwidth percent\n"
        "end");
  CHECK(fix_of(d, Setting::watchdog) ==
        "configure\n"
        "priority-flow-control pause watchdog default timeout 0.2\n"
        "priority-flow-control pause watchdog default recovery-time 0.2\n"
        "priority-flow-control pause watchdog default polling-interval 0.1\n"
        "priority-flow-control pause watchdog action drop\n"
        "interface Ethernet1/1\n"
        "   priority-flow-control pause watchdog\n"
        "end");
  CHECK(fix_of(d, Setting::speed) == "show interfaces Ethernet1/1 status\nshow interfaces Ethernet1/1 transceiver");
  CHECK(fix_of(d, Setting::cabling) == "show lldp neighbors Ethernet1/1 detail");

  DeviceDesired pcp = leaf_to_fix();
  pcp.qos.trust = Trust::pcp;
  CHECK(fix_of(pcp, Setting::trust) == "configure\ninterface Ethernet1/1\n   qos trust cos\nend");
  DeviceDesired off = leaf_to_fix();
  off.qos.watchdog.enabled = false;
  CHECK(fix_of(off, Setting::watchdog) ==
        "configure\ninterface Ethernet1/1\n   no priority-flow-control pause watchdog\nend");
  // A Jericho switch: its queues are tx-queue, in the fix as in session.cfg.
  DeviceDesired voq = leaf_to_fix();
  voq.hardware.voq = true;
  CHECK(
      fix_of(voq, Setting::ecn, {3}) ==
      "configure\ninterface Ethernet1/1\n   tx-queue 3\n"
      "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1536000 bytes max-mark-probability 20 "
      "weight 0\n"
      "end");
}

TEST_CASE("eos fix: host settings have no switch command") {
  const DeviceDesired d = leaf_to_fix();
  for (Setting s : {Setting::dcqcn, Setting::cnp, Setting::rdma_gid, Setting::rdma_port}) CHECK(fix_of(d, s).empty());
}

TEST_CASE("eos fix: every configuration line is a line of the rendered session.cfg") {
  DeviceDesired d = leaf_to_fix();
  d.ports[1].mtu = 9000;
  const std::string session = render_session(d);
  for (size_t port = 0; port < d.ports.size(); ++port) {
    for (Setting s : {Setting::mtu, Setting::trust, Setting::pfc, Setting::ets, Setting::ecn, Setting::watchdog}) {
      const std::vector<std::string> lines = test::lines_of(fix_of(d, s, {3}, port));
      REQUIRE(lines.size() >= 3);
      CHECK(lines.front() == "configure");
      CHECK(lines.back() == "end");
      for (size_t i = 1; i + 1 < lines.size(); ++i) {
        CAPTURE(lines[i]);
        CHECK(test::has_line(session, lines[i]));
      }
    }
  }
  CHECK(fix_of(d, Setting::mtu, {}, 1) == "configure\ninterface Ethernet2/1\n   mtu 9000\nend");
}
