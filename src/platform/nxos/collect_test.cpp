// The NX-OS collector: its commands, and a device read from real outputs (tests/fixtures/nxos): the
// QoS of a real leaf's running-config, a real switch's interfaces and LLDP neighbours.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "platform/platform.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

std::string fixture(const std::string& file) {
  return test::file_text(std::string(FABRICCTL_SOURCE_DIR) + "/tests/fixtures/nxos/" + file);
}

/// The outputs of a switch: the NDFC leaf's QoS (its device lines), a real switch's `show interface`
/// (the NX-API body, as the CLI's `| json` prints it) and its LLDP neighbours.
RawOutputs outputs() {
  const std::string running = fixture("show-running-config-ipqos_10.3.2_ndfc-aiml.txt");
  const size_t start = running.find("!Command:"), prompt = running.rfind("leaf1#");
  return {{"running-config.txt", running.substr(start, prompt - start)},
          {"interfaces.json",
           nlohmann::json::parse(fixture("show-interface_n9k-c9336c-fx2_harvest.json"))["output"]["body"].dump()},
          {"lldp-neighbors.json", fixture("show-lldp-neighbors-detail_harvest.json")}};
}

}  // namespace

TEST_CASE("nxos collect: whole-device commands, the running-config kept by its allowlist") {
  const Collector& c = adapter(Platform::nxos).collector;
  REQUIRE(c.commands.size() == 5);
  CHECK(c.commands[0].command == "show running-config");
  CHECK(static_cast<bool>(c.commands[0].keep));
  CHECK(c.commands[1].command == "show interface | json");
  CHECK(c.commands[2].command == "show lldp neighbors detail | json");
  for (size_t i = 0; i < 3; ++i) CHECK_FALSE(c.commands[i].counter);
  CHECK(c.commands[3].command == "show queuing interface | json");
  CHECK(c.commands[3].counter);
  CHECK_FALSE(c.commands[3].per_port);
  CHECK(c.commands[4].command == "show queuing pfc-queue detail | json");
  CHECK(c.commands[4].counter);
  CHECK_FALSE(c.commands[4].per_port);
}

TEST_CASE("nxos collect: a device from real outputs") {
  auto d = adapter(Platform::nxos).collector.observe("leaf1", outputs());
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->platform == Platform::nxos);
  CHECK(d->unreadable_ports.empty());
  const PortObserved* e1 = d->port("Ethernet1/1");
  REQUIRE(e1 != nullptr);
  CHECK(e1->mtu == 9216);  // `show interface`'s, operational
  CHECK(e1->speed_mbps == 40000);
  CHECK(e1->oper_up == true);
  CHECK((*e1->lossless)[3]);
  CHECK((*e1->dscp_to_priority)[24] == 3);
  const PortObserved* e9 = d->port("Ethernet1/9");
  REQUIRE(e9 != nullptr);  // in the running-config, not in this `show interface`
  CHECK(e9->mtu == 1500);
  REQUIRE(e9->lldp);
  CHECK(e9->lldp->system_name == "na2a-mc1-nbg3");
  CHECK(e9->lldp->port_id == "e1b");
}

TEST_CASE("nxos collect: what is missing or malformed") {
  const auto& observe = adapter(Platform::nxos).collector.observe;
  RawOutputs r = outputs();
  r.erase("lldp-neighbors.json");
  CHECK(observe("leaf1", r).error() == "no lldp-neighbors.json was collected");
  r = outputs();
  r["running-config.txt"] += "priority-flow-control watch-dog interval 5\n";
  CHECK(observe("leaf1", r).error() ==
        R"(show running-config: `priority-flow-control watch-dog interval 5`: "5" is out of range 100-1000)");
  r = outputs();
  r["interfaces.json"] = "% Invalid command at '^' marker.\n";
  CHECK(observe("leaf1", r).error().starts_with("show interface: invalid JSON"));
  // One neighbour's bad name: that port is unreadable, the others are read.
  r = outputs();
  r["lldp-neighbors.json"] =
      R"({"TABLE_nbor_detail": {"ROW_nbor_detail": {"l_port_id": "Eth1/1", "sys_name": "a\u0007b", "port_id": "x"}}})";
  auto d = observe("leaf1", r);
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->port("Ethernet1/1") == nullptr);
  CHECK(d->port_unreadable("Ethernet1/1") != nullptr);
  CHECK(d->port("Ethernet1/2") != nullptr);
}

