// The NX-OS counter readers, `show queuing interface` and `show queuing pfc-queue detail`, on documents
// put together from Cisco's schema, clients run on real switches and a real switch's text form (no JSON
// capture of either is public: docs/reference-nxos.md D), and on malformed and hostile variants.
#include "platform/nxos/queuing_json.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <string>

using namespace fabricctl;
using namespace fabricctl::nxos;

namespace {

/// `show queuing interface | json` of one port as Cisco's show-command schema and clients run on real
/// switches give its shape (docs/reference-nxos.md D; no JSON capture exists), with the counts of a
/// real 9.3 switch's text form of the same command: QoS group 5 sent 202328436 packets and PFC CoS 5
/// sent 150 pause frames. Values are strings, as NX-OS prints most.
nlohmann::json queuing_port(const std::string& port) {
  const auto entry = [](const char* type, const char* units, const char* uc, const char* mc) {
    return nlohmann::json{
        {"eq-stat-type", type}, {"eq-stat-units", units}, {"eq-uc-stat-value", uc}, {"eq-mc-stat-value", mc}};
  };
  const auto group = [&entry](const char* id, const char* tx, const char* drops) {
    return nlohmann::json{
        {"eq-qosgrp", id},
        {"TABLE_qosgrp_egress_stats_entry",
         {{"ROW_qosgrp_egress_stats_entry",
           {entry("Tx", "Pkts", tx, "0"), entry("Tx", "Byts", "203884632744", "0"),
            entry("WRED/AFD & Tail Drop", "Pkts", drops, "2"), entry("WRED/AFD & Tail Drop", "Byts", "9000", "0"),
            entry("Q Depth", "Byts", "0", "0"), entry("WD & Tail Drop", "Pkts", "77", "0")}}}}};
  };
  nlohmann::json pfc = nlohmann::json::array();
  for (int cos = 0; cos < 8; ++cos)
    pfc.push_back({{"cos", std::to_string(cos)},
                   {"pfc-qosgrp", std::to_string(cos)},
                   {"tx-pause-state", "Inactive"},
                   {"tx-pause-count", cos == 5 ? "150" : "0"},
                   {"rx-pause-state", "Inactive"},
                   {"rx-pause-count", cos == 3 ? "4" : "0"}});
  const nlohmann::json egress = {{"dir", "Egress"},
                                 {"if_name_str", port},
                                 {"TABLE_qosgrp_egress_stats",
                                  {{"ROW_qosgrp_egress_stats",
                                    {group("0", "0", "0"), group("3", "1000", "7"), group("5", "202328436", "0"),
                                     group("CONTROL QOS GROUP", "12", "0"), group("SPAN QOS GROUP", "0", "0")}}}}};
  const nlohmann::json ingress = {{"dir", "Ingress"},
                                  {"if_name_str", port},
                                  {"tx-ppp", "150"},
                                  {"rx-ppp", "4"},
                                  {"TABLE_pfc_stats", {{"ROW_pfc_stats", pfc}}}};
  return nlohmann::json::array({egress, ingress});
}

std::string queuing_of(const nlohmann::json& interface_rows) {
  return nlohmann::json{
      {"TABLE_module", {{"ROW_module", {{"TABLE_queuing_interface", {{"ROW_queuing_interface", interface_rows}}}}}}}}
      .dump();
}

}  // namespace

TEST_CASE("nxos show queuing interface: queue and PFC counters of each port") {
  nlohmann::json both = queuing_port("Ethernet1/1");
  for (const auto& row : queuing_port("Ethernet1/2")) both.push_back(row);
  const auto got = queuing_json(queuing_of(both));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 2);
  const auto& c = got->ports.at("Ethernet1/1").counters;
  CHECK(c.at("queue_tx_packets_5") == 202328436);
  CHECK(c.at("queue_tx_packets_3") == 1000);
  CHECK(c.at("queue_drops_3") == 9);  // unicast 7 + multicast 2; WD & Tail Drop is not read
  CHECK(c.at("pfc_tx_pause_5") == 150);
  CHECK(c.at("pfc_rx_pause_3") == 4);
  CHECK(c.at("pfc_rx_pause_7") == 0);
  // Bytes, queue depth and the switch's own groups are not read; no entry counts ECN marks here.
  CHECK(c.size() == 3 * 2 + 8 * 2);
  CHECK(c.count("ecn_marked_3") == 0);
  CHECK(got->ports.at("Ethernet1/1").name == "Ethernet1/1");
  CHECK(got->ports.at("Ethernet1/2").counters == c);
}

