// SONiC adapter: the rendered config_db.json and config_db.patch.json for the roce-lossless fixture
// and its variants, checked value by value in SONiC units, plus the patch applied back onto a
// switch's existing CONFIG_DB.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/sonic/json_text.h"
#include "platform/sonic/test_support.h"

using namespace fabricctl;
using namespace fabricctl::sonic::test;
using nlohmann::json;

namespace {

DeviceDesired fixture() { return fabricctl::test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet8"}); }

json config_db(const DeviceDesired& d) { return parse(render_artifact(d, "config_db.json")); }
json patch_of(const DeviceDesired& d) { return parse(render_artifact(d, "config_db.patch.json")); }

/// The tables of `config` as empty objects, plus the entries a switch always has before fabricctl
/// touches it (PORT/<port>, CABLE_LENGTH/AZURE): the parents the patch's "add" operations need.
json empty_switch_for(const json& config) {
  json doc = json::object();
  for (const auto& [table, entries] : config.items()) doc[table] = json::object();
  if (config.contains("PORT"))
    for (const auto& [port, fields] : config["PORT"].items()) doc["PORT"][port] = json::object();
  if (config.contains("CABLE_LENGTH")) doc["CABLE_LENGTH"]["AZURE"] = json::object();
  return doc;
}

/// Every value of every entry is a JSON string, as CONFIG_DB stores them.
bool all_values_are_strings(const json& config) {
  for (const auto& [table, entries] : config.items())
    for (const auto& [key, fields] : entries.items())
      for (const auto& [field, value] : fields.items())
        if (!value.is_string()) return false;
  return true;
}

std::vector<std::string> keys_in_order(const nlohmann::ordered_json& object) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : object.items()) keys.push_back(k);
  return keys;
}

/// 4-space indentation throughout, no tabs, no blank or trailing-space lines, one final newline.
void check_layout(const std::string& text, char first) {
  REQUIRE(!text.empty());
  CHECK(text.front() == first);
  CHECK(text.back() == '\n');
  std::istringstream lines(text);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    ++n;
    CAPTURE(n);
    CAPTURE(line);
    REQUIRE(!line.empty());
    CHECK(line.find('\t') == std::string::npos);
    CHECK(line.back() != ' ');
    CHECK(line.find_first_not_of(' ') % 4 == 0);
  }
}

}  // namespace

