// The Junos collector: its commands, and a device read from real outputs (tests/fixtures/junos): a vQFX's
// `show interfaces | display json` (duplicate keys and the prompt after it included), a QFX5110's LLDP
// neighbours (napalm's XML in Junos's JSON mapping, SOURCES.md), and Juniper's AI leaf class of service
// applied to the vQFX's ports.
#include <doctest/doctest.h>

#include "platform/platform.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

std::string fixture(const std::string& file) {
  return test::file_text(std::string(FABRICCTL_SOURCE_DIR) + "/tests/fixtures/junos/" + file);
}

/// The class of service of Juniper's QFX5240 AI leaf (config-cos.qfx5240-evo.jvd-aiml-leaf1.conf) as
/// set statements, its wildcards covering the vQFX's xe- ports, and one port's MTU.
const char* const kConfiguration =
    R"(set class-of-service classifiers dscp mydscp forwarding-class CNP loss-priority low code-points 110000
set class-of-service classifiers dscp mydscp forwarding-class NO-LOSS loss-priority low code-points 011010
set class-of-service forwarding-classes class CNP queue-num 3
set class-of-service forwarding-classes class NO-LOSS queue-num 4 no-loss pfc-priority 3
set class-of-service congestion-notification-profile cnp pfc-watchdog
set class-of-service congestion-notification-profile cnp input dscp code-point 011010 pfc
set class-of-service congestion-notification-profile cnp output ieee-802.1 code-point 011 flow-control-queue 4
set class-of-service interfaces xe-* congestion-notification-profile cnp
set class-of-service interfaces xe-* scheduler-map sm1
set class-of-service interfaces xe-* unit * classifiers dscp mydscp
set class-of-service scheduler-maps sm1 forwarding-class CNP scheduler s2-cnp
set class-of-service scheduler-maps sm1 forwarding-class NO-LOSS scheduler s1
set class-of-service schedulers s1 transmit-rate percent 95
set class-of-service schedulers s2-cnp transmit-rate percent 5
set class-of-service schedulers s2-cnp priority strict-high
set interfaces xe-0/0/1 mtu 9216
)";

RawOutputs outputs() {
  return {{"configuration.txt", kConfiguration},
          {"interfaces.json", fixture("show-interfaces-display-json.vqfx-17.4R1.txt")},
          {"lldp-neighbors.json", fixture("get-lldp-neighbors-information.qfx5110.napalm-test.derived.json")}};
}

}  // namespace

TEST_CASE("junos collect: three whole-device commands and a counter command, the configuration kept by its allowlist") {
  const Collector& c = adapter(Platform::junos).collector;
  REQUIRE(c.commands.size() == 4);
  CHECK(c.commands[0].command == "show configuration | display inheritance no-comments | display set");
  CHECK(static_cast<bool>(c.commands[0].keep));
  CHECK(c.commands[1].command == "show interfaces | display json");
  CHECK(c.commands[2].command == "show lldp neighbors | display json");
  CHECK(c.commands[3].command == "show interfaces extensive | display json");
  for (size_t i = 0; i < 3; ++i) CHECK_FALSE(c.commands[i].counter);
  CHECK(c.commands[3].counter);
  CHECK(c.commands[0].keep("set system login user a authentication encrypted-password \"$6$x\"\n").empty());
}

TEST_CASE("junos collect: a device from real outputs") {
  auto d = adapter(Platform::junos).collector.observe("leaf1", outputs());
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->platform == Platform::junos);
  CHECK(d->unreadable_ports.empty());
  CHECK(d->ports.size() == 12);  // xe-0/0/0-11; em0, irb, lo0, vtep and the rest are not ports
  const PortObserved* x0 = d->port("xe-0/0/0");
  REQUIRE(x0 != nullptr);
  CHECK(x0->mtu == 1500);  // `show interfaces`' media MTU 1514, less the Ethernet header
  CHECK(x0->speed_mbps == 10000);
  CHECK(x0->oper_up == true);
  CHECK((*x0->lossless)[3]);
  CHECK((*x0->dscp_to_priority)[26] == 3);
  CHECK((*x0->tc)[4].bandwidth_pct == 95);
  CHECK(x0->watchdog->enabled);
  // The operational MTU wins over the configured one (this vQFX's output predates the statement).
  CHECK(d->port("xe-0/0/1")->mtu == 1500);
}