TEST_CASE("nxos show queuing interface: one row an object, numbers as integers, ECN, earlier releases") {
  // Modules as a list, one interface row as an object (NX-OS's one-row tables), integer counts.
  auto got = queuing_json(R"({"TABLE_module": {"ROW_module": [{"TABLE_queuing_interface": {"ROW_queuing_interface":
      {"if_name_str": "Eth1/1/2", "TABLE_qosgrp_egress_stats": {"ROW_qosgrp_egress_stats":
        {"eq-qosgrp": 3, "TABLE_qosgrp_egress_stats_entry": {"ROW_qosgrp_egress_stats_entry": [
          {"eq-stat-type": "ECN", "eq-stat-units": "Pkts", "eq-uc-stat-value": 40, "eq-oobfc-uc-stat-value": 2},
          {"eq-stat-type": "Dropped", "eq-stat-units": "Pkts", "eq-uc-stat-value": 5}]}}}}}}]}})");
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.count("Ethernet1/1/2"));  // the short name, read long
  CHECK(got->ports.at("Ethernet1/1/2").counters ==
        std::map<std::string, uint64_t>{{"ecn_marked_3", 42}, {"queue_drops_3", 5}});
  // The schema's own shape: TABLE_queuing_interface at the top.
  got = queuing_json(
      nlohmann::json{{"TABLE_queuing_interface", {{"ROW_queuing_interface", queuing_port("Ethernet1/3")}}}}.dump());
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.at("Ethernet1/3").counters.at("pfc_tx_pause_5") == 150);
  // No interface (a switch with no queuing to show): no ports, no error.
  got = queuing_json("{}");
  REQUIRE(got);
  CHECK(got->ports.empty());
}

TEST_CASE("nxos show queuing interface: a bad value makes its port unreadable, a bad document an error") {
  const struct {
    const char* pointer;  // into Ethernet1/1's rows
    nlohmann::json value;
    const char* why;
  } bad[] = {
      {"/0/TABLE_qosgrp_egress_stats/ROW_qosgrp_egress_stats/1/TABLE_qosgrp_egress_stats_entry/"
       "ROW_qosgrp_egress_stats_entry/0/eq-uc-stat-value",
       "1,000", R"(eq-uc-stat-value: a string "1,000" is not a 64-bit count)"},
      {"/0/TABLE_qosgrp_egress_stats/ROW_qosgrp_egress_stats/1/eq-qosgrp", "8",
       R"(ROW_qosgrp_egress_stats[1].eq-qosgrp: a string "8" is out of range 0-7)"},
      {"/0/TABLE_qosgrp_egress_stats/ROW_qosgrp_egress_stats/1/eq-qosgrp", "-1",
       R"(eq-qosgrp: a string "-1" does not name one QoS group)"},
      {"/0/TABLE_qosgrp_egress_stats/ROW_qosgrp_egress_stats/1/eq-qosgrp", "QOS GROUP 3, 4", "does not name one"},
      {"/0/TABLE_qosgrp_egress_stats/ROW_qosgrp_egress_stats/2/eq-qosgrp", "3", "queue_tx_packets_3 is printed twice"},
      {"/1/TABLE_pfc_stats/ROW_pfc_stats/1/cos", "0", "pfc_tx_pause_0 is printed twice"},
      {"/1/TABLE_pfc_stats/ROW_pfc_stats/1/cos", "-1", R"(cos: a string "-1" is not a number)"},
      {"/1/TABLE_pfc_stats/ROW_pfc_stats/0/rx-pause-count", nlohmann::json::array(), "rx-pause-count"},
      {"/1/TABLE_pfc_stats/ROW_pfc_stats/0/rx-pause-count", "18446744073709551616", "is not a 64-bit count"},
      {"/1/TABLE_pfc_stats/ROW_pfc_stats", "x", "ROW_pfc_stats"},
      {"/0/TABLE_qosgrp_egress_stats/ROW_qosgrp_egress_stats/0/TABLE_qosgrp_egress_stats_entry/"
       "ROW_qosgrp_egress_stats_entry/0/eq-stat-type",
       7, "eq-stat-type"},
  };
  for (const auto& b : bad) {
    CAPTURE(std::string(b.pointer));
    nlohmann::json one = queuing_port("Ethernet1/1");
    one[nlohmann::json::json_pointer(b.pointer)] = b.value;
    for (const auto& row : queuing_port("Ethernet1/2")) one.push_back(row);
    const auto got = queuing_json(queuing_of(one));
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->ports.count("Ethernet1/1") == 0);
    CHECK(got->ports.at("Ethernet1/2").counters.at("pfc_tx_pause_5") == 150);  // the other port is read
    REQUIRE(got->unreadable.count("Ethernet1/1"));
    CHECK_MESSAGE(got->unreadable.at("Ethernet1/1").find(b.why) != std::string::npos,
                  got->unreadable.at("Ethernet1/1"));
    CHECK(got->unreadable.at("Ethernet1/1").rfind("show queuing interface: TABLE_module.ROW_module[0]", 0) == 0);
  }
  // A hostile port name is unreadable; other interfaces are not ports.
  nlohmann::json rows = queuing_port("Ethernet1/1\u001b[2J");
  rows.push_back({{"if_name_str", "mgmt0"}, {"TABLE_pfc_stats", {{"ROW_pfc_stats", {{"cos", "9"}}}}}});
  auto got = queuing_json(queuing_of(rows));
  REQUIRE(got);
  CHECK(got->ports.empty());
  CHECK(got->unreadable.size() == 1);
  CHECK(got->unreadable.count("Ethernet1/1\\x1b[2J"));

  CHECK(queuing_json("% Invalid command at '^' marker.\n").error().starts_with("show queuing interface: invalid JSON"));
  CHECK(queuing_json("[]").error() == "show queuing interface: not a JSON object");
  CHECK(queuing_json(queuing_of({{{"dir", "Egress"}}})).error() ==
        "show queuing interface: TABLE_module.ROW_module[0].TABLE_queuing_interface.ROW_queuing_interface[0]: "
        R"(missing required key "if_name_str")");
  CHECK_FALSE(queuing_json(R"({"TABLE_module": {"ROW_module": "x"}})"));
}