TEST_CASE("sonic config_db.json: roce-lossless fixture, value by value") {
  const json c = config_db(fixture());

  CHECK(keys_in_order(parse_ordered(render_artifact(fixture(), "config_db.json"))) ==
        std::vector<std::string>{"DSCP_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP",
                                 "MAP_PFC_PRIORITY_TO_QUEUE", "SCHEDULER", "WRED_PROFILE", "PORT_QOS_MAP",
                                 "QUEUE", "CABLE_LENGTH", "PFC_WD", "PORT"});
  CHECK(all_values_are_strings(c));

  SUBCASE("classification and PFC maps") {
    const json& dscp = c["DSCP_TO_TC_MAP"]["ROCE"];
    CHECK(dscp.size() == 64);
    CHECK(dscp["26"] == "3");  // RoCE
    CHECK(dscp["48"] == "6");  // CNP
    CHECK(dscp["0"] == "0");
    CHECK(dscp["46"] == "0");  // not SONiC's default EF -> 5: every DSCP is ours
    CHECK(dscp["63"] == "0");
    CHECK(c["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"] ==
          json{{"0", "0"}, {"1", "0"}, {"2", "0"}, {"3", "3"}, {"4", "0"}, {"5", "0"}, {"6", "0"}, {"7", "0"}});
    CHECK(c["TC_TO_QUEUE_MAP"]["ROCE"] ==
          json{{"0", "0"}, {"1", "0"}, {"2", "0"}, {"3", "3"}, {"4", "0"}, {"5", "0"}, {"6", "6"}, {"7", "0"}});
    CHECK(c["MAP_PFC_PRIORITY_TO_QUEUE"]["ROCE"] == c["TC_TO_QUEUE_MAP"]["ROCE"]);
  }

  SUBCASE("ETS schedulers and ECN") {
    CHECK(c["SCHEDULER"] == json{{"ROCE_TC0", {{"type", "DWRR"}, {"weight", "50"}}},
                                 {"ROCE_TC3", {{"type", "DWRR"}, {"weight", "50"}}},
                                 {"ROCE_TC6", {{"type", "STRICT"}}}});
    CHECK(c["WRED_PROFILE"] == json{{"ROCE_LOSSLESS",
                                     {{"ecn", "ecn_all"},
                                      {"wred_green_enable", "true"},
                                      {"green_min_threshold", "153600"},
                                      {"green_max_threshold", "1536000"},
                                      {"green_drop_probability", "20"}}}});
  }

  SUBCASE("per-port tables") {
    CHECK(c["PORT_QOS_MAP"]["Ethernet0"] == json{{"dscp_to_tc_map", "ROCE"},
                                                 {"tc_to_pg_map", "ROCE"},
                                                 {"tc_to_queue_map", "ROCE"},
                                                 {"pfc_to_queue_map", "ROCE"},
                                                 {"pfc_enable", "3"},
                                                 {"pfcwd_sw_enable", "3"}});
    CHECK(c["PORT_QOS_MAP"]["Ethernet8"] == c["PORT_QOS_MAP"]["Ethernet0"]);

    std::set<std::string> queue_keys;
    for (const auto& [k, v] : c["QUEUE"].items()) queue_keys.insert(k);
    CHECK(queue_keys ==
          std::set<std::string>{"Ethernet0|0", "Ethernet0|3", "Ethernet0|6", "Ethernet8|0", "Ethernet8|3", "Ethernet8|6"});
    CHECK(c["QUEUE"]["Ethernet0|3"] == json{{"scheduler", "ROCE_TC3"}, {"wred_profile", "ROCE_LOSSLESS"}});
    CHECK(c["QUEUE"]["Ethernet0|0"] == json{{"scheduler", "ROCE_TC0"}});
    CHECK(c["QUEUE"]["Ethernet8|6"] == json{{"scheduler", "ROCE_TC6"}});

    CHECK(c["CABLE_LENGTH"] == json{{"AZURE", {{"Ethernet0", "5m"}, {"Ethernet8", "5m"}}}});
    CHECK(c["PFC_WD"]["GLOBAL"] == json{{"POLL_INTERVAL", "100"}});
    CHECK(c["PFC_WD"]["Ethernet0"] ==
          json{{"action", "drop"}, {"detection_time", "200"}, {"restoration_time", "200"}});
    CHECK(c["PFC_WD"].size() == 3);
    CHECK(c["PORT"] == json{{"Ethernet0", {{"mtu", "9100"}}}, {"Ethernet8", {{"mtu", "9100"}}}});
  }
}

TEST_CASE("sonic config_db.json: layout is stable and readable") {
  DeviceDesired d = fixture();
  d.ports.clear();
  for (const char* n : {"Ethernet10", "Ethernet2", "Ethernet1"}) {
    PortDesired p = fixture().ports.front();
    p.name = n;
    d.ports.push_back(p);
  }
  const std::string text = render_artifact(d, "config_db.json");
  const nlohmann::ordered_json c = parse_ordered(text);

  // Natural order: ports as a switch lists them, DSCP code points numerically.
  CHECK(keys_in_order(c["PORT"]) == std::vector<std::string>{"Ethernet1", "Ethernet2", "Ethernet10"});
  CHECK(keys_in_order(c["PORT_QOS_MAP"]) == std::vector<std::string>{"Ethernet1", "Ethernet2", "Ethernet10"});
  CHECK(keys_in_order(c["PFC_WD"]) == std::vector<std::string>{"GLOBAL", "Ethernet1", "Ethernet2", "Ethernet10"});
  CHECK(keys_in_order(c["QUEUE"]).front() == "Ethernet1|0");
  CHECK(keys_in_order(c["QUEUE"]).back() == "Ethernet10|6");
  const auto dscp = keys_in_order(c["DSCP_TO_TC_MAP"]["ROCE"]);
  REQUIRE(dscp.size() == 64);
  for (size_t i = 0; i < dscp.size(); ++i) CHECK(dscp[i] == std::to_string(i));

  check_layout(text, '{');
  // Rendering is deterministic.
  CHECK(render_artifact(d, "config_db.json") == text);
}

