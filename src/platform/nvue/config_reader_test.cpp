// The NVUE configuration reader: the inverse of commands.nvue on every intent variant (applied to an
// empty configuration through the model in test_support.h), NVUE's defaults where the tree says
// nothing, and malformed, truncated and hostile trees: an error for the device or the port, never a
// crash.
#include <doctest/doctest.h>

#include <random>

#include "platform/nvue/config_reader.h"
#include "platform/nvue/test_support.h"
#include "util/text.h"

using namespace fabricctl;
using namespace fabricctl::nvue;

namespace {

/// Checks `got` against what the intent of `d` renders for `want`. NVUE has no restoration time: the
/// watchdog restores one polling interval after a storm, and detection is whole polling intervals.
void check_port(const DeviceDesired& d, const PortDesired& want, const PortObserved& got) {
  const QosIntent& q = d.qos;
  CAPTURE(want.name);
  CHECK(got.mtu == want.mtu);
  CHECK(got.trust == q.trust);
  if (q.trust == Trust::dscp) CHECK(got.dscp_to_priority == q.dscp_to_priority);
  CHECK(got.lossless == q.lossless);
  CHECK(got.priority_to_tc == q.priority_to_tc);
  REQUIRE(got.tc);
  for (size_t tc = 0; tc < kTrafficClasses; ++tc) {
    CAPTURE(tc);
    CHECK(got.tc->at(tc).used == q.tc.at(tc).used);
    if (!q.tc.at(tc).used) continue;
    CHECK(got.tc->at(tc).strict == q.tc.at(tc).strict);
    CHECK(got.tc->at(tc).bandwidth_pct == q.tc.at(tc).bandwidth_pct);
  }
  REQUIRE(got.ecn);
  const std::vector<EcnQueue> ecn = q.ecn_enabled ? q.ecn : std::vector<EcnQueue>{};
  REQUIRE(got.ecn->size() == ecn.size());
  for (size_t i = 0; i < ecn.size(); ++i) {
    CHECK(got.ecn->at(i).tc == ecn[i].tc);
    CHECK(got.ecn->at(i).min_bytes == ecn[i].min_bytes);
    CHECK(got.ecn->at(i).max_bytes == ecn[i].max_bytes);
    CHECK(got.ecn->at(i).probability_pct == ecn[i].probability_pct);
  }
  REQUIRE(got.watchdog);
  const bool runs = q.watchdog.enabled && !q.lossless_priorities().empty();
  CHECK(got.watchdog->enabled == runs);
  if (runs) {
    CHECK(got.watchdog->poll_interval_ms == q.watchdog.poll_interval_ms);
    CHECK(got.watchdog->detection_ms == q.watchdog.detection_ms);  // a multiple of the interval here
    CHECK(got.watchdog->restoration_ms == q.watchdog.poll_interval_ms);
    CHECK(got.watchdog->action == WatchdogAction::drop);
  }
  CHECK_FALSE(got.oper_up);
  CHECK_FALSE(got.lldp);
}

std::string show_of(const DeviceDesired& d) { return nvue::testing::config_show(nvue::testing::commands_of(d)); }

}  // namespace

TEST_CASE("nvue config reader: reads back what commands.nvue configures, for every intent variant") {
  size_t roce = 0;
  for (const auto& entry : fabricctl::test::intent_variants()) {
    const auto& [name, change] = entry;
    DeviceDesired d = fabricctl::test::example_switch(Platform::nvue, {"swp10", "swp2", "swp1s1"});
    change(d);
    CAPTURE(entry.first);
    const std::string commands = nvue::testing::commands_of(d);
    roce += commands.find("nv set qos roce mode lossless") != std::string::npos;
    const auto got = ports_from_config(nvue::testing::config_show(commands));
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->unreadable.empty());
    REQUIRE(got->ports.size() == 3);
    CHECK(got->ports[0].name == "swp1s1");  // natural order
    CHECK(got->ports[2].name == "swp10");
    for (const PortObserved& p : got->ports)
      for (const PortDesired& want : d.ports)
        if (want.name == p.name) check_port(d, want, p);
  }
  CHECK(roce == 1);  // RoCE mode's defaults are read too
}

