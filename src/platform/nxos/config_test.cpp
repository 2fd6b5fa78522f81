// The NX-OS configuration fabricctl writes, by hand for the roce-lossless intent, and read back by the
// running-config reader into the intent it came from.
#include "platform/nxos/config.h"

#include <doctest/doctest.h>

#include "fixtures.h"
#include "platform/nxos/running_config.h"

using namespace fabricctl;
using namespace fabricctl::nxos;

namespace {

// The builders read the intent and the ports, never the platform field.
DeviceDesired config_leaf() {
  return test::example_switch(Platform::eos, {"Ethernet1/2", "Ethernet1/10", "Ethernet1/1/1"});
}

}  // namespace

TEST_CASE("nxos config: the roce-lossless intent, written by hand") {
  const std::string want =
      "priority-flow-control watch-dog-interval on\n"
      "priority-flow-control watch-dog interval 100\n"
      "priority-flow-control watch-dog shutdown-multiplier 2\n"
      "priority-flow-control auto-restore multiplier 2\n"
      "class-map type qos match-any FABRICCTL-TC3\n"
      "  match dscp 26\n"
      "class-map type qos match-any FABRICCTL-TC6\n"
      "  match dscp 48\n"
      "policy-map type qos FABRICCTL-QOS\n"
      "  class FABRICCTL-TC3\n"
      "    set qos-group 3\n"
      "  class FABRICCTL-TC6\n"
      "    set qos-group 6\n"
      "  class class-default\n"
      "    set qos-group 0\n"
      "policy-map type network-qos FABRICCTL-NQ\n"
      "  class type network-qos c-8q-nq-default\n"
      "    mtu 9216\n"
      "  class type network-qos c-8q-nq3\n"
      "    mtu 9216\n"
      "    pause pfc-cos 3\n"
      "  class type network-qos c-8q-nq6\n"
      "    mtu 9216\n"
      "policy-map type queuing FABRICCTL-OUT\n"
      "  class type queuing c-out-8q-q7\n"
      "    bandwidth remaining percent 0\n"
      "  class type queuing c-out-8q-q6\n"
      "    priority level 1\n"
      "  class type queuing c-out-8q-q5\n"
      "    bandwidth remaining percent 0\n"
      "  class type queuing c-out-8q-q4\n"
      "    bandwidth remaining percent 0\n"
      "  class type queuing c-out-8q-q3\n"
      "    bandwidth remaining percent 50\n"
      "    random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 20 weight 0 ecn\n"
      "  class type queuing c-out-8q-q2\n"
      "    bandwidth remaining percent 0\n"
      "  class type queuing c-out-8q-q1\n"
      "    bandwidth remaining percent 0\n"
      "  class type queuing c-out-8q-q-default\n"
      "    bandwidth remaining percent 50\n"
      "system qos\n"
      "  service-policy type network-qos FABRICCTL-NQ\n"
      "  service-policy type queuing output FABRICCTL-OUT\n"
      "interface Ethernet1/1/1\n"
      "  mtu 9100\n"
      "  priority-flow-control mode on\n"
      "  priority-flow-control watch-dog-interval on\n"
      "  service-policy type qos input FABRICCTL-QOS\n"
      "interface Ethernet1/2\n"
      "  mtu 9100\n"
      "  priority-flow-control mode on\n"
      "  priority-flow-control watch-dog-interval on\n"
      "  service-policy type qos input FABRICCTL-QOS\n"
      "interface Ethernet1/10\n"
      "  mtu 9100\n"
      "  priority-flow-control mode on\n"
      "  priority-flow-control watch-dog-interval on\n"
      "  service-policy type qos input FABRICCTL-QOS\n";
  CHECK(config_text(desired_config(config_leaf())) == want);
}

