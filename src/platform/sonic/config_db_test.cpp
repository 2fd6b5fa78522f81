// SONiC adapter: config_db.json for the roce-lossless fixture and its variants, checked value by value
// in SONiC units and in the layout SONiC tools print.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/test_support.h"

using namespace fabricctl;
using namespace fabricctl::sonic::test;
using nlohmann::json;

namespace {

DeviceDesired fixture() { return fabricctl::test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet8"}); }

json config_db(const DeviceDesired& d) { return parse(render_artifact(d, "config_db.json")); }

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
                                 "MAP_PFC_PRIORITY_TO_QUEUE", "SCHEDULER", "WRED_PROFILE", "PORT_QOS_MAP", "QUEUE",
                                 "CABLE_LENGTH", "PFC_WD", "PORT"});
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
    CHECK(queue_keys == std::set<std::string>{"Ethernet0|0", "Ethernet0|3", "Ethernet0|6", "Ethernet8|0", "Ethernet8|3",
                                              "Ethernet8|6"});
    CHECK(c["QUEUE"]["Ethernet0|3"] == json{{"scheduler", "ROCE_TC3"}, {"wred_profile", "ROCE_LOSSLESS"}});
    CHECK(c["QUEUE"]["Ethernet0|0"] == json{{"scheduler", "ROCE_TC0"}});
    CHECK(c["QUEUE"]["Ethernet8|6"] == json{{"scheduler", "ROCE_TC6"}});

    CHECK(c["CABLE_LENGTH"] == json{{"AZURE", {{"Ethernet0", "5m"}, {"Ethernet8", "5m"}}}});
    CHECK(c["PFC_WD"]["GLOBAL"] == json{{"POLL_INTERVAL", "100"}});
    CHECK(c["PFC_WD"]["Ethernet0"] == json{{"action", "drop"}, {"detection_time", "200"}, {"restoration_time", "200"}});
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
  // The same ports listed in another order give the same bytes.
  DeviceDesired shuffled = d;
  std::swap(shuffled.ports[0], shuffled.ports[2]);
  std::swap(shuffled.ports[1], shuffled.ports[2]);
  REQUIRE(shuffled.ports[0].name == "Ethernet1");
  CHECK(render_artifact(shuffled, "config_db.json") == text);
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
  // Every table and entry present in one piece: config_db.json is valid JSON with all values strings.
  CHECK(all_values_are_strings(config_db(d)));
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
  for (const auto& entry : c["QUEUE"].items()) {  // not a structured binding: CAPTURE is a lambda
    const std::string& key = entry.key();
    const json& fields = entry.value();
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
  for (const auto& entry : c["PORT_QOS_MAP"].items()) {  // not a structured binding: CAPTURE is a lambda
    const std::string& port = entry.key();
    const json& fields = entry.value();
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

TEST_CASE("sonic config_db.json: odd names are JSON-escaped by the dump") {
  // SONiC port names never hold these characters (the inventory rejects them); the adapter must
  // still produce valid JSON that names the same keys.
  const DeviceDesired d = fabricctl::test::example_switch(Platform::sonic, {"Ethernet0", "odd\"name/1~x\\"});
  const std::string text = render_artifact(d, "config_db.json");
  CHECK(text.find(R"("odd\"name/1~x\\|3": {)") != std::string::npos);
  const json config = parse(text);
  CHECK(config["PORT"].contains("odd\"name/1~x\\"));
  CHECK(config["QUEUE"].contains("odd\"name/1~x\\|3"));
}

TEST_CASE("sonic config_db.json: the dump is config_db() with 4-space indentation") {
  const DeviceDesired d = fixture();
  const nlohmann::ordered_json doc = sonic::config_db(d);
  CHECK(render_artifact(d, "config_db.json") == sonic::dump_config_db(doc));
  CHECK(sonic::dump_config_db(nlohmann::ordered_json::parse(R"({"T": {"k": {"f": "v"}}})")) ==
        "{\n    \"T\": {\n        \"k\": {\n            \"f\": \"v\"\n        }\n    }\n}\n");
  // Invalid UTF-8 cannot come from the inventory, but must not throw if it did.
  CHECK(sonic::dump_config_db(nlohmann::ordered_json{{"k", std::string("\xff")}}) ==
        "{\n    \"k\": \"\xef\xbf\xbd\"\n}\n");
}
