// The CONFIG_DB reader: the inverse of config_db() on every intent variant and every shipped golden,
// SONiC's own CONFIG_DB (shared/reference/outputs/sonic, required in CI), and malformed, truncated and
// hostile documents: a clear error for the document or the port, never a crash.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <random>
#include <sstream>

#include "fidelity_support.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/config_db_reader.h"
#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::sonic;

namespace {

/// What the reader must find on a port the rendered config_db.json configures from `d`.
void check_port(const DeviceDesired& d, const PortDesired& want, const PortObserved& got) {
  const QosIntent& q = d.qos;
  CAPTURE(want.name);
  CHECK(got.mtu == want.mtu);
  CHECK(got.trust == Trust::dscp);
  CHECK(got.dscp_to_priority == q.dscp_to_priority);
  CHECK(got.lossless == q.lossless);
  CHECK(got.priority_to_tc == q.priority_to_tc);
  REQUIRE(got.tc);
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    CAPTURE(tc);
    const TcSchedule& w = q.tc.at(static_cast<size_t>(tc));
    const TcSchedule& g = got.tc->at(static_cast<size_t>(tc));
    CHECK(g.used == w.used);
    if (!w.used) continue;
    CHECK(g.strict == w.strict);
    if (!w.strict) CHECK(g.bandwidth_pct == std::max(1, w.bandwidth_pct));  // DWRR weights start at 1
  }
  REQUIRE(got.ecn);
  const std::vector<EcnQueue> ecn = q.ecn_enabled ? q.ecn : std::vector<EcnQueue>{};
  REQUIRE(got.ecn->size() == ecn.size());
  for (const EcnQueue& e : ecn) {
    const auto it = std::find_if(got.ecn->begin(), got.ecn->end(), [&](const EcnQueue& o) { return o.tc == e.tc; });
    REQUIRE(it != got.ecn->end());
    CHECK(it->min_bytes == e.min_bytes);
    CHECK(it->max_bytes == e.max_bytes);
    CHECK(it->probability_pct == e.probability_pct);
  }
  REQUIRE(got.watchdog);
  const bool runs = q.watchdog.enabled && !q.lossless_priorities().empty();
  CHECK(got.watchdog->enabled == runs);
  if (runs) {
    CHECK(got.watchdog->detection_ms == q.watchdog.detection_ms);
    CHECK(got.watchdog->restoration_ms == q.watchdog.restoration_ms);
    CHECK(got.watchdog->poll_interval_ms == q.watchdog.poll_interval_ms);
    CHECK(got.watchdog->action == q.watchdog.action);
  }
  CHECK_FALSE(got.oper_up);  // not in CONFIG_DB: the status command's
  CHECK_FALSE(got.lldp);
}

}  // namespace

TEST_CASE("config_db reader: reads back what config_db() writes, for every intent variant") {
  for (const auto& entry : test::intent_variants()) {
    const auto& [name, change] = entry;
    DeviceDesired d = test::example_switch(Platform::sonic, {"Ethernet8", "Ethernet0", "Ethernet4"});
    change(d);
    CAPTURE(entry.first);
    const auto got = ports_from_config_db(dump_config_db(config_db(d)));
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->unreadable.empty());
    REQUIRE(got->ports.size() == 3);
    CHECK(got->ports[0].name == "Ethernet0");  // natural order
    CHECK(got->ports[2].name == "Ethernet8");
    for (const PortObserved& p : got->ports) {
      const auto want =
          std::find_if(d.ports.begin(), d.ports.end(), [&](const PortDesired& w) { return w.name == p.name; });
      REQUIRE(want != d.ports.end());
      check_port(d, *want, p);
    }
  }
}

TEST_CASE("config_db reader: every shipped golden config_db.json reads, every port of it") {
  for (const auto& entry : test::golden_files("config_db.json")) {
    const auto& [path, text] = entry;
    CAPTURE(entry.first);
    const auto got = ports_from_config_db(text);
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->unreadable.empty());
    const auto doc = nlohmann::json::parse(text);
    CHECK(got->ports.size() == doc["PORT"].size());
    for (const PortObserved& p : got->ports) {
      CHECK(p.mtu);
      CHECK(p.dscp_to_priority);
    }
  }
}

