// The running-config reader on EOS's layout: defaults for absent lines, the forms AVD renders (the
// reference intended config), units, errors with the line and the bad value, and the keep filter.
#include "platform/eos/running_config.h"

#include <doctest/doctest.h>

#include "platform/eos/config_lines.h"
#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::eos;

namespace {

RunningConfig parsed(const std::string& text) {
  auto c = parse_running_config(text);
  REQUIRE_MESSAGE(c, c.error());
  return *c;
}

PortObserved port(const RunningConfig& c, std::string_view name) {
  auto p = port_from_running_config(c, name);
  REQUIRE_MESSAGE(p, p.error());
  return *p;
}

std::string error_of(const std::string& text) {
  auto c = parse_running_config(text);
  REQUIRE(!c);
  return c.error();
}

}  // namespace

TEST_CASE("eos running-config: a port no line configures has EOS's defaults") {
  const RunningConfig c = parsed("interface Ethernet1\n   description x\n!\nend\n");
  CHECK(c.ended);
  const PortObserved p = port(c, "Ethernet1");
  CHECK_FALSE(p.mtu);
  CHECK(p.trust == Trust::pcp);  // a switched port trusts COS
  CHECK((*p.dscp_to_priority)[0] == 1);
  CHECK((*p.dscp_to_priority)[8] == 0);
  CHECK((*p.dscp_to_priority)[26] == 3);
  CHECK((*p.dscp_to_priority)[63] == 7);
  CHECK(*p.priority_to_tc == std::array<int, 8>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(*p.lossless == std::array<bool, 8>{});
  CHECK_FALSE(p.watchdog->enabled);
  for (const TcSchedule& s : *p.tc) CHECK(s.strict);
  CHECK(p.ecn->empty());
  CHECK(port(parsed("interface Ethernet2\n   no switchport\n!\n"), "Ethernet2").trust == Trust::dscp);
  CHECK(port(c, "Ethernet7").trust == Trust::pcp);  // no block at all
}

TEST_CASE("eos running-config: the lines session.cfg writes, as EOS prints them") {
  const RunningConfig c = parsed(
      "qos map dscp 0 1 2 3 to traffic-class 0\n"
      "qos map dscp 26 to traffic-class 3\n"
      "qos map traffic-class 0 1 2 4 5 to uc-tx-queue 0\n"
      "qos map traffic-class 3 to uc-tx-queue 3\n"
      "qos map traffic-class 6 to uc-tx-queue 6\n"
      "!\n"
      "priority-flow-control pause watchdog default timeout 0.2\n"
      "priority-flow-control pause watchdog default recovery-time 1.11\n"
      "priority-flow-control pause watchdog default polling-interval 0.05\n"
      "priority-flow-control pause watchdog action drop\n"
      "!\n"
      "interface Ethernet1/1\n"
      "   mtu 9100\n"
      "   qos trust dscp\n"
      "   priority-flow-control on\n"
      "   priority-flow-control priority 3 no-drop\n"
      "   !\n"
      "   uc-tx-queue 0\n"
      "      no priority\n"
      "      bandwidth percent 50\n"
      "   !\n"
      "   uc-tx-queue 3\n"
      "      no priority\n"
      "      bandwidth percent 50\n"
      "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1500 kbytes max-mark-probability 20 weight 0\n"
      "!\n"
      "interface Ethernet2/1\n"
      "   priority-flow-control on\n"
      "   priority-flow-control priority 3 no-drop\n"
      "   no priority-flow-control pause watchdog\n"
      "   !\n"
      "   uc-tx-queue 3\n"
      "      random-detect ecn minimum-threshold 1 mbytes maximum-threshold 2 mbytes\n"
      "!\n"
      "end\n");
  const PortObserved p = port(c, "Ethernet1/1");
  CHECK(p.mtu == 9100);
  CHECK(p.trust == Trust::dscp);
  CHECK((*p.dscp_to_priority)[2] == 0);
  CHECK((*p.dscp_to_priority)[26] == 3);
  CHECK(*p.priority_to_tc == std::array<int, 8>{0, 0, 0, 3, 0, 0, 6, 7});
  CHECK(*p.lossless == std::array<bool, 8>{false, false, false, true});
  REQUIRE(p.watchdog);
  CHECK(p.watchdog->enabled);
  CHECK(p.watchdog->detection_ms == 200);
  CHECK(p.watchdog->restoration_ms == 1110);
  CHECK(p.watchdog->poll_interval_ms == 50);
  CHECK(p.watchdog->action == WatchdogAction::drop);
  CHECK_FALSE((*p.tc)[0].strict);
  CHECK((*p.tc)[0].bandwidth_pct == 50);
  CHECK((*p.tc)[6].strict);
  CHECK((*p.tc)[6].used);
  CHECK_FALSE((*p.tc)[1].used);
  REQUIRE(p.ecn->size() == 1);
  CHECK((*p.ecn)[0].min_bytes == 153600);
  CHECK((*p.ecn)[0].max_bytes == 1500 * 1024);  // a kbyte read as 1024 bytes
  CHECK((*p.ecn)[0].probability_pct == 20);
  const PortObserved q = port(c, "Ethernet2/1");
  CHECK_FALSE(q.watchdog->enabled);
  CHECK((*q.tc)[3].strict);
  REQUIRE(q.ecn->size() == 1);
  CHECK((*q.ecn)[0].min_bytes == 1024 * 1024);
  CHECK((*q.ecn)[0].probability_pct == 100);  // EOS's default max-mark-probability
}

TEST_CASE("eos running-config: PFC off keeps its priority lines but makes nothing lossless") {
  const PortObserved p =
      port(parsed("interface Ethernet1\n   priority-flow-control priority 3 no-drop\n!\n"), "Ethernet1");
  CHECK(*p.lossless == std::array<bool, 8>{});
  CHECK_FALSE(p.watchdog->enabled);
}

TEST_CASE("eos running-config: a watchdog timer with no known value leaves the watchdog not collected") {
  const std::string head = "priority-flow-control pause watchdog default timeout 0.2\n";
  const std::string port_block =
      "interface Ethernet1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n";
  CHECK_FALSE(port(parsed(head + port_block), "Ethernet1").watchdog);
  const PortObserved p = port(
      parsed(
          head + port_block +
          "   priority-flow-control pause watchdog port timer timeout 0.05 polling-interval 0.01 recovery-time 1.11 forced\n"
          "   priority-flow-control pause watchdog port action no-drop\n"),
      "Ethernet1");
  REQUIRE(p.watchdog);
  CHECK(p.watchdog->detection_ms == 50);
  CHECK(p.watchdog->poll_interval_ms == 10);
  CHECK(p.watchdog->action == WatchdogAction::forward);
}

TEST_CASE("eos running-config: errors name the line and quote the bad value") {
  CHECK(error_of("qos map dscp 26 64 to traffic-class 3\n") == "running-config line 1: \"64\" is not a DSCP 0-63");
  CHECK(error_of("!\nqos map dscp 26 to traffic-class 9\n") ==
        "running-config line 2: \"9\" is not a traffic-class 0-7");
  CHECK(error_of("qos map dscp 26 to traffic-class\n") ==
        "running-config line 1: \"qos map dscp 26 to traffic-class\" is not `... <list> to <map> <n>`");
  CHECK(error_of("qos map dscp 26 to queue 3\n") ==
        "running-config line 1: \"qos map dscp 26 to queue 3\" is not `qos map dscp <list> to traffic-class <0-7>`");
  CHECK(error_of("priority-flow-control pause watchdog default timeout 0.0001\n") ==
        "running-config line 1: \"0.0001\" is not a time in seconds (up to 3 decimals)");
  CHECK(error_of("priority-flow-control pause watchdog default timeout 7200\n") ==
        "running-config line 1: \"7200\" is more than 3600 seconds");
  CHECK(error_of("priority-flow-control pause watchdog action \x1b[2Jx\n") ==
        "running-config line 1: \"\\x1b[2Jx\" is not a watchdog action (drop, no-drop)");
  CHECK(error_of(std::string("interface Ethernet1\n\0", 21)) == "running-config holds a NUL byte");
  CHECK(error_of("! " + std::string(70000, 'x') + "\n") == "running-config line 1: longer than 65536 bytes");
  CHECK(error_of(std::string(kMaxConfigBytes + 1, '!')).find("is more than the limit") != std::string::npos);

  // In a block: that port, and every port of a qos profile, unreadable; the others read.
  const RunningConfig c = parsed(
      "qos profile p\n   !\n   tx-queue 3\n      random-detect ecn minimum-threshold 320 segments maximum-threshold 320 segments\n!\n"
      "interface Ethernet1\n   priority-flow-control priority 8 no-drop\n!\n"
      "interface Ethernet2\n   service-profile p\n!\n"
      "interface Ethernet3\n   service-profile nothere\n!\n"
      "interface Ethernet4\n   !\n   uc-tx-queue 3\n      random-detect ecn minimum-threshold 1 bytes maximum-threshold 2 cells\n!\n"
      "interface Ethernet5\n   uc-tx-queue 9\n!\n"
      "interface Ethernet6\n   mtu 9100\n!\n");
  CHECK(port_from_running_config(c, "Ethernet1").error() == "running-config line 7: \"8\" is not a priority 0-7");
  CHECK(
      port_from_running_config(c, "Ethernet2").error() ==
      "qos profile \"p\": running-config line 4: ECN threshold in \"segments\": not a unit fabricctl can read as bytes");
  CHECK(port_from_running_config(c, "Ethernet3").error() ==
        "service-profile \"nothere\" is not a qos profile of the running-config");
  CHECK(port_from_running_config(c, "Ethernet4").error() ==
        "running-config line 18: \"cells\" is not an ECN threshold unit (bytes, kbytes, mbytes)");
  CHECK(port_from_running_config(c, "Ethernet5").error() == "running-config line 21: \"9\" is not a queue 0-7");
  CHECK(port(c, "Ethernet6").mtu == 9100);
}

TEST_CASE("eos running-config: older releases' `running-config all`: a bare `no ... priority N`, classes over 7") {
  // `show running-config all` of older releases prints a priority that is not no-drop without its
  // drop|no-drop, and maps every traffic class the switch has, above 7 too.
  const RunningConfig c = parsed(
      "qos map traffic-class 0 1 2 4 5 6 7 to uc-tx-queue 0\n"
      "qos map traffic-class 3 to uc-tx-queue 3\n"
      "qos map traffic-class 8 9 10 11 to uc-tx-queue 12\n"
      "qos map traffic-class 8 to cos 0\n"
      "interface Ethernet1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\n"
      "   no priority-flow-control priority 4\n!\nend\n");
  const PortObserved p = port(c, "Ethernet1");
  CHECK(*p.lossless == std::array<bool, 8>{false, false, false, true, false, false, false, false});
  CHECK(*p.priority_to_tc == std::array<int, 8>{0, 0, 0, 3, 0, 0, 0, 0});
  // Still refused: a class fabricctl reads sent to a queue it cannot, and a bare `no` with a bad priority.
  CHECK(error_of("qos map traffic-class 3 to uc-tx-queue 12\n") ==
        "running-config line 1: traffic-class 3 to queue 12: fabricctl reads queues 0-7");
  CHECK(error_of("qos map traffic-class 64 to uc-tx-queue 1\n") ==
        "running-config line 1: \"64\" is not a traffic-class 0-63");
  const RunningConfig bad = parsed("interface Ethernet1\n   no priority-flow-control priority 9\n!\n");
  CHECK(port_from_running_config(bad, "Ethernet1").error() == "running-config line 2: \"9\" is not a priority 0-7");
}

TEST_CASE("eos running-config: lines inside other blocks are never read as QoS lines") {
  const RunningConfig c = parsed(
      "policy-map type quality-of-service pm\n   class c\n      set traffic-class 5\n!\n"
      "qos profile q\n   !\n   mc-tx-queue 3\n      no priority\n      bandwidth percent 10\n!\n"
      "interface Ethernet1\n   service-profile q\n!\n");
  CHECK((*port(c, "Ethernet1").tc)[3].strict);
}

TEST_CASE("eos running-config: the AVD intended QoS config of the reference outputs" *
          doctest::test_suite("external")) {
  const auto path = test::shared_path("reference/outputs/eos/running-config_qos-pfc-ecn_avd-intended.txt");
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(path);
  const std::string text = test::file_text(path);
  const RunningConfig c = parsed(text);
  CHECK_FALSE(c.ended);  // an intended config section, not a device's whole output
  CHECK(c.profiles.size() == 8);
  // Global: the DSCP map (drop-precedence accepted), the traffic-class -> tx-queue map, the watchdog.
  const PortObserved e6 = port(c, "Ethernet6");
  CHECK((*e6.dscp_to_priority)[8] == 1);
  CHECK((*e6.dscp_to_priority)[26] == 4);
  CHECK((*e6.dscp_to_priority)[46] == 5);
  CHECK((*e6.dscp_to_priority)[0] == 1);  // not mapped: EOS's default
  CHECK((*e6.priority_to_tc)[6] == 2);
  CHECK((*e6.priority_to_tc)[5] == 5);
  // Ethernet6: service-profile experiment (qos trust cos, tx-queue 3 WRR 30 %).
  CHECK(e6.trust == Trust::pcp);
  CHECK_FALSE((*e6.tc)[3].strict);
  CHECK((*e6.tc)[3].bandwidth_pct == 30);
  CHECK((*e6.tc)[4].strict);
  CHECK_FALSE(e6.watchdog->enabled);  // PFC off
  // Ethernet7: profile qprof_testwithpolicy, tx-queue 5 WRR 19 %.
  const PortObserved e7 = port(c, "Ethernet7");
  CHECK((*e7.tc)[5].bandwidth_pct == 19);
  // Ethernet1: service-profile test has an ECN threshold in segments: unreadable, with why.
  CHECK(port_from_running_config(c, "Ethernet1").error().find("ECN threshold in \"segments\"") != std::string::npos);
  // qos profile test_with_pfc, bound to a port: PFC priority 0 no-drop, 1 drop, the port's own timers
  // (polling-interval auto: the watchdog is not collected).
  RunningConfig with_pfc = c;
  with_pfc.interfaces.push_back({"Ethernet9", BlockLines{}});
  with_pfc.interfaces.back().second.service_profile = "test_with_pfc";
  const PortObserved e9 = port(with_pfc, "Ethernet9");
  CHECK(*e9.lossless == std::array<bool, 8>{true, false});
  CHECK_FALSE(e9.watchdog);
  // Every line the reader reads survives keep(), so the kept text reads the same.
  const RunningConfig k = parsed(keep_running_config(text));
  for (const std::string name : {"Ethernet6", "Ethernet7", "Ethernet3"}) {
    CAPTURE(name);
    const PortObserved a = port(c, name), b = port(k, name);
    CHECK(a.dscp_to_priority == b.dscp_to_priority);
    CHECK(a.priority_to_tc == b.priority_to_tc);
    CHECK(a.trust == b.trust);
    CHECK(a.lossless == b.lossless);
    CHECK(a.ecn->size() == b.ecn->size());
    for (size_t tc = 0; tc < kTrafficClasses; ++tc) CHECK((*a.tc)[tc].bandwidth_pct == (*b.tc)[tc].bandwidth_pct);
  }
  CHECK(keep_running_config(text).find("access-list") == std::string::npos);
  CHECK(keep_running_config(text).find("ip address") == std::string::npos);
}