namespace {

/// `show queuing pfc-queue detail | json` of two ports as Cisco's schema and a client a Cisco engineer runs
/// on real 10.4 and 10.5 switches give its shape (docs/reference-nxos.md D; no JSON capture exists): the
/// port as the first word of `if_name_str`, the group as the number in `eq-qosgrp`, one statistic a row.
std::string pfc_queue_doc(const std::string& group, const std::string& shutdowns) {
  const auto port = [&](const char* name, const std::string& storms) {
    return R"({"if_name_str": ")" + std::string(name) +
           R"( Interface PFC watchdog", "wd-status": "Enabled", "TABLE_qosgrp_stats": {"ROW_qosgrp_stats": [
        {"eq-qosgrp": )" +
           group +
           R"(, "eq-qosgrp-state": "Active", "pfc-configured": "YES", "pfc-cos": "3",
         "TABLE_qosgrp_stats_entry": {"ROW_qosgrp_stats_entry": [
           {"q-stat-type": "Shutdown", "q-shutdown": )" +
           storms + R"(}, {"q-stat-type": "Restored", "q-restored": "1"},
           {"q-stat-type": "Total pkts drained", "q-pkt-drained": "5"},
           {"q-stat-type": "Total pkts dropped", "q-pkt-dropped": "4096"},
           {"q-stat-type": "Total Ingress pkts dropped", "q-ing-pkt-dropped": "7"}]}}]}})";
  };
  return R"({"glb-wd-status": "Enabled", "glb-wd-timer": "100", "TABLE_module": {"ROW_module": {
      "TABLE_queuing_interface": {"ROW_queuing_interface": [)" +
         port("Ethernet1/1", shutdowns) + ", " + port("Ethernet1/2", R"("0")") + ", " +
         R"({"if_name_str": "mgmt0 Interface PFC watchdog", "wd-status": "Disabled"}]}}}})";
}

}  // namespace

TEST_CASE("nxos show queuing pfc-queue detail: the watchdog's storms, restores and drops per queue") {
  for (const std::string& group :
       {std::string(R"("3 ")"), std::string(R"("3")"), std::string("3"), std::string(R"("QOS GROUP 3 [Active]")")}) {
    CAPTURE(group);
    const auto got = pfc_queue_json(pfc_queue_doc(group, R"("2")"));
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->unreadable.empty());
    REQUIRE(got->ports.size() == 2);  // mgmt0 is no fabric port
    CHECK(got->ports.at("Ethernet1/1").counters == std::map<std::string, uint64_t>{{"watchdog_drops_3", 4096 + 7},
                                                                                   {"watchdog_restored_3", 1},
                                                                                   {"watchdog_storms_3", 2}});
    CHECK(got->ports.at("Ethernet1/2").counters.at("watchdog_storms_3") == 0);
  }
  // A port without watchdog statistics has none, and no error.
  const auto got =
      pfc_queue_json(R"({"TABLE_module": {"ROW_module": {"TABLE_queuing_interface": {"ROW_queuing_interface":
      {"if_name_str": "Ethernet1/3 Interface PFC watchdog", "wd-status": "Disabled"}}}}})");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.at("Ethernet1/3").counters.empty());
}