TEST_CASE("sonic artifacts: every optional block on or off keeps the layout") {
  DeviceDesired d = fixture();
  SUBCASE("fixture") {}
  SUBCASE("PCP trust, ECN off, watchdog off, no cable lengths") {
    d.qos.trust = Trust::pcp;
    d.qos.ecn_enabled = false;
    d.qos.watchdog.enabled = false;
    for (auto& p : d.ports) p.cable_length_m = 0;
  }
  SUBCASE("no watchdog, no cable lengths: ECN last before PORT") {
    d.qos.watchdog.enabled = false;
    for (auto& p : d.ports) p.cable_length_m = 0;
  }
  check_layout(render_artifact(d, "config_db.json"), '{');
  check_layout(render_artifact(d, "config_db.patch.json"), '[');
}

TEST_CASE("sonic config_db.json: ECN off or DCQCN-only renders no WRED") {
  DeviceDesired d = fixture();
  SUBCASE("ecn disabled") {
    d.qos.ecn_enabled = false;
    d.qos.ecn.clear();
  }
  SUBCASE("DCQCN-only: NIC reaction on, switch marking off") {
    d.qos.ecn_enabled = false;
    d.qos.dcqcn.enabled = true;
  }
  const json c = config_db(d);
  CHECK_FALSE(c.contains("WRED_PROFILE"));
  for (const auto& [key, fields] : c["QUEUE"].items()) {
    CAPTURE(key);
    CHECK_FALSE(fields.contains("wred_profile"));
    CHECK(fields.contains("scheduler"));
  }
  CHECK(c["QUEUE"].size() == 6);
  CHECK(c.contains("PFC_WD"));  // the rest is untouched
}

TEST_CASE("sonic config_db.json: watchdog off renders no PFC_WD and no pfcwd_sw_enable") {
  DeviceDesired d = fixture();
  SUBCASE("watchdog disabled") { d.qos.watchdog.enabled = false; }
  SUBCASE("no lossless priority: SONiC's pfcwd would skip every port") { d.qos.lossless.fill(false); }
  const json c = config_db(d);
  CHECK_FALSE(c.contains("PFC_WD"));
  for (const auto& [port, fields] : c["PORT_QOS_MAP"].items()) {
    CAPTURE(port);
    CHECK_FALSE(fields.contains("pfcwd_sw_enable"));
    CHECK(fields.contains("pfc_enable"));
  }
}

