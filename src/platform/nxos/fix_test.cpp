// NX-OS fixes: the blocks of config.cfg that set the setting, in configure terminal, ready to paste.
#include <doctest/doctest.h>

#include "fixtures.h"
#include "platform/platform.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf_to_fix() { return test::example_switch(Platform::nxos, {"Ethernet1/1", "Ethernet1/2"}); }

std::string fix(Setting s, std::vector<int> keys = {}) {
  static const DeviceDesired d = leaf_to_fix();
  return fix_text(Fix{s, &d, &d.ports[1], std::move(keys)});
}

}  // namespace

TEST_CASE("nxos fix: a port's MTU, and the settings that live in policies") {
  CHECK(fix(Setting::mtu) == "configure terminal\ninterface Ethernet1/2\n  mtu 9100\nend");
  CHECK(fix(Setting::pfc) ==
        "configure terminal\n"
        "policy-map type network-qos FABRICCTL-NQ\n"
        "  class type network-qos c-8q-nq-default\n    mtu 9216\n"
        "  class type network-qos c-8q-nq3\n    mtu 9216\n    pause pfc-cos 3\n"
        "  class type network-qos c-8q-nq6\n    mtu 9216\n"
        "system qos\n"
        "  service-policy type network-qos FABRICCTL-NQ\n"
        "  service-policy type queuing output FABRICCTL-OUT\n"
        "interface Ethernet1/2\n  priority-flow-control mode on\n"
        "end");
  // ECN: only the queue that differs, with its random-detect line.
  CHECK(
      fix(Setting::ecn, {3}) ==
      "configure terminal\n"
      "policy-map type queuing FABRICCTL-OUT\n"
      "  class type queuing c-out-8q-q3\n"
      "    bandwidth remaining percent 50\n"
      "    random-detect minimum-threshold 150 kbytes maximum-threshold 1500 kbytes drop-probability 20 weight 0 ecn\n"
      "system qos\n"
      "  service-policy type network-qos FABRICCTL-NQ\n"
      "  service-policy type queuing output FABRICCTL-OUT\n"
      "end");
  const std::string dscp = fix(Setting::dscp_map);
  CHECK(dscp.find("class-map type qos match-any FABRICCTL-TC3\n  match dscp 26\n") != std::string::npos);
  CHECK(dscp.ends_with("interface Ethernet1/2\n  service-policy type qos input FABRICCTL-QOS\nend"));
  CHECK(fix(Setting::watchdog).starts_with("configure terminal\npriority-flow-control watch-dog-interval on\n"));
  CHECK(fix(Setting::watchdog).ends_with("interface Ethernet1/2\n  priority-flow-control watch-dog-interval on\nend"));
  CHECK(fix(Setting::link_up) == "configure terminal\ninterface Ethernet1/2\n  no shutdown\nend");
  CHECK(fix(Setting::cabling) == "show lldp neighbors interface Ethernet1/2 detail");
  CHECK(fix(Setting::dcqcn).empty());  // a host's
}