TEST_CASE("nxos show queuing pfc-queue detail: a bad value makes its port unreadable") {
  const struct {
    std::string group, shutdowns;
    const char* why;
  } bad[] = {
      {R"("3 and 4")", R"("2")", R"(eq-qosgrp: a string "3 and 4" does not name one QoS group)"},
      {R"("x3")", R"("2")", "does not name one QoS group"},
      {R"("-1")", R"("2")", "does not name one QoS group"},
      {R"("9 ")", R"("2")", R"(eq-qosgrp: a string "9 " is out of range 0-7)"},
      {"-1", R"("2")", "eq-qosgrp"},
      {R"("3")", R"("2x")", R"(q-shutdown: a string "2x" is not a 64-bit count)"},
      {R"("3")", "null", "q-shutdown"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.group);
    CAPTURE(b.shutdowns);
    const auto got = pfc_queue_json(pfc_queue_doc(b.group, b.shutdowns));
    REQUIRE_MESSAGE(got, got.error());
    REQUIRE(got->unreadable.count("Ethernet1/1"));
    CHECK_MESSAGE(got->unreadable.at("Ethernet1/1").find(b.why) != std::string::npos,
                  got->unreadable.at("Ethernet1/1"));
    CHECK(got->unreadable.at("Ethernet1/1").rfind("show queuing pfc-queue detail: TABLE_module.ROW_module[0]", 0) == 0);
    CHECK(got->ports.count("Ethernet1/1") == 0);
  }
  // A storm count printed twice for one queue: which is the switch's is not known.
  std::string twice = pfc_queue_doc(R"("3")", R"("2")");
  twice.replace(twice.find(R"("q-restored": "1")"), 17, R"("q-shutdown": "1")");
  const auto got = pfc_queue_json(twice);
  REQUIRE(got);
  CHECK(got->unreadable.at("Ethernet1/1").find("q-shutdown is printed twice") != std::string::npos);
  // A group without a number (the switch's own) has no counters; the others are read.
  const auto own = pfc_queue_json(pfc_queue_doc(R"("CONTROL QOS GROUP")", R"("2")"));
  REQUIRE(own);
  CHECK(own->unreadable.empty());
  CHECK(own->ports.at("Ethernet1/1").counters.empty());
  CHECK(pfc_queue_json("[]").error() == "show queuing pfc-queue detail: not a JSON object");
}

TEST_CASE("nxos show queuing interface: PFC counts in either row, queue counts from the Egress one") {
  // PFC counts printed by both rows of a port alike are one count; differing, the port is unreadable.
  nlohmann::json rows = queuing_port("Ethernet1/1");
  rows[0]["TABLE_pfc_stats"] = rows[1]["TABLE_pfc_stats"];
  auto got = queuing_json(queuing_of(rows));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  CHECK(got->ports.at("Ethernet1/1").counters.at("pfc_tx_pause_5") == 150);
  rows[0]["TABLE_pfc_stats"]["ROW_pfc_stats"][5]["tx-pause-count"] = "151";
  got = queuing_json(queuing_of(rows));
  REQUIRE(got);
  REQUIRE(got->unreadable.count("Ethernet1/1"));
  CHECK(got->unreadable.at("Ethernet1/1").ends_with("pfc_tx_pause_5 is printed twice, 151 and 150"));

  // Queue statistics in an Ingress row are not the egress queues': not read. Counts of 64 bits are.
  rows = queuing_port("Ethernet1/1");
  rows[1]["TABLE_qosgrp_egress_stats"] = rows[0]["TABLE_qosgrp_egress_stats"];
  rows[1]["TABLE_qosgrp_egress_stats"]["ROW_qosgrp_egress_stats"][1]["TABLE_qosgrp_egress_stats_entry"]
      ["ROW_qosgrp_egress_stats_entry"][0]["eq-uc-stat-value"] = "77";
  rows[0]["TABLE_qosgrp_egress_stats"]["ROW_qosgrp_egress_stats"][0]["TABLE_qosgrp_egress_stats_entry"]
      ["ROW_qosgrp_egress_stats_entry"][0]["eq-uc-stat-value"] = "18446744073709551615";
  got = queuing_json(queuing_of(rows));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  CHECK(got->ports.at("Ethernet1/1").counters.at("queue_tx_packets_3") == 1000);
  CHECK(got->ports.at("Ethernet1/1").counters.at("queue_tx_packets_0") == UINT64_MAX);
  // Their sum beyond 64 bits is refused.
  rows[0]["TABLE_qosgrp_egress_stats"]["ROW_qosgrp_egress_stats"][0]["TABLE_qosgrp_egress_stats_entry"]
      ["ROW_qosgrp_egress_stats_entry"][0]["eq-mc-stat-value"] = "1";
  got = queuing_json(queuing_of(rows));
  REQUIRE(got);
  CHECK(got->unreadable.at("Ethernet1/1").ends_with("eq-mc-stat-value: the columns' sum is beyond 64 bits"));
}