TEST_CASE("nvue config reader: a switch nobody configured has NVUE's defaults") {
  const auto got = ports_from_config("[{\"header\": {\"model\": \"SN5600\"}}]");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.empty());
  const PortObserved& p = got->defaults;
  CHECK(p.mtu == 9216);
  CHECK(p.trust == Trust::pcp);
  CHECK(p.dscp_to_priority->at(26) == 3);
  CHECK(p.dscp_to_priority->at(48) == 6);
  CHECK(p.lossless == std::array<bool, kPriorities>{});
  CHECK(p.priority_to_tc->at(7) == 7);
  REQUIRE(p.ecn->size() == 1);
  CHECK(p.ecn->at(0).tc == 0);
  CHECK(p.ecn->at(0).min_bytes == 150000);
  CHECK(p.ecn->at(0).max_bytes == 1500000);
  CHECK(p.tc->at(4).bandwidth_pct == 13);
  CHECK_FALSE(p.watchdog->enabled);
  // `nv set qos roce` alone: RoCE lossless mode; trust pcp,dscp is no one trust mode.
  const auto roce = ports_from_config(R"({"qos": {"roce": {}}, "interface": {"swp1": {"qos": {"pfc-watchdog": {}}}}})");
  REQUIRE_MESSAGE(roce, roce.error());
  CHECK_FALSE(roce->defaults.trust);
  CHECK(roce->defaults.lossless->at(3));
  CHECK(roce->defaults.tc->at(6).strict);
  REQUIRE(roce->ports.size() == 1);
  CHECK(roce->ports[0].watchdog->enabled);
  CHECK(roce->ports[0].watchdog->detection_ms == 300);  // robustness 3 x 100 ms
}

TEST_CASE("nvue config reader: other interfaces are not ports; bad ports are named, the rest read") {
  const auto got = ports_from_config(R"({"interface": {
      "eth0": {"type": "eth", "ip": {"address": {"dhcp": {}}}},
      "lo": {"type": "loopback"},
      "swp1": {"type": "swp", "link": {"mtu": 9100}},
      "swp2": {"type": "swp", "link": {"mtu": 70000}},
      "swp3": {"type": "swp", "qos": {"pfc": {"profile": "my_pfc_ports"}}},
      "swp4": {"link": {"mtu": "9100"}},
      "swp5;reboot\u001b[2J": {"type": "swp"},
      "swp6": "garbage"}})");
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 1);
  CHECK(got->ports[0].name == "swp1");
  CHECK(got->ports[0].mtu == 9100);
  CHECK(got->unreadable.at("swp2") == "nv config show: interface.swp2.link.mtu: \"70000\" is out of range 552-9216");
  CHECK(got->unreadable.at("swp3") ==
        "nv config show: interface.swp3.qos.pfc: per-port QoS settings are not read by fabricctl");
  CHECK(got->unreadable.at("swp4").find("interface.swp4.link.mtu") != std::string::npos);
  CHECK(got->unreadable.at("swp6").find("interface.swp6") != std::string::npos);
  CHECK(got->unreadable.count("swp5;reboot\\x1b[2J") == 1);
  CHECK(got->unreadable.size() == 5);
}

TEST_CASE("nvue config reader: a bad device-wide value fails the device, quoted with its path") {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"qos": {"mapping": {"default-global": {"dscp": {"26": {"switch-priority": 9}}}}}})",
       "nv config show: qos.mapping.default-global.dscp.26.switch-priority: \"9\" is out of range 0-7"},
      {R"({"qos": {"mapping": {"default-global": {"dscp": {"64": {"switch-priority": 3}}}}}})",
       "nv config show: qos.mapping.default-global.dscp.64: key is not an integer 0-63"},
      {R"({"qos": {"mapping": {"default-global": {"trust": "l4"}}}})",
       "nv config show: qos.mapping.default-global.trust: \"l4\" is not one of \"l2\", \"l3\", \"both\", \"port\""},
      {R"({"qos": {"congestion-control": {"default-global": {"traffic-class": {"3": {"probability": 0}}}}}})",
       "nv config show: qos.congestion-control.default-global.traffic-class.3.probability: \"0\" is out of range 1-100"},
      {R"({"qos": {"roce": {"mode": "lossy-multi-tc"}}})",
       "nv config show: qos.roce.mode: \"lossy-multi-tc\" is not one of \"lossless\", \"lossless-single-ipool\""},
      {R"({"qos": {"egress-scheduler": {"default-global": {"traffic-class": {"0": {"bw-percent": "50"}}}}}})",
       "nv config show: qos.egress-scheduler.default-global.traffic-class.0.bw-percent: expected an integer, got a string \"50\""},
      {R"([{"header": {}}, {"unset": {}}])", "nv config show: [1].unset: unknown key (expected one of: header, set)"},
      {"\"text\"", "nv config show: not a JSON object or a list of header and set"},
  };
  for (const auto& entry : cases) {
    const auto& [text, want] = entry;
    CAPTURE(entry.first);
    const auto got = ports_from_config(text);
    REQUIRE_FALSE(got);
    CHECK(got.error() == want);
  }
}

TEST_CASE("nvue config reader: truncated, deep, oversized and random input: an error, never a crash") {
  DeviceDesired d = fabricctl::test::example_switch(Platform::nvue, {"swp1", "swp2"});
  const std::string good = show_of(d);
  REQUIRE(ports_from_config(good));
  for (size_t cut = 0; cut < good.size(); cut += 97) CHECK_FALSE(ports_from_config(good.substr(0, cut)));
  CHECK(ports_from_config(std::string(40, '[') + std::string(40, ']')).error().find("deeper") != std::string::npos);
  CHECK_FALSE(ports_from_config(std::string(size_t{33} << 20, ' ')));
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    std::string s = good;
    for (int j = 0; j < 8; ++j) s[rng() % s.size()] = static_cast<char>(rng() % 128);
    (void)ports_from_config(s);  // any result but a crash
  }
}