TEST_CASE("config_db reader: SONiC's own QoS tables (sonic-utilities' qos reload render)" *
          doctest::test_suite("external")) {
  const auto tables = test::shared_path("reference/outputs/sonic/config-db_qos-tables_qos-reload-render.json");
  const auto port_maps = test::shared_path("reference/outputs/sonic/config-db_port-qos-map-buffer-pg_update-qos.json");
  if (!test::shared_available(tables) || !test::shared_available(port_maps)) return;
  // The port bindings alone point at schedulers and WRED profiles the document lacks: the port is
  // unreadable, and the reason names the dangling reference.
  const auto alone = ports_from_config_db(test::file_text(port_maps));
  REQUIRE_MESSAGE(alone, alone.error());
  REQUIRE(alone->unreadable.count("Ethernet0") == 1);
  CHECK(alone->unreadable.at("Ethernet0") ==
        "PORT_QOS_MAP.Ethernet0.dscp_to_tc_map: \"AZURE\" is not in DSCP_TO_TC_MAP");
  // With the tables the same template renders: SONiC's default RoCE-ish QoS, as its own tests have it.
  auto doc = nlohmann::ordered_json::parse(test::file_text(tables));
  const auto ports = nlohmann::ordered_json::parse(test::file_text(port_maps));
  doc["PORT_QOS_MAP"] = ports["PORT_QOS_MAP"];
  doc["QUEUE"] = ports["QUEUE"];
  const auto got = ports_from_config_db(doc.dump());
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 1);
  const PortObserved& p = got->ports[0];
  CHECK(p.name == "Ethernet0");
  CHECK(p.trust == Trust::dscp);
  REQUIRE(p.dscp_to_priority);
  CHECK((*p.dscp_to_priority)[3] == 3);
  CHECK((*p.dscp_to_priority)[4] == 4);
  CHECK((*p.dscp_to_priority)[26] == 1);  // SONiC's default map sends DSCP 26 to a lossy class
  std::array<bool, kPriorities> lossless{};
  lossless[3] = lossless[4] = true;
  CHECK(p.lossless == lossless);
  REQUIRE(p.tc);
  CHECK((*p.tc)[3].used);
  CHECK((*p.tc)[3].bandwidth_pct == 15);
  CHECK((*p.tc)[0].bandwidth_pct == 14);
  CHECK_FALSE((*p.tc)[7].used);
  REQUIRE(p.ecn);
  REQUIRE(p.ecn->size() == 2);
  CHECK((*p.ecn)[0].tc == 3);
  CHECK((*p.ecn)[0].min_bytes == 1048576);
  CHECK((*p.ecn)[0].max_bytes == 2097152);
  CHECK((*p.ecn)[0].probability_pct == 5);
  CHECK((*p.ecn)[1].tc == 4);
  CHECK_FALSE(p.watchdog->enabled);
}

TEST_CASE("config_db reader: a bad document is an error; a bad entry makes its port unreadable, not the others") {
  CHECK_FALSE(ports_from_config_db(""));
  CHECK_FALSE(ports_from_config_db("[]"));
  CHECK(ports_from_config_db("{\"PORT\": [1]}").error() == "CONFIG_DB: PORT is not an object");
  CHECK(
      ports_from_config_db("{\"PORT\": {\"Ethernet0\": {\"mtu\": \"9100\"}").error().find("CONFIG_DB: invalid JSON") ==
      0);
  std::string deep = std::string(40, '[') + std::string(40, ']');
  CHECK_FALSE(ports_from_config_db(deep));

  const auto got = ports_from_config_db(R"({
    "PORT": {"Ethernet0": {"mtu": "9100x"}, "Ethernet4": {"mtu": "9100", "speed": "400000"},
             "Ethernet8;reboot": {"mtu": "9100"}, "Ethernet12": {"mtu": "9100"}, "Ethernet16": {"mtu": "9100"}},
    "PORT_QOS_MAP": {"Ethernet12": {"pfc_enable": "3,9"}, "Ethernet16": {"dscp_to_tc_map": "ROCE"}},
    "DSCP_TO_TC_MAP": {"ROCE": {"64": "3"}}
  })");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.at("Ethernet0") == "PORT.Ethernet0.mtu: \"9100x\" is not an integer 68-9216");
  CHECK(got->unreadable.at("Ethernet12") ==
        "PORT_QOS_MAP.Ethernet12.pfc_enable: \"3,9\" is not a list of priorities 0-7");
  CHECK(got->unreadable.at("Ethernet16") == "DSCP_TO_TC_MAP.ROCE.64: key is not an integer 0-63");
  CHECK(got->unreadable.count("Ethernet8;reboot") == 1);
  REQUIRE(got->ports.size() == 1);
  CHECK(got->ports[0].name == "Ethernet4");
  CHECK(got->ports[0].speed_mbps == 400000);
}

TEST_CASE("config_db reader: truncated and mutated CONFIG_DB never crashes it") {
  DeviceDesired d = test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet4"});
  const std::string good = dump_config_db(config_db(d));
  for (size_t cut = 0; cut < good.size(); cut += 97) CHECK_FALSE(ports_from_config_db(good.substr(0, cut)));
  std::mt19937 rng(7);  // fixed: the same mutants every run
  size_t read = 0;
  for (int i = 0; i < 400; ++i) {
    std::string m = good;
    for (int k = 0; k < 3; ++k) m[rng() % m.size()] = static_cast<char>("0\"{}[],:x9-|\\"[rng() % 14]);
    const auto got = ports_from_config_db(m);
    if (got) read += got->ports.size() + got->unreadable.size();
  }
  CHECK(read > 0);  // many mutants stay JSON: their ports were read or named unreadable
}