TEST_CASE("nxos collect: the queue and PFC counters join show interface's, a bad row fails its port") {
  const auto& observe = adapter(Platform::nxos).collector.observe;
  RawOutputs r = outputs();
  r["queuing.json"] = R"({"TABLE_module": {"ROW_module": {"TABLE_queuing_interface": {"ROW_queuing_interface": [
      {"dir": "Ingress", "if_name_str": "Ethernet1/1", "TABLE_pfc_stats": {"ROW_pfc_stats":
        {"cos": "3", "tx-pause-count": "12", "rx-pause-count": "0"}}},
      {"dir": "Ingress", "if_name_str": "Ethernet1/2", "TABLE_pfc_stats": {"ROW_pfc_stats":
        {"cos": "3", "tx-pause-count": "twelve"}}}]}}}})";
  auto d = observe("leaf1", r);
  REQUIRE_MESSAGE(d, d.error());
  const PortObserved* e1 = d->port("Ethernet1/1");
  REQUIRE(e1 != nullptr);
  CHECK(e1->counters.at("pfc_tx_pause_3") == 12);
  CHECK(e1->counters.at("pfc_rx_pause_3") == 0);
  CHECK(e1->counters.at("tx_discards") == 8);  // show interface's, kept
  CHECK(d->port("Ethernet1/2") == nullptr);
  REQUIRE(d->port_unreadable("Ethernet1/2") != nullptr);
  CHECK(d->port_unreadable("Ethernet1/2")->find("tx-pause-count") != std::string::npos);
  // The watchdog's counters join them; a bad row of either output fails its port.
  r["pfc-queue.json"] = R"({"TABLE_module": {"ROW_module": {"TABLE_queuing_interface": {"ROW_queuing_interface": [
      {"if_name_str": "Ethernet1/1 Interface PFC watchdog", "TABLE_qosgrp_stats": {"ROW_qosgrp_stats":
        {"eq-qosgrp": "3 ", "TABLE_qosgrp_stats_entry": {"ROW_qosgrp_stats_entry": {"q-shutdown": "6"}}}}},
      {"if_name_str": "Ethernet1/9 Interface PFC watchdog", "TABLE_qosgrp_stats": {"ROW_qosgrp_stats":
        {"eq-qosgrp": "3 ", "TABLE_qosgrp_stats_entry": {"ROW_qosgrp_stats_entry": {"q-shutdown": "-"}}}}}]}}}})";
  d = observe("leaf1", r);
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->port("Ethernet1/1")->counters.at("watchdog_storms_3") == 6);
  CHECK(d->port("Ethernet1/1")->counters.at("pfc_tx_pause_3") == 12);
  CHECK(d->port("Ethernet1/2") == nullptr);
  CHECK(d->port("Ethernet1/9") == nullptr);
  REQUIRE(d->port_unreadable("Ethernet1/9") != nullptr);
  CHECK(d->port_unreadable("Ethernet1/9")->find("show queuing pfc-queue detail:") == 0);
  r.erase("pfc-queue.json");
  // Without the counter output (plan's and apply's raw directories), no counter of it and no error.
  r.erase("queuing.json");
  d = observe("leaf1", r);
  REQUIRE_MESSAGE(d, d.error());
  CHECK(d->port("Ethernet1/1")->counters.count("pfc_tx_pause_3") == 0);
  r["queuing.json"] = "% Invalid command at '^' marker.\n";
  CHECK(observe("leaf1", r).error().starts_with("show queuing interface: invalid JSON"));
}