TEST_CASE("nxos config: DSCP ranges, PCP trust, no PFC, two strict classes") {
  DeviceDesired d = config_leaf();
  for (int dscp = 24; dscp <= 31; ++dscp) d.qos.dscp_to_priority[static_cast<size_t>(dscp)] = 3;
  d.qos.dscp_to_priority[34] = 3;
  std::string text = config_text(desired_config(d));
  CHECK(text.find("  match dscp 24-31\n  match dscp 34\n") != std::string::npos);

  d = config_leaf();
  d.qos.trust = Trust::pcp;
  text = config_text(desired_config(d));
  CHECK(text.find("class-map type qos match-any FABRICCTL-TC3\n  match cos 3\n") != std::string::npos);
  CHECK(text.find("class-map type qos match-any FABRICCTL-TC6\n  match cos 6\n") != std::string::npos);
  CHECK(text.find("match dscp") == std::string::npos);

  d = config_leaf();
  d.qos.lossless.fill(false);
  text = config_text(desired_config(d));
  CHECK(text.find("pause pfc-cos") == std::string::npos);
  CHECK(text.find("priority-flow-control watch-dog-interval off\nclass-map") == 0);
  CHECK(text.find("  priority-flow-control mode off\n  priority-flow-control watch-dog-interval off\n") !=
        std::string::npos);

  d = config_leaf();
  d.qos.tc[3] = {true, true, 0};  // 3 and 6 strict: the higher class first
  text = config_text(desired_config(d));
  CHECK(text.find("c-out-8q-q6\n    priority level 1\n") != std::string::npos);
  CHECK(text.find("c-out-8q-q3\n    priority level 2\n") != std::string::npos);
}

TEST_CASE("nxos config: read back, it is the intent it was written from") {
  const DeviceDesired d = config_leaf();
  auto config = parse_config(config_text(desired_config(d)));
  REQUIRE_MESSAGE(config, config.error());
  CHECK(*config == desired_config(d));
  auto ports = ports_from_config(*config);
  REQUIRE_MESSAGE(ports, ports.error());
  CHECK(ports->unreadable.empty());
  REQUIRE(ports->ports.size() == 3);
  for (const PortDesired& want : d.ports) {
    CAPTURE(want.name);
    const PortObserved& p = ports->ports.at(want.name);
    CHECK(p.mtu == want.mtu);
    CHECK(p.trust == Trust::dscp);
    CHECK(*p.dscp_to_priority == d.qos.dscp_to_priority);
    CHECK(*p.lossless == d.qos.lossless);
    for (int pr : {0, 3, 6})
      CHECK((*p.priority_to_tc)[static_cast<size_t>(pr)] == d.qos.priority_to_tc[static_cast<size_t>(pr)]);
    for (int tc = 0; tc < kTrafficClasses; ++tc) {
      const TcSchedule& w = d.qos.tc[static_cast<size_t>(tc)];
      const TcSchedule& g = (*p.tc)[static_cast<size_t>(tc)];
      if (!w.used) continue;
      CHECK(g.strict == w.strict);
      CHECK(g.bandwidth_pct == w.bandwidth_pct);
    }
    REQUIRE(p.ecn->size() == 1);
    CHECK((*p.ecn)[0].tc == 3);
    CHECK((*p.ecn)[0].min_bytes == 153600);
    CHECK((*p.ecn)[0].max_bytes == 1536000);
    CHECK((*p.ecn)[0].probability_pct == 20);
    CHECK(p.watchdog->enabled);
    CHECK(p.watchdog->poll_interval_ms == 100);
    CHECK(p.watchdog->detection_ms == 200);
    CHECK(p.watchdog->restoration_ms == 200);
  }

  // PCP trust reads back as PCP trust, each priority in its own queue.
  DeviceDesired pcp = config_leaf();
  pcp.qos.trust = Trust::pcp;
  pcp.qos.priority_to_tc = {0, 1, 2, 3, 4, 5, 6, 7};
  ports = ports_from_config(*parse_config(config_text(desired_config(pcp))));
  REQUIRE_MESSAGE(ports, ports.error());
  CHECK(ports->ports.at("Ethernet1/2").trust == Trust::pcp);
  CHECK(*ports->ports.at("Ethernet1/2").priority_to_tc == pcp.qos.priority_to_tc);
}
