// The EOS collector: what it keeps of the running-config (no secret reaches a raw file), and the round
// trip: a switch that loaded its rendered session.cfg, as EOS prints it, reads back as the observed state
// `snapshot --from-intent` builds (observed_from_desired) on every field verify compares.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "collect_support.h"
#include "fidelity_support.h"
#include "platform/eos/test_support.h"
#include "platform/platform.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

using test::command;

std::string interfaces_json(const DeviceDesired& d) {
  nlohmann::json j;
  for (const PortDesired& p : d.ports)
    j["interfaces"][p.name] = {{"name", p.name},
                               {"mtu", p.mtu},
                               {"bandwidth", int64_t{*p.speed_mbps} * 1'000'000},
                               {"lineProtocolStatus", "up"},
                               {"interfaceStatus", "connected"}};
  j["interfaces"]["Management1"] = {{"mtu", 1500}, {"bandwidth", 1000000000}, {"lineProtocolStatus", "up"}};
  return j.dump();
}

std::string lldp_json(const DeviceDesired& d) {
  nlohmann::json j = {{"lldpNeighbors", nlohmann::json::array()}};
  for (const PortDesired& p : d.ports)
    j["lldpNeighbors"].push_back(
        {{"port", p.name}, {"neighborDevice", p.peer_device}, {"neighborPort", p.peer_port}, {"ttl", 120}});
  return j.dump();
}

RawOutputs raw_of(const DeviceDesired& d, bool as_printed) {
  const Collector c = adapter(Platform::eos).collector;
  const std::string session = test::render_template_of("eos/session.cfg.mustache", eos_context(d));
  const std::string running = as_printed ? test::as_eos_prints(session) : session + "end\n";
  return {{"running-config.txt", command(c, "running-config.txt").keep(running)},
          {"interfaces.json", interfaces_json(d)},
          {"lldp-neighbors.json", lldp_json(d)}};
}

/// Every field verify compares (verify/checks/drift.cpp, link.cpp) equal between `got` and `want`.
void check_compared_fields(const PortObserved& got, const PortObserved& want) {
  CAPTURE(want.name);
  CHECK(got.mtu == want.mtu);
  CHECK(got.speed_mbps == want.speed_mbps);
  CHECK(got.oper_up == want.oper_up);
  CHECK(got.trust == want.trust);
  CHECK(got.dscp_to_priority == want.dscp_to_priority);
  CHECK(got.lossless == want.lossless);
  REQUIRE(got.priority_to_tc);
  // Priority 7: session.cfg leaves EOS's own traffic-class 7 unmapped unless the profile classifies
  // traffic into it, so the switch keeps its default (queue 7) where the intent says another queue.
  // port.ets.drift judges only the priorities traffic is classified into, so this is no finding.
  for (size_t p = 0; p < 7; ++p) CHECK((*got.priority_to_tc)[p] == (*want.priority_to_tc)[p]);
  CHECK((*got.priority_to_tc)[7] == 7);
  REQUIRE(got.tc);
  for (size_t tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& w = (*want.tc)[tc];
    const TcSchedule& g = (*got.tc)[tc];
    CAPTURE(tc);
    if (w.used) {  // port.ets.drift judges the queues the intent uses
      CHECK(g.used);
      CHECK(g.strict == w.strict);
      CHECK(g.bandwidth_pct == w.bandwidth_pct);
    }
  }
  REQUIRE(got.ecn);
  REQUIRE(got.ecn->size() == want.ecn->size());
  for (size_t i = 0; i < want.ecn->size(); ++i) {
    CHECK((*got.ecn)[i].tc == (*want.ecn)[i].tc);
    CHECK((*got.ecn)[i].min_bytes == (*want.ecn)[i].min_bytes);
    CHECK((*got.ecn)[i].max_bytes == (*want.ecn)[i].max_bytes);
    CHECK((*got.ecn)[i].probability_pct == (*want.ecn)[i].probability_pct);
  }
  REQUIRE(got.watchdog);
  CHECK(got.watchdog->enabled == want.watchdog->enabled);
  if (want.watchdog->enabled) {
    CHECK(got.watchdog->detection_ms == want.watchdog->detection_ms);
    CHECK(got.watchdog->restoration_ms == want.watchdog->restoration_ms);
    CHECK(got.watchdog->poll_interval_ms == want.watchdog->poll_interval_ms);
    CHECK(got.watchdog->action == want.watchdog->action);
  }
  REQUIRE(got.lldp);
  CHECK(got.lldp->system_name == want.lldp->system_name);
  CHECK(got.lldp->port_id == want.lldp->port_id);
}

}  // namespace