TEST_CASE("junos collect: LLDP neighbours join their ports") {
  RawOutputs r = outputs();
  r["configuration.txt"] = "set interfaces ge-2/0/0 mtu 9216\n";
  r["interfaces.json"] = R"({"interface-information": [{"physical-interface": [
    {"name": [{"data": "ge-2/0/0"}], "mtu": [{"data": "9216"}], "oper-status": [{"data": "up"}]}]}]})";
  auto d = adapter(Platform::junos).collector.observe("sw1", r);
  REQUIRE_MESSAGE(d, d.error());
  const PortObserved* g = d->port("ge-2/0/0");
  REQUIRE(g != nullptr);
  CHECK(g->mtu == 9202);
  REQUIRE(g->lldp);
  CHECK(g->lldp->system_name == "EX9208");
}

TEST_CASE("junos collect: what is missing or malformed") {
  const auto& observe = adapter(Platform::junos).collector.observe;
  RawOutputs r = outputs();
  r.erase("lldp-neighbors.json");
  CHECK(observe("leaf1", r).error() == "no lldp-neighbors.json was collected");
  r = outputs();
  r["configuration.txt"] = "error: syntax error, expecting <command>: configuration\n";
  CHECK(observe("leaf1", r).error() ==
        "show configuration: not a `set` statement: \"error: syntax error, expecting <command>: configuration\"");
  r = outputs();
  r["interfaces.json"] = "error: syntax error, expecting <command>: interfaces\n";
  CHECK_FALSE(observe("leaf1", r));
  // One port's bad statement: that port is unreadable, the others are read.
  r = outputs();
  r["configuration.txt"] += "set class-of-service interfaces xe-0/0/2 scheduler-map nowhere\n";
  auto d = observe("leaf1", r);
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->port("xe-0/0/2") == nullptr);
  CHECK(*d->port_unreadable("xe-0/0/2") == "show configuration: scheduler-maps \"nowhere\" is not defined");
  CHECK(d->port("xe-0/0/3") != nullptr);
}

TEST_CASE("junos collect: the counters come from show interfaces extensive, where it was collected") {
  const auto& observe = adapter(Platform::junos).collector.observe;
  RawOutputs r = outputs();
  // The extensive output of the vQFX's own ports: its plain rows with a PFC table and a queue on xe-0/0/1,
  // and a counter that is not one on xe-0/0/2.
  const auto row = [](const std::string& name, const std::string& fields) {
    return R"({"name": [{"data": ")" + name + R"("}], )" + fields + "}";
  };
  r["interfaces-extensive.json"] =
      R"({"interface-information": [{"physical-interface": [)" +
      row("xe-0/0/1", R"("ethernet-mac-pfc-statistics": [{"mac-pfc-dot1p": [{"data": "3"}], )"
                      R"("input-mac-pfc-frames": [{"data": "41"}], "output-mac-pfc-frames": [{"data": "7"}]}], )"
                      R"("queue-counters": [{"queue": [{"queue-number": [{"data": "4"}], )"
                      R"("queue-counters-trans-packets": [{"data": "900"}], )"
                      R"("queue-counters-total-drop-packets": [{"data": "2"}]}]}])") +
      ", " + row("xe-0/0/2", R"("input-error-list": [{"framing-errors": [{"data": "many"}]}])") +
      "]}]}\n\n{master:0}\n";
  auto d = observe("leaf1", r);
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->port("xe-0/0/1")->counters ==
        std::map<std::string, uint64_t>{
            {"pfc_rx_pause_3", 41}, {"pfc_tx_pause_3", 7}, {"queue_tx_packets_4", 900}, {"queue_drops_4", 2}});
  CHECK(d->port("xe-0/0/3")->counters.empty());  // not in the extensive output: no counters, never zeros
  CHECK(d->port("xe-0/0/2") == nullptr);
  CHECK(*d->port_unreadable("xe-0/0/2") ==
        "show interfaces extensive: interface-information[0].physical-interface[1].input-error-list[0]."
        "framing-errors[0].data: a string \"many\" is not a number");
  // Without the file (collect, plan and apply do not run it) the ports have no counters at all.
  d = observe("leaf1", outputs());
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->port("xe-0/0/1")->counters.empty());
  // A whole output that is not JSON fails the reading, named.
  r["interfaces-extensive.json"] = "error: syntax error, expecting <command>: extensive\n";
  CHECK(observe("leaf1", r).error().starts_with("show interfaces extensive: "));
}