TEST_CASE("sonic config_db.json: no lossless priority turns PFC off with an empty pfc_enable") {
  DeviceDesired d = fixture();
  d.qos.lossless.fill(false);
  const json c = config_db(d);
  CHECK(c["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] == "");
  CHECK(c["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]["3"] == "0");
}

TEST_CASE("sonic config_db.json: two lossless priorities and a second ECN queue") {
  DeviceDesired d = fixture();
  d.qos.lossless[4] = true;
  d.qos.priority_to_tc[4] = 4;
  d.qos.tc[4] = {true, false, 20};
  d.qos.tc[0].bandwidth_pct = 30;
  d.qos.ecn.push_back({4, 100000, 1000000, 5});
  const json c = config_db(d);
  CHECK(c["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] == "3,4");
  CHECK(c["PORT_QOS_MAP"]["Ethernet0"]["pfcwd_sw_enable"] == "3,4");
  CHECK(c["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]["4"] == "4");
  CHECK(c["SCHEDULER"]["ROCE_TC4"] == json{{"type", "DWRR"}, {"weight", "20"}});
  CHECK(c["SCHEDULER"]["ROCE_TC0"]["weight"] == "30");
  CHECK(c["WRED_PROFILE"]["ROCE_LOSSLESS"]["green_min_threshold"] == "153600");
  CHECK(c["WRED_PROFILE"]["ROCE_ECN_TC4"]["green_max_threshold"] == "1000000");
  CHECK(c["WRED_PROFILE"]["ROCE_ECN_TC4"]["green_drop_probability"] == "5");
  CHECK(c["QUEUE"]["Ethernet8|4"] == json{{"scheduler", "ROCE_TC4"}, {"wred_profile", "ROCE_ECN_TC4"}});
  CHECK(c["QUEUE"]["Ethernet8|3"]["wred_profile"] == "ROCE_LOSSLESS");
}

TEST_CASE("sonic config_db.json: a 0 % ETS class gets DWRR weight 1, SONiC's minimum") {
  DeviceDesired d = fixture();
  d.qos.tc[0].bandwidth_pct = 0;
  CHECK(config_db(d)["SCHEDULER"]["ROCE_TC0"] == json{{"type", "DWRR"}, {"weight", "1"}});
}

TEST_CASE("sonic config_db.json: PCP trust binds DOT1P_TO_TC_MAP instead of DSCP_TO_TC_MAP") {
  DeviceDesired d = fixture();
  d.qos.trust = Trust::pcp;
  const json c = config_db(d);
  CHECK_FALSE(c.contains("DSCP_TO_TC_MAP"));
  CHECK(c["DOT1P_TO_TC_MAP"]["ROCE"] ==
        json{{"0", "0"}, {"1", "1"}, {"2", "2"}, {"3", "3"}, {"4", "4"}, {"5", "5"}, {"6", "6"}, {"7", "7"}});
  CHECK(c["PORT_QOS_MAP"]["Ethernet0"]["dot1p_to_tc_map"] == "ROCE");
  CHECK_FALSE(c["PORT_QOS_MAP"]["Ethernet0"].contains("dscp_to_tc_map"));
}

TEST_CASE("sonic config_db.json: a port without a cable length is left out of CABLE_LENGTH") {
  DeviceDesired d = fixture();
  d.ports[1].cable_length_m = 0;  // unknown: "0m" would make buffermgrd drop the lossless PG
  CHECK(config_db(d)["CABLE_LENGTH"] == json{{"AZURE", {{"Ethernet0", "5m"}}}});
  d.ports[0].cable_length_m = 0;
  CHECK_FALSE(config_db(d).contains("CABLE_LENGTH"));
}

TEST_CASE("sonic config_db.patch.json: per-entry adds that rebuild config_db.json") {
  DeviceDesired d = fixture();
  SUBCASE("fixture") {}
  SUBCASE("ECN and watchdog off") {
    d.qos.ecn_enabled = false;
    d.qos.ecn.clear();
    d.qos.watchdog.enabled = false;
  }
  SUBCASE("PCP trust") { d.qos.trust = Trust::pcp; }
  SUBCASE("no ports: the patch still ends without a dangling comma") { d.ports.clear(); }
  SUBCASE("no cable lengths and no watchdog: the last table is not a fixed one") {
    for (auto& p : d.ports) p.cable_length_m = 0;
    d.qos.watchdog.enabled = false;
  }
  const json config = config_db(d);
  const json patch = patch_of(d);
  REQUIRE(patch.is_array());
  REQUIRE(!patch.empty());
  for (const auto& op : patch) {
    CAPTURE(op.dump());
    CHECK(op.at("op") == "add");
    const std::string path = op.at("path");
    // Never a whole table: at least /TABLE/KEY.
    CHECK(std::count(path.begin(), path.end(), '/') >= 2);
    if (path.rfind("/PORT/", 0) == 0) {
      CHECK(path.size() > 10);
      CHECK(path.substr(path.size() - 4) == "/mtu");  // one field, so lanes, speed etc. survive
      CHECK(op.at("value").is_string());
    }
  }
  json doc = empty_switch_for(config);
  apply_patch(doc, patch);
  CHECK(doc == config);
}

TEST_CASE("sonic config_db.patch.json: entries fabricctl does not own survive") {
  const DeviceDesired d = fixture();
  json doc = json::parse(R"({
    "DSCP_TO_TC_MAP": {"AZURE": {"0": "1", "26": "1"}},
    "TC_TO_PRIORITY_GROUP_MAP": {"AZURE": {"3": "3"}},
    "TC_TO_QUEUE_MAP": {"AZURE": {"3": "3"}},
    "MAP_PFC_PRIORITY_TO_QUEUE": {"AZURE": {"3": "3"}},
    "SCHEDULER": {"scheduler.0": {"type": "DWRR", "weight": "14"}},
    "WRED_PROFILE": {"AZURE_LOSSLESS": {"ecn": "ecn_all"},
                     "ROCE_LOSSLESS": {"ecn": "ecn_none", "wred_yellow_enable": "true"}},
    "PORT_QOS_MAP": {"Ethernet16": {"pfc_enable": "3,4"},
                     "Ethernet0": {"pfc_enable": "3,4", "dscp_to_tc_map": "AZURE"}},
    "QUEUE": {"Ethernet16|3": {"scheduler": "scheduler.0"}, "Ethernet0|3": {"scheduler": "scheduler.0"}},
    "CABLE_LENGTH": {"AZURE": {"Ethernet16": "40m", "Ethernet0": "300m"}},
    "PFC_WD": {"GLOBAL": {"POLL_INTERVAL": "200", "BIG_RED_SWITCH": "disable"}},
    "PORT": {"Ethernet0": {"lanes": "0,1,2,3", "speed": "400000", "mtu": "1500"},
             "Ethernet8": {"lanes": "8,9,10,11", "speed": "400000"},
             "Ethernet16": {"lanes": "16,17,18,19", "speed": "400000", "mtu": "9100"}}
  })");
  apply_patch(doc, patch_of(d));

  // Not ours: untouched.
  CHECK(doc["DSCP_TO_TC_MAP"]["AZURE"]["26"] == "1");
  CHECK(doc["SCHEDULER"]["scheduler.0"]["weight"] == "14");
  CHECK(doc["WRED_PROFILE"]["AZURE_LOSSLESS"] == json{{"ecn", "ecn_all"}});
  CHECK(doc["PORT_QOS_MAP"]["Ethernet16"] == json{{"pfc_enable", "3,4"}});
  CHECK(doc["QUEUE"]["Ethernet16|3"] == json{{"scheduler", "scheduler.0"}});
  CHECK(doc["CABLE_LENGTH"]["AZURE"]["Ethernet16"] == "40m");
  CHECK(doc["PORT"]["Ethernet16"]["mtu"] == "9100");
  // Ours: the entry is replaced as a whole (no stale field left behind) ...
  CHECK(doc["WRED_PROFILE"]["ROCE_LOSSLESS"].size() == 5);
  CHECK_FALSE(doc["WRED_PROFILE"]["ROCE_LOSSLESS"].contains("wred_yellow_enable"));
  CHECK(doc["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] == "3");
  CHECK(doc["PORT_QOS_MAP"]["Ethernet0"]["dscp_to_tc_map"] == "ROCE");
  CHECK(doc["QUEUE"]["Ethernet0|3"]["scheduler"] == "ROCE_TC3");
  CHECK(doc["PFC_WD"]["GLOBAL"] == json{{"POLL_INTERVAL", "100"}});
  // ... except PORT and CABLE_LENGTH, where fabricctl owns a single field.
  CHECK(doc["CABLE_LENGTH"]["AZURE"]["Ethernet0"] == "5m");
  CHECK(doc["PORT"]["Ethernet0"] == json{{"lanes", "0,1,2,3"}, {"speed", "400000"}, {"mtu", "9100"}});
  CHECK(doc["PORT"]["Ethernet8"] == json{{"lanes", "8,9,10,11"}, {"speed", "400000"}, {"mtu", "9100"}});
}

TEST_CASE("sonic templates: names are JSON-escaped and patch paths JSON-pointer-escaped") {
  CHECK(sonic::json_escape(R"(a"b\c)") == R"(a\"b\\c)");
  CHECK(sonic::json_pointer_token("Ethernet0|3") == "Ethernet0|3");
  CHECK(sonic::json_pointer_token("a/b~c") == "a~1b~0c");
  CHECK(sonic::json_pointer_token("~1") == "~01");

  // SONiC port names never hold these characters (the inventory rejects them); the adapter must
  // still produce valid JSON and a patch that lands on the same keys.
  const DeviceDesired d = fabricctl::test::example_switch(Platform::sonic, {"Ethernet0", R"(odd"name/1~x)"});
  const json config = config_db(d);
  CHECK(config["PORT"].contains(R"(odd"name/1~x)"));
  CHECK(config["QUEUE"].contains(R"(odd"name/1~x|3)"));
  json doc = empty_switch_for(config);
  apply_patch(doc, patch_of(d));
  CHECK(doc == config);
}
