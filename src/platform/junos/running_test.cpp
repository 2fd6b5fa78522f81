// The Junos configuration reader: Juniper's own AI leaf (its class of service as set statements), the
// statements fabricctl writes, and hostile or odd output.
#include <doctest/doctest.h>

#include "fixtures.h"
#include "platform/junos/config.h"
#include "platform/junos/running.h"

using namespace fabricctl;
using namespace fabricctl::junos;

namespace {

/// The class of service of Juniper's QFX5240 AI/ML JVD leaf (tests/fixtures/junos/
/// config-cos.qfx5240-evo.jvd-aiml-leaf1.conf) as set statements, one leaf a line, with its wildcards.
const char* const kJvd =
    R"(set class-of-service classifiers dscp mydscp forwarding-class CNP loss-priority low code-points 110000
set class-of-service classifiers dscp mydscp forwarding-class NO-LOSS loss-priority low code-points 011010
set class-of-service drop-profiles dp1 interpolate fill-level 55
set class-of-service drop-profiles dp1 interpolate fill-level 90
set class-of-service drop-profiles dp1 interpolate drop-probability 0
set class-of-service drop-profiles dp1 interpolate drop-probability 100
set class-of-service shared-buffer ingress buffer-partition lossless percent 66
set class-of-service forwarding-classes class CNP queue-num 3
set class-of-service forwarding-classes class NO-LOSS queue-num 4
set class-of-service forwarding-classes class NO-LOSS no-loss
set class-of-service forwarding-classes class NO-LOSS pfc-priority 3
set class-of-service congestion-notification-profile cnp pfc-watchdog
set class-of-service congestion-notification-profile cnp input dscp code-point 011010 pfc
set class-of-service congestion-notification-profile cnp output ieee-802.1 code-point 011 flow-control-queue 4
set class-of-service interfaces et-* congestion-notification-profile cnp
set class-of-service interfaces et-* scheduler-map sm1
set class-of-service interfaces et-* unit * classifiers dscp mydscp
set class-of-service scheduler-maps sm1 forwarding-class CNP scheduler s2-cnp
set class-of-service scheduler-maps sm1 forwarding-class NO-LOSS scheduler s1
set class-of-service schedulers s1 drop-profile-map loss-priority any protocol any drop-profile dp1
set class-of-service schedulers s1 explicit-congestion-notification
set class-of-service schedulers s2-cnp transmit-rate percent 5
set class-of-service schedulers s2-cnp priority strict-high
set interfaces et-0/0/0:0 mtu 9216
)";

Statements read(const std::string& text) {
  auto s = read_statements(text);
  REQUIRE_MESSAGE(s, s.error());
  return *s;
}

}  // namespace

TEST_CASE("junos running: Juniper's AI leaf, its wildcards followed to each port") {
  const RunningPorts r = ports_from_statements(read(kJvd), {"et-0/0/1"});
  CHECK(r.unreadable.empty());
  REQUIRE(r.ports.count("et-0/0/0:0"));
  const PortObserved& p = r.ports.at("et-0/0/0:0");
  CHECK(p.mtu == 9202);  // media 9216 less the Ethernet header
  CHECK(p.trust == Trust::dscp);
  CHECK((*p.dscp_to_priority)[26] == 3);  // NO-LOSS: its PFC priority
  CHECK((*p.dscp_to_priority)[48] == 3);  // CNP: queue 3, no PFC priority: its queue
  CHECK((*p.dscp_to_priority)[0] == 0);
  CHECK((*p.priority_to_tc)[3] == 4);  // NO-LOSS is queued in 4
  CHECK((*p.lossless)[3]);
  CHECK_FALSE((*p.lossless)[4]);
  CHECK(p.watchdog->enabled);
  CHECK(p.watchdog->poll_interval_ms == 100);  // Junos's defaults for a bare pfc-watchdog
  CHECK(p.watchdog->detection_ms == 200);
  CHECK(p.watchdog->restoration_ms == 200);
  CHECK((*p.tc)[3].strict);
  CHECK((*p.tc)[4].used);
  CHECK_FALSE((*p.tc)[0].used);
  CHECK_FALSE(p.ecn.has_value());  // dp1's fill levels are percents of a buffer nothing states
  // A port of `also` the wildcards cover, with Junos's default media MTU.
  REQUIRE(r.ports.count("et-0/0/1"));
  CHECK(r.ports.at("et-0/0/1").mtu == 1500);
  CHECK((*r.ports.at("et-0/0/1").lossless)[3]);
}