TEST_CASE("nvue config reader: RoCE and the watchdog turned off, in both generations' words, are off") {
  // Cumulus Linux 5.15 `state disabled`, and 5.14 `enable off`: not lossless, whatever else qos.roce holds.
  for (const char* roce :
       {R"({"state": "disabled", "mode": "lossless"})", R"({"enable": "off", "mode": "lossless"})"}) {
    CAPTURE(roce);
    const auto got = ports_from_config(std::string(R"({"qos": {"roce": )") + roce + "}}");
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->defaults.lossless == std::array<bool, kPriorities>{});
    CHECK(got->defaults.trust == Trust::pcp);  // NVUE's defaults, not RoCE mode's
  }
  for (const char* roce : {R"({"state": "enabled"})", R"({"enable": "on"})", "{}"}) {
    const auto got = ports_from_config(std::string(R"({"qos": {"roce": )") + roce + "}}");
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->defaults.lossless->at(3));
  }
  CHECK(ports_from_config(R"({"qos": {"roce": {"state": "on"}}})").error() ==
        "nv config show: qos.roce.state: \"on\" is not one of \"enabled\", \"disabled\"");
  // A port's watchdog: `state disable` is off; `state enable` or the bare object is on.
  const auto wd = ports_from_config(R"({"qos": {"roce": {}}, "interface": {
      "swp1": {"qos": {"pfc-watchdog": {"state": "disable"}}},
      "swp2": {"qos": {"pfc-watchdog": {"state": "enable"}}},
      "swp3": {"qos": {"pfc-watchdog": {}}},
      "swp4": {"qos": {"pfc-watchdog": {"state": "off"}}},
      "swp5": {"qos": {"pfc-watchdog": {"action": "drop"}}}}})");
  REQUIRE_MESSAGE(wd, wd.error());
  REQUIRE(wd->ports.size() == 3);
  CHECK_FALSE(wd->ports[0].watchdog->enabled);
  CHECK(wd->ports[1].watchdog->enabled);
  CHECK(wd->ports[2].watchdog->enabled);
  CHECK(wd->unreadable.at("swp4") ==
        "nv config show: interface.swp4.qos.pfc-watchdog.state: \"off\" is not one of \"enable\", \"disable\"");
  CHECK(wd->unreadable.at("swp5").find("interface.swp5.qos.pfc-watchdog.action: unknown key") != std::string::npos);
}

TEST_CASE("nvue config reader: range keys, as 5.15 prints them unexpanded, are read port by port") {
  const auto got = ports_from_config(R"({"qos": {"roce": {},
      "mapping": {"default-global": {"trust": "l3", "dscp": {"24-26": {"switch-priority": 5}, "25": {"switch-priority": 2}}}}},
    "interface": {
      "swp1-3": {"type": "swp", "link": {"mtu": 9100}, "qos": {"pfc-watchdog": {"state": "enable"}}},
      "swp2": {"type": "swp", "link": {"mtu": 1500}},
      "swp10,swp12": {"type": "swp", "link": {"mtu": 9000}},
      "swp9-7": {"type": "swp"},
      "swp20-25": {"type": "swp", "link": {"mtu": 70000}}}})");
  REQUIRE_MESSAGE(got, got.error());
  std::vector<std::string> names;
  for (const PortObserved& p : got->ports) names.push_back(p.name + ":" + std::to_string(*p.mtu));
  CHECK(join(names, " ") == "swp1:9100 swp2:1500 swp3:9100 swp10:9000 swp12:9000");
  CHECK(got->ports[1].watchdog->enabled);  // from the range key; its own key changes only the MTU
  CHECK(got->defaults.dscp_to_priority->at(24) == 5);
  CHECK(got->defaults.dscp_to_priority->at(25) == 2);  // its own key wins
  CHECK(got->unreadable.at("swp9-7") == "nv config show: interface: range \"swp9-7\" runs backwards");
  CHECK(got->unreadable.at("swp20") ==
        "nv config show: interface.swp20-25.link.mtu: \"70000\" is out of range 552-9216");
  CHECK(got->unreadable.size() == 7);
  CHECK(ports_from_config(R"({"interface": {"swp1-5000": {"type": "swp"}}})")->unreadable.at("swp1-5000") ==
        "nv config show: interface: range \"swp1-5000\" names more than 4096 objects");
  CHECK(ports_from_config(R"({"qos": {"pfc": {"default-global": {"switch-priority": {"3-9": {}}}}}})").error() ==
        "nv config show: qos.pfc.default-global.switch-priority.3-9: key is not an integer 0-7");
}