TEST_CASE("eos collector: whole-device commands only, and the running-config kept without its secrets") {
  const Collector c = adapter(Platform::eos).collector;
  REQUIRE(c.commands.size() == 5);
  for (const CollectCommand& cmd : c.commands) CHECK(cmd.command.rfind("show ", 0) == 0);
  const CollectCommand& running = command(c, "running-config.txt");
  const bool has_keep = running.keep != nullptr;
  REQUIRE(has_keep);
  const std::string kept = running.keep(
      "! device: leaf1 (DCS-7060CX, EOS-4.30)\n"
      "username admin privilege 15 role network-admin secret sha512 $6$s3cret\n"
      "enable password sha512 $6$s3cret\n"
      "snmp-server community s3cret-community ro\n"
      "tacacs-server host 10.0.0.9 key 7 070C285F4D06s3cret\n"
      "radius-server key 7 s3cret\n"
      "management ssh\n"
      "   authorized-key ssh-ed25519 AAAAs3cret\n"
      "!\n"
      "qos map dscp 26 to traffic-class 3\n"
      "priority-flow-control pause watchdog default timeout 0.2\n"
      "interface Ethernet1/1\n"
      "   description uplink s3cret\n"
      "   mtu 9100\n"
      "   ip ospf authentication-key 7 s3cret\n"
      "   priority-flow-control priority 3 no-drop\n"
      "   !\n"
      "   uc-tx-queue 3\n"
      "      !! note s3cret\n"
      "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1536000 bytes\n"
      "!\n"
      "router bgp 65000\n"
      "   neighbor 10.0.0.1 password 7 s3cret\n"
      "end\n");
  CHECK(kept.find("s3cret") == std::string::npos);
  CHECK(kept ==
        "!\n"
        "!\n"
        "qos map dscp 26 to traffic-class 3\n"
        "priority-flow-control pause watchdog default timeout 0.2\n"
        "interface Ethernet1/1\n"
        "   mtu 9100\n"
        "   priority-flow-control priority 3 no-drop\n"
        "   !\n"
        "   uc-tx-queue 3\n"
        "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1536000 bytes\n"
        "!\n"
        "end\n");
  CHECK(running.keep(std::string("a\0b", 3)).empty());
}

TEST_CASE("eos collector: a rendered switch reads back as its intent on every compared field") {
  for (const bool as_printed : {true, false})
    for (const auto& v : test::intent_variants()) {
      const auto& [variant, change] = v;
      CAPTURE(v.first);
      CAPTURE(as_printed);
      DeviceDesired d = test::example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1", "Ethernet10"});
      change(d);
      const auto got = adapter(Platform::eos).collector.observe("leaf1", raw_of(d, as_printed));
      REQUIRE_MESSAGE(got, got.error());
      CHECK(got->name == "leaf1");
      CHECK(got->platform == Platform::eos);
      CHECK(got->unreadable_ports.empty());
      DeviceObserved want = observed_from_desired(d);
      // The renderer turns the watchdog off where no priority is lossless: the intent's watchdog then
      // has nothing to guard, and the device reports it off.
      if (d.qos.lossless_priorities().empty())
        for (PortObserved& p : want.ports) p.watchdog->enabled = false;
      REQUIRE(got->ports.size() == want.ports.size());
      for (const PortObserved& w : want.ports) {
        const PortObserved* g = got->port(w.name);
        REQUIRE_MESSAGE(g != nullptr, w.name);
        check_compared_fields(*g, w);
      }
    }
}