TEST_CASE("junos running: what config.set writes reads back as the intent") {
  const DeviceDesired d = test::example_switch(Platform::junos, {"et-0/0/0", "et-0/0/1:2"});
  const RunningPorts r = ports_from_statements(read(set_text(d, desired_statements(d))));
  for (const auto& entry : r.unreadable) FAIL_CHECK(entry.first << ": " << entry.second);
  for (const PortDesired& want : d.ports) {
    REQUIRE(r.ports.count(want.name));
    const PortObserved& p = r.ports.at(want.name);
    CHECK(p.mtu == want.mtu);
    CHECK(*p.dscp_to_priority == d.qos.dscp_to_priority);
    CHECK(*p.lossless == d.qos.lossless);
    REQUIRE(p.ecn->size() == d.qos.ecn.size());
    CHECK((*p.ecn)[0].min_bytes == d.qos.ecn[0].min_bytes);
    CHECK((*p.ecn)[0].max_bytes == d.qos.ecn[0].max_bytes);
    CHECK((*p.ecn)[0].probability_pct == d.qos.ecn[0].probability_pct);
  }
  CHECK(ecn_buffer_of("FABRICCTL-ECN3-15000K") == uint64_t{15000} * 1024);
  CHECK_FALSE(ecn_buffer_of("FABRICCTL-ECN3-K"));
  CHECK_FALSE(ecn_buffer_of("dp1"));
}

TEST_CASE("junos running: a bad statement makes the ports it leads to unreadable, not the switch") {
  std::string text = kJvd;
  text +=
      "set class-of-service interfaces et-0/0/5 scheduler-map sm2\n"
      "set class-of-service scheduler-maps sm2 forwarding-class NO-LOSS scheduler s9\n"
      "set class-of-service schedulers s9 transmit-rate percent 250\n"
      "set class-of-service interfaces et-0/0/6 congestion-notification-profile missing\n"
      "set interfaces et-0/0/7 mtu banana\n"
      "set interfaces et-0/0/8x mtu 9216\n"
      "set class-of-service interfaces et-0/0/0:0 scheduler-map sm2\n"
      "deactivate class-of-service interfaces et-0/0/0:0\n";
  const RunningPorts r = ports_from_statements(read(text));
  CHECK(r.unreadable.at("et-0/0/5") ==
        "show configuration: `set class-of-service schedulers s9 transmit-rate percent 250`: \"250\" is out of range "
        "0-100");
  CHECK(r.unreadable.at("et-0/0/6") ==
        "show configuration: congestion-notification-profile \"missing\" is not defined");
  CHECK(r.unreadable.at("et-0/0/7").ends_with("\"banana\" is not a number"));
  CHECK(r.unreadable.count("et-0/0/8x"));
  // Deactivated: the port's own binding to sm2 is not in effect; the wildcards' are.
  REQUIRE(r.ports.count("et-0/0/0:0") == 1);
  CHECK(r.ports.at("et-0/0/0:0").mtu == 9202);
}

TEST_CASE("junos running: aliases of every kind, a headroom cable length, an overflowing watchdog") {
  std::string text = kJvd;
  text +=
      "set class-of-service code-point-aliases dscp-ipv6 my-af31 011010\n"
      "set class-of-service code-point-aliases dscp my-cnp 110000\n"
      "set class-of-service code-point-aliases dscp bad 0110\n"
      "set class-of-service congestion-notification-profile cnp input cable-length 100\n"
      "set class-of-service congestion-notification-profile cnp pfc-watchdog poll-interval 65535\n"
      "set class-of-service congestion-notification-profile cnp pfc-watchdog detection 40000\n";
  const RunningPorts r = ports_from_statements(read(text));
  CHECK(r.unreadable.empty());
  REQUIRE(r.ports.count("et-0/0/0:0"));
  CHECK(r.ports.at("et-0/0/0:0").watchdog->detection_ms > 0);
}

TEST_CASE("junos running: only the statements fabricctl reads are kept; bounds") {
  const std::string kept = keep_configuration(
      "set system root-authentication encrypted-password \"$6$abc\"\n"
      "set snmp community public authorization read-only\n"
      "set interfaces et-0/0/0 description \"gpu 1\"\n"
      "set interfaces et-0/0/0 mtu 9216\n"
      "set interfaces et-0/0/0 unit 0 family inet address 10.0.0.1/31\n"
      "set class-of-service schedulers s1 explicit-congestion-notification\n"
      "deactivate class-of-service interfaces et-0/0/1\n"
      "deactivate interfaces et-0/0/2 mtu\n"
      "deactivate interfaces et-0/0/3\n"
      "deactivate interfaces et-0/0/3 unit 0\n");
  CHECK(kept ==
        "set interfaces et-0/0/0 mtu 9216\nset class-of-service schedulers s1 explicit-congestion-notification\n"
        "deactivate class-of-service interfaces et-0/0/1\ndeactivate interfaces et-0/0/2 mtu\n"
        "deactivate interfaces et-0/0/3\n");
  CHECK(read_statements("{master:0}\n\nset interfaces et-0/0/0 mtu 9216\n")->size() == 1);
  CHECK(read_statements("show configuration\n").error() == "not a `set` statement: \"show configuration\"");
  CHECK(read_statements(std::string(5000, 's')).error().starts_with("a line of over 4096 bytes"));
  CHECK(read_statements(std::string("set a\0", 6)).error() == "holds a NUL byte");
}
