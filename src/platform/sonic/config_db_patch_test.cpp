// SONiC adapter: config_db.patch.json as the difference from a base CONFIG_DB. Every patch is applied
// with nlohmann's RFC 6902 implementation (independent of the diff) to prove base + patch holds the
// desired config, and that what fabricctl does not own survives.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.h"
#include "platform/json_patch.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/config_db_patch.h"
#include "platform/sonic/default_config_db.h"
#include "platform/sonic/test_support.h"

using namespace fabricctl;
using namespace fabricctl::sonic;
using nlohmann::ordered_json;

namespace {

DeviceDesired fixture() { return fabricctl::test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet8"}); }

ordered_json j(const char* text) { return ordered_json::parse(text); }

ordered_json applied(ordered_json doc, const ordered_json& patch) {
  const auto error = apply_json_patch(doc, patch);
  REQUIRE_MESSAGE(!error, *error << "\npatch: " << patch.dump(2));
  return doc;
}

/// base + patch holds desired: every entry of desired's entry tables equal, every field of PORT,
/// CABLE_LENGTH and PFC_WD|GLOBAL (entries shared with SONiC) equal.
void check_holds(const ordered_json& result, const ordered_json& desired) {
  // Named references, not structured bindings: doctest's CAPTURE is a lambda, and clang before 16
  // cannot capture a binding.
  for (const auto& table_item : desired.items())
    for (const auto& entry : table_item.value().items()) {
      const std::string& table = table_item.key();
      const std::string& key = entry.key();
      const ordered_json& value = entry.value();
      CAPTURE(table);
      CAPTURE(key);
      REQUIRE(result.contains(table));
      REQUIRE(result[table].contains(key));
      if (table == "PORT" || table == "CABLE_LENGTH" || (table == "PFC_WD" && key == "GLOBAL")) {
        for (const auto& [field, v] : value.items()) CHECK(result[table][key].value(field, ordered_json()) == v);
      } else {
        CHECK(json_equal(result[table][key], value));
      }
    }
}

std::string ops_text(const ordered_json& patch) {
  std::string out;
  for (const auto& op : patch) out += op["op"].get<std::string>() + " " + op["path"].get<std::string>() + "\n";
  return out;
}

}  // namespace

TEST_CASE("sonic patch: offline, against SONiC's default tables, one add per entry fabricctl owns") {
  const DeviceDesired d = fixture();
  const ordered_json desired = config_db(d);
  const ordered_json base = default_config_db(d);
  const ordered_json patch = config_db_patch(base, desired);
  CHECK(ops_text(patch) ==
        "add /DSCP_TO_TC_MAP/ROCE\n"
        "add /TC_TO_PRIORITY_GROUP_MAP/ROCE\n"
        "add /TC_TO_QUEUE_MAP/ROCE\n"
        "add /MAP_PFC_PRIORITY_TO_QUEUE/ROCE\n"
        "add /SCHEDULER/ROCE_TC0\n"
        "add /SCHEDULER/ROCE_TC3\n"
        "add /SCHEDULER/ROCE_TC6\n"
        "add /WRED_PROFILE/ROCE_LOSSLESS\n"
        "add /PORT_QOS_MAP/Ethernet0\n"
        "add /PORT_QOS_MAP/Ethernet8\n"
        "add /QUEUE/Ethernet0|0\n"
        "add /QUEUE/Ethernet0|3\n"
        "add /QUEUE/Ethernet0|6\n"
        "add /QUEUE/Ethernet8|0\n"
        "add /QUEUE/Ethernet8|3\n"
        "add /QUEUE/Ethernet8|6\n"
        "add /CABLE_LENGTH/AZURE/Ethernet0\n"
        "add /CABLE_LENGTH/AZURE/Ethernet8\n"
        "add /PFC_WD/GLOBAL\n"
        "add /PFC_WD/Ethernet0\n"
        "add /PFC_WD/Ethernet8\n"
        "add /PORT/Ethernet0/mtu\n"
        "add /PORT/Ethernet8/mtu\n");
  CHECK(patch[0]["value"] == desired["DSCP_TO_TC_MAP"]["ROCE"]);
  CHECK(patch[22] == j(R"({"op": "add", "path": "/PORT/Ethernet8/mtu", "value": "9100"})"));

  const ordered_json result = applied(base, patch);
  check_holds(result, desired);
  // SONiC's own AZURE maps, schedulers and WRED profile stay for ports fabricctl does not manage.
  CHECK(result["DSCP_TO_TC_MAP"]["AZURE"] == base["DSCP_TO_TC_MAP"]["AZURE"]);
  CHECK(result["SCHEDULER"]["scheduler.1"] == base["SCHEDULER"]["scheduler.1"]);
  CHECK(result["WRED_PROFILE"]["AZURE_LOSSLESS"] == base["WRED_PROFILE"]["AZURE_LOSSLESS"]);
  // The artifact is this patch, dumped.
  CHECK(sonic::test::render_artifact(d, "config_db.patch.json") == dump_config_db(patch));
}

TEST_CASE("sonic patch: every variant holds desired on the default base and on an empty CONFIG_DB") {
  DeviceDesired d = fixture();
  SUBCASE("fixture") {}
  SUBCASE("ECN and watchdog off") {
    d.qos.ecn_enabled = false;
    d.qos.ecn.clear();
    d.qos.watchdog.enabled = false;
  }
  SUBCASE("PCP trust") { d.qos.trust = Trust::pcp; }
  SUBCASE("no ports") { d.ports.clear(); }
  SUBCASE("no cable lengths") {
    for (auto& p : d.ports) p.cable_length_m = 0;
  }
  const ordered_json desired = config_db(d);
  check_holds(applied(default_config_db(d), config_db_patch(default_config_db(d), desired)), desired);
  // From nothing, the patch adds every table: base + patch == desired exactly, except for tables
  // without entries, which CONFIG_DB cannot hold (Redis has no empty hash), so none is added.
  const ordered_json from_empty = applied(ordered_json::object(), config_db_patch(ordered_json::object(), desired));
  ordered_json expected = desired;
  for (const auto& [table, entries] : desired.items())
    if (entries.empty()) expected.erase(table);
  CHECK(json_equal(from_empty, expected));
}

TEST_CASE("sonic patch: a table the switch lacks is added whole, so the add has its parent") {
  DeviceDesired d = fixture();
  d.qos.trust = Trust::pcp;  // DOT1P_TO_TC_MAP is not in SONiC's default tables
  const ordered_json patch = config_db_patch(default_config_db(d), config_db(d));
  CHECK(patch[0]["op"] == "add");
  CHECK(patch[0]["path"] == "/DOT1P_TO_TC_MAP");
  CHECK(patch[0]["value"] == config_db(d)["DOT1P_TO_TC_MAP"]);

  ordered_json base = default_config_db(d);
  base.erase("PFC_WD");  // before `pfcwd start`
  const ordered_json p2 = config_db_patch(base, config_db(d));
  bool whole = false;
  for (const auto& op : p2) whole = whole || (op["path"] == "/PFC_WD" && op["op"] == "add");
  CHECK(whole);
  check_holds(applied(base, p2), config_db(d));
}

TEST_CASE("sonic patch: against a running config, only what changed, and what fabricctl owns") {
  const DeviceDesired d = fixture();
  const ordered_json desired = config_db(d);
  // A switch fabricctl configured before, then edited by hand, with ports fabricctl does not manage.
  ordered_json base = applied(default_config_db(d), config_db_patch(default_config_db(d), desired));
  base["PORT"]["Ethernet0"] = {{"lanes", "0,1,2,3"}, {"speed", "400000"}, {"mtu", "1500"}};
  base["PORT"]["Ethernet8"] = {{"lanes", "8,9,10,11"}, {"speed", "400000"}, {"mtu", "9100"}};
  base["PORT"]["Ethernet16"] = {{"lanes", "16,17,18,19"}, {"speed", "400000"}, {"mtu", "9100"}};
  base["PORT_QOS_MAP"]["Ethernet16"] = {{"pfc_enable", "3,4"}};
  base["PORT_QOS_MAP"]["Ethernet0"]["pfc_to_pg_map"] = "AZURE";  // a stale field in an entry we own
  base["QUEUE"]["Ethernet0|4"] = {{"scheduler", "ROCE_TC4"}};    // left from an older profile
  base["QUEUE"]["Ethernet16|3"] = {{"scheduler", "scheduler.1"}};
  base["SCHEDULER"]["ROCE_TC4"] = {{"type", "DWRR"}, {"weight", "20"}};
  base["CABLE_LENGTH"]["AZURE"]["Ethernet0"] = "300m";
  base["CABLE_LENGTH"]["AZURE"]["Ethernet16"] = "40m";
  base["PFC_WD"]["GLOBAL"] = {{"POLL_INTERVAL", "200"}, {"BIG_RED_SWITCH", "enable"}};

  const ordered_json patch = config_db_patch(base, desired);
  CHECK(ops_text(patch) ==
        "remove /SCHEDULER/ROCE_TC4\n"
        "replace /PORT_QOS_MAP/Ethernet0\n"
        "remove /QUEUE/Ethernet0|4\n"
        "replace /CABLE_LENGTH/AZURE/Ethernet0\n"
        "replace /PFC_WD/GLOBAL/POLL_INTERVAL\n"
        "replace /PORT/Ethernet0/mtu\n");
  const ordered_json result = applied(base, patch);
  check_holds(result, desired);
  // Not ours: untouched.
  CHECK(result["PORT"]["Ethernet0"]["lanes"] == "0,1,2,3");
  CHECK(result["PORT"]["Ethernet16"] == base["PORT"]["Ethernet16"]);
  CHECK(result["PORT_QOS_MAP"]["Ethernet16"] == base["PORT_QOS_MAP"]["Ethernet16"]);
  CHECK(result["QUEUE"]["Ethernet16|3"] == base["QUEUE"]["Ethernet16|3"]);
  CHECK(result["CABLE_LENGTH"]["AZURE"]["Ethernet16"] == "40m");
  // Ours: replaced whole, so no stale field survives.
  CHECK_FALSE(result["PORT_QOS_MAP"]["Ethernet0"].contains("pfc_to_pg_map"));
  CHECK(result["PFC_WD"]["GLOBAL"] == j(R"({"POLL_INTERVAL": "100", "BIG_RED_SWITCH": "enable"})"));
  // Applying the same desired state again changes nothing.
  CHECK(config_db_patch(result, desired) == ordered_json::array());
}

TEST_CASE("sonic patch: what fabricctl no longer renders is removed on its ports only") {
  DeviceDesired d = fixture();
  const ordered_json before = applied(default_config_db(d), config_db_patch(default_config_db(d), config_db(d)));
  SUBCASE("watchdog turned off: the ports' PFC_WD entries go, GLOBAL stays for other ports") {
    d.qos.watchdog.enabled = false;
    const ordered_json patch = config_db_patch(before, config_db(d));
    CHECK(ops_text(patch) ==
          "replace /PORT_QOS_MAP/Ethernet0\n"  // pfcwd_sw_enable dropped
          "replace /PORT_QOS_MAP/Ethernet8\n"
          "remove /PFC_WD/Ethernet0\n"
          "remove /PFC_WD/Ethernet8\n");
    CHECK(applied(before, patch)["PFC_WD"] == j(R"({"GLOBAL": {"POLL_INTERVAL": "100"}})"));
  }
  SUBCASE("ECN off: the WRED profile and the queues' bindings go") {
    d.qos.ecn_enabled = false;
    d.qos.ecn.clear();
    const ordered_json patch = config_db_patch(before, config_db(d));
    CHECK(ops_text(patch) ==
          "remove /WRED_PROFILE/ROCE_LOSSLESS\n"
          "replace /QUEUE/Ethernet0|3\n"
          "replace /QUEUE/Ethernet8|3\n");
    const ordered_json after = applied(before, patch);
    CHECK_FALSE(after["WRED_PROFILE"].contains("ROCE_LOSSLESS"));
    CHECK(after["WRED_PROFILE"].contains("AZURE_LOSSLESS"));
    CHECK(after["QUEUE"]["Ethernet0|3"] == j(R"({"scheduler": "ROCE_TC3"})"));
  }
  SUBCASE("DSCP to PCP trust: the DSCP map goes, the DOT1P map comes") {
    d.qos.trust = Trust::pcp;
    const std::string ops = ops_text(config_db_patch(before, config_db(d)));
    CHECK(ops.find("add /DOT1P_TO_TC_MAP\n") != std::string::npos);
    CHECK(ops.find("remove /DSCP_TO_TC_MAP/ROCE\n") != std::string::npos);
  }
  SUBCASE("a port's cable length becomes unknown: the switch keeps its value") {
    d.ports[0].cable_length_m = 0;
    CHECK(ops_text(config_db_patch(before, config_db(d))) == "");
  }
}

TEST_CASE("sonic default_config_db: SONiC's default tables, with the device's ports") {
  const DeviceDesired d = fixture();
  const ordered_json base = default_config_db(d);
  // qos_config.j2's AZURE maps: DSCP 26 lands in lossy TC 1, the reason fabricctl writes its own map.
  CHECK(base["DSCP_TO_TC_MAP"]["AZURE"].size() == 64);
  CHECK(base["DSCP_TO_TC_MAP"]["AZURE"]["26"] == "1");
  CHECK(base["DSCP_TO_TC_MAP"]["AZURE"]["48"] == "6");
  CHECK(base["TC_TO_PRIORITY_GROUP_MAP"]["AZURE"]["4"] == "4");
  CHECK(base["WRED_PROFILE"]["AZURE_LOSSLESS"]["green_min_threshold"] == "1048576");  // bytes
  CHECK(base["PORT"] == j(R"({"Ethernet0": {}, "Ethernet8": {}})"));
  CHECK(base["CABLE_LENGTH"] == j(R"({"AZURE": {}})"));
  // Nothing in it is fabricctl's: the offline patch removes nothing.
  for (const auto& op : config_db_patch(base, config_db(d))) CHECK(op["op"] == "add");
}