TEST_CASE("eos collector: PFC frames and ECN marks join show interfaces' counters; absent files are no counters") {
  const Collector c = adapter(Platform::eos).collector;
  const DeviceDesired d = test::example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1"});
  RawOutputs raw = raw_of(d, true);
  auto got = c.observe("leaf1", raw);  // a raw directory from before fabricctl read them
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports[0].counters.empty());
  raw["pfc-counters.json"] = R"({"interfaceCounters": {"Ethernet1/1": {"rxFrames": 40, "txFrames": 2}}})";
  raw["ecn-counters.json"] =
      R"({"intfQueueCounters": {"Ethernet1/1": {"queueCounters": {"0": "-", "3": "17"}},
                                "Ethernet2/1": {"queueCounters": {"3": "5"}}}})";
  got = c.observe("leaf1", raw);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->port("Ethernet1/1")->counters ==
        std::map<std::string, uint64_t>{{"ecn_marked_3", 17}, {"pfc_rx_pause", 40}, {"pfc_tx_pause", 2}});
  CHECK(got->port("Ethernet2/1")->counters == std::map<std::string, uint64_t>{{"ecn_marked_3", 5}});
  // A counter that reads wrong is not judged: the device's reading fails, the command named.
  raw["ecn-counters.json"] = R"({"intfQueueCounters": {"Ethernet1/1": {"queueCounters": {"3": "x"}}}})";
  CHECK(
      c.observe("leaf1", raw).error() ==
      "show qos interfaces ecn counters queue: intfQueueCounters.Ethernet1/1.queueCounters.3: a string \"x\" is not a "
      "count (digits, or \"-\")");
  raw["pfc-counters.json"] = "% Invalid input";
  CHECK(c.observe("leaf1", raw).error().find("show priority-flow-control counters: invalid JSON") == 0);
}

TEST_CASE("eos collector: the round trip can fail: a changed line is read as changed") {
  DeviceDesired d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  RawOutputs raw = raw_of(d, true);
  std::string& running = raw["running-config.txt"];
  const size_t at = running.find("   priority-flow-control priority 3 no-drop\n");
  REQUIRE(at != std::string::npos);
  running.replace(at, 44, "   priority-flow-control priority 4 no-drop\n");
  const auto got = adapter(Platform::eos).collector.observe("leaf1", raw);
  REQUIRE_MESSAGE(got, got.error());
  CHECK((*got->ports[0].lossless)[3] == false);
  CHECK((*got->ports[0].lossless)[4] == true);
}

TEST_CASE("eos collector: what is missing, cut short or hostile is named; a bad port is that port's") {
  const Collector c = adapter(Platform::eos).collector;
  const DeviceDesired d = test::example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1"});
  RawOutputs raw = raw_of(d, true);
  RawOutputs r = raw;
  r.erase("lldp-neighbors.json");
  CHECK(c.observe("leaf1", r).error() == "no lldp-neighbors.json was collected");

  r = raw;
  r["running-config.txt"] = r["running-config.txt"].substr(0, r["running-config.txt"].size() / 2);
  CHECK(c.observe("leaf1", r).error() ==
        "show running-config: no `end` line (output cut short, or not a running-config)");
  r["running-config.txt"] = "% Invalid input\n";
  CHECK(c.observe("leaf1", r).error().find("no `end` line") != std::string::npos);

  r = raw;
  r["interfaces.json"] = r["interfaces.json"].substr(0, 40);
  CHECK(c.observe("leaf1", r).error().find("show interfaces: invalid JSON") == 0);
  r["interfaces.json"] = std::string(100, '[') + std::string(100, ']');
  CHECK(c.observe("leaf1", r).error().find("show interfaces: ") == 0);

  // A bad value in one port's block or JSON: that port unreadable, the other read.
  r = raw;
  std::string& running = r["running-config.txt"];
  running.replace(running.find("   mtu 9100\n"), 12, "   mtu 99999\n");
  auto got = c.observe("leaf1", r);
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 1);
  CHECK(got->ports[0].name == "Ethernet2/1");
  REQUIRE(got->port_unreadable("Ethernet1/1"));
  CHECK(*got->port_unreadable("Ethernet1/1") ==
        "show running-config: running-config line 15: \"99999\" is not an MTU 68-65535");

  r = raw;
  nlohmann::json j = nlohmann::json::parse(r["interfaces.json"]);
  j["interfaces"]["Ethernet2/1"]["bandwidth"] = "fast";
  j["interfaces"]["Ethernet9;reboot\u001b[2J"] = {{"mtu", 9100}};
  r["interfaces.json"] = j.dump();
  got = c.observe("leaf1", r);
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 1);
  CHECK(*got->port_unreadable("Ethernet2/1") ==
        "show interfaces: interfaces.Ethernet2/1.bandwidth: expected an integer, got a string \"fast\"");
  REQUIRE(got->unreadable_ports.size() == 2);
  CHECK(got->unreadable_ports.count("Ethernet9;reboot\\x1b[2J") == 1);  // made printable, never raw
}
