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
using namespace fabricctl::sonic::testing;
using nlohmann::json;

namespace {

json rendered_config_db(const DeviceDesired& d) { return parse(render_artifact(d, "config_db.json")); }

/// Every value of every entry is a JSON string, as CONFIG_DB stores them; an entry is fields or null
/// (an entry `config load` deletes).
bool all_values_are_strings(const json& config) {
  for (const auto& [table, entries] : config.items())
    for (const auto& [key, fields] : entries.items()) {
      if (fields.is_null()) continue;
      for (const auto& [field, value] : fields.items())
        if (!value.is_string()) return false;
    }
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
  const json c = rendered_config_db(fixture());

  CHECK(keys_in_order(parse_ordered(render_artifact(fixture(), "config_db.json"))) ==
        std::vector<std::string>{"DSCP_TO_TC_MAP", "TC_TO_PRIORITY_GROUP_MAP", "TC_TO_QUEUE_MAP",
                                 "MAP_PFC_PRIORITY_TO_QUEUE", "SCHEDULER", "WRED_PROFILE", "PORT_QOS_MAP", "QUEUE",
                                 "BUFFER_QUEUE", "BUFFER_PG", "CABLE_LENGTH", "PFC_WD", "PORT"});
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
    // The queues without ECN name a profile that marks and drops nothing.
    CHECK(c["WRED_PROFILE"] == json{{"ROCE_LOSSLESS",
                                     {{"ecn", "ecn_all"},
                                      {"wred_green_enable", "true"},
                                      {"green_min_threshold", "153600"},
                                      {"green_max_threshold", "1536000"},
                                      {"green_drop_probability", "20"}}},
                                    {"ROCE_NO_ECN",
                                     {{"ecn", "ecn_none"},
                                      {"wred_green_enable", "false"},
                                      {"wred_yellow_enable", "false"},
                                      {"wred_red_enable", "false"}}}});
  }

  SUBCASE("per-port tables") {
    CHECK(c["PORT_QOS_MAP"]["Ethernet0"] == json{{"dscp_to_tc_map", "ROCE"},
                                                 {"tc_to_pg_map", "ROCE"},
                                                 {"tc_to_queue_map", "ROCE"},
                                                 {"pfc_to_queue_map", "ROCE"},
                                                 {"pfc_enable", "3"},
                                                 {"pfcwd_sw_enable", "3"}});
    CHECK(c["PORT_QOS_MAP"]["Ethernet8"] == c["PORT_QOS_MAP"]["Ethernet0"]);
    CHECK(c["PORT_QOS_MAP"]["global"] == json{{"dscp_to_tc_map", "ROCE"}});  // SONiC's template binds AZURE
    CHECK(c["PORT_QOS_MAP"].size() == 3);

    // The used queues, and a null (deleted) for each queue SONiC's template configures that none uses.
    std::set<std::string> queue_keys, deleted;
    for (const auto& [k, v] : c["QUEUE"].items()) (v.is_null() ? deleted : queue_keys).insert(k);
    CHECK(queue_keys == std::set<std::string>{"Ethernet0|0", "Ethernet0|3", "Ethernet0|6", "Ethernet8|0", "Ethernet8|3",
                                              "Ethernet8|6"});
    CHECK(deleted == std::set<std::string>{"Ethernet0|1", "Ethernet0|2", "Ethernet0|4", "Ethernet0|5", "Ethernet8|1",
                                           "Ethernet8|2", "Ethernet8|4", "Ethernet8|5"});
    CHECK(c["QUEUE"]["Ethernet0|3"] == json{{"scheduler", "ROCE_TC3"}, {"wred_profile", "ROCE_LOSSLESS"}});
    CHECK(c["QUEUE"]["Ethernet0|0"] == json{{"scheduler", "ROCE_TC0"}, {"wred_profile", "ROCE_NO_ECN"}});
    CHECK(c["QUEUE"]["Ethernet8|6"] == json{{"scheduler", "ROCE_TC6"}, {"wred_profile", "ROCE_NO_ECN"}});

    // The template's queue ranges, lossless where a lossless queue is.
    CHECK(c["BUFFER_QUEUE"] == json{{"Ethernet0|0-2", {{"profile", "egress_lossy_profile"}}},
                                    {"Ethernet0|3-4", {{"profile", "egress_lossless_profile"}}},
                                    {"Ethernet0|5-6", {{"profile", "egress_lossy_profile"}}},
                                    {"Ethernet8|0-2", {{"profile", "egress_lossy_profile"}}},
                                    {"Ethernet8|3-4", {{"profile", "egress_lossless_profile"}}},
                                    {"Ethernet8|5-6", {{"profile", "egress_lossy_profile"}}}});
    // Traditional buffer model: buffermgrd writes the lossless PGs from pfc_enable but never deletes
    // one, so the template's "3-4", no longer a lossless run, is deleted by fabricctl.
    CHECK(c["BUFFER_PG"] == json{{"Ethernet0|3-4", nullptr}, {"Ethernet8|3-4", nullptr}});
    CHECK_FALSE(c.contains("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"));

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
  CHECK(keys_in_order(c["PORT_QOS_MAP"]) == std::vector<std::string>{"global", "Ethernet1", "Ethernet2", "Ethernet10"});
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
  SUBCASE("ECN off, watchdog off, no cable lengths, dynamic buffers") {
    d.qos.ecn_enabled = false;
    d.hardware.headroom_cable_rows_m.clear();
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
  CHECK(all_values_are_strings(rendered_config_db(d)));
}

TEST_CASE("sonic config_db.json: ECN off or DCQCN-only marks on no queue") {
  DeviceDesired d = fixture();
  SUBCASE("ecn disabled") {
    d.qos.ecn_enabled = false;
    d.qos.ecn.clear();
  }
  SUBCASE("DCQCN-only: NIC reaction on, switch marking off") {
    d.qos.ecn_enabled = false;
    d.qos.dcqcn.enabled = true;
  }
  const json c = rendered_config_db(d);
  // Only the profile that marks and drops nothing, on every used queue: SONiC's AZURE_LOSSLESS, which
  // its template binds to queues 3 and 4, cannot survive `config load` of this file.
  CHECK(c["WRED_PROFILE"].size() == 1);
  CHECK(c["WRED_PROFILE"]["ROCE_NO_ECN"]["ecn"] == "ecn_none");
  size_t used = 0;
  for (const auto& entry : c["QUEUE"].items()) {  // not a structured binding: CAPTURE is a lambda
    const std::string& key = entry.key();
    const json& fields = entry.value();
    CAPTURE(key);
    if (fields.is_null()) continue;
    ++used;
    CHECK(fields["wred_profile"] == "ROCE_NO_ECN");
    CHECK(fields.contains("scheduler"));
  }
  CHECK(used == 6);
  CHECK(c.contains("PFC_WD"));  // the rest is untouched
}

TEST_CASE("sonic config_db.json: watchdog off deletes the ports' PFC_WD entries and empties pfcwd_sw_enable") {
  DeviceDesired d = fixture();
  SUBCASE("watchdog disabled") { d.qos.watchdog.enabled = false; }
  SUBCASE("no lossless priority: SONiC's pfcwd would skip every port") { d.qos.lossless.fill(false); }
  const json c = rendered_config_db(d);
  // `pfcwd start_default` creates an entry per port with a neighbour: each one is deleted; GLOBAL is
  // SONiC's (its BIG_RED_SWITCH lives there too).
  CHECK(c["PFC_WD"] == json{{"Ethernet0", nullptr}, {"Ethernet8", nullptr}});
  for (const auto& entry : c["PORT_QOS_MAP"].items()) {  // not a structured binding: CAPTURE is a lambda
    const std::string& port = entry.key();
    const json& fields = entry.value();
    CAPTURE(port);
    if (port == "global") continue;
    CHECK(fields["pfcwd_sw_enable"] == "");  // SONiC's template sets "3,4"; config load merges
    CHECK(fields.contains("pfc_enable"));
  }
}

TEST_CASE("sonic config_db.json: no lossless priority turns PFC off with an empty pfc_enable") {
  DeviceDesired d = fixture();
  d.qos.lossless.fill(false);
  const json c = rendered_config_db(d);
  CHECK(c["PORT_QOS_MAP"]["Ethernet0"]["pfc_enable"] == "");
  CHECK(c["TC_TO_PRIORITY_GROUP_MAP"]["ROCE"]["3"] == "0");
}

TEST_CASE("sonic config_db.json: CABLE_LENGTH is the next row of the SKU's table, or the exact length") {
  DeviceDesired d = fixture();
  d.ports[0].cable_length_m = 3;   // no 3m row: buffermgrd would give it no lossless PG
  d.ports[1].cable_length_m = 41;  // just over a row
  CHECK(rendered_config_db(d)["CABLE_LENGTH"] == json{{"AZURE", {{"Ethernet0", "5m"}, {"Ethernet8", "300m"}}}});
  d.hardware.headroom_cable_rows_m = {1, 2, 5, 40, 100, 300};  // a Marvell SKU's rows
  CHECK(rendered_config_db(d)["CABLE_LENGTH"] == json{{"AZURE", {{"Ethernet0", "5m"}, {"Ethernet8", "100m"}}}});
  d.hardware.headroom_cable_rows_m.clear();  // dynamic model: headroom computed from the metres
  CHECK(rendered_config_db(d)["CABLE_LENGTH"] == json{{"AZURE", {{"Ethernet0", "3m"}, {"Ethernet8", "41m"}}}});
}

TEST_CASE("sonic config_db.json: the traditional model keeps the template PG while it is a lossless run") {
  DeviceDesired d = fixture();
  d.qos.lossless[4] = true;  // 3 and 4: buffermgrd's own "3-4" is right, fabricctl leaves BUFFER_PG alone
  CHECK_FALSE(rendered_config_db(d).contains("BUFFER_PG"));
  d.qos.lossless.fill(false);  // nothing lossless: the template's headroom is released
  CHECK(rendered_config_db(d)["BUFFER_PG"] == json{{"Ethernet0|3-4", nullptr}, {"Ethernet8|3-4", nullptr}});
}

TEST_CASE("sonic config_db.json: the dynamic buffer model gets its lossless PGs and the PFC-to-PG map") {
  DeviceDesired d = fixture();
  d.hardware.headroom_cable_rows_m.clear();
  json c = rendered_config_db(d);
  // The template's "3-4" goes first (deleting it releases PG 3 too), then fabricctl's own.
  CHECK(parse_ordered(render_artifact(d, "config_db.json"))["BUFFER_PG"] ==
        nlohmann::ordered_json{{"Ethernet0|3-4", nullptr},
                               {"Ethernet0|3", {{"profile", "NULL"}}},
                               {"Ethernet8|3-4", nullptr},
                               {"Ethernet8|3", {{"profile", "NULL"}}}});
  CHECK(c["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] == json{{"ROCE", {{"3", "3"}}}});
  CHECK(c["PORT_QOS_MAP"]["Ethernet0"]["pfc_to_pg_map"] == "ROCE");

  d.qos.lossless[4] = true;  // 3 and 4: exactly the template's PG range, which stays
  c = rendered_config_db(d);
  CHECK(c["BUFFER_PG"] == json{{"Ethernet0|3-4", {{"profile", "NULL"}}}, {"Ethernet8|3-4", {{"profile", "NULL"}}}});
  CHECK(c["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"]["ROCE"] == json{{"3", "3"}, {"4", "4"}});

  d.qos.lossless.fill(false);  // nothing lossless: no lossless PG, no map to bind
  c = rendered_config_db(d);
  CHECK(c["BUFFER_PG"] == json{{"Ethernet0|3-4", nullptr}, {"Ethernet8|3-4", nullptr}});
  CHECK_FALSE(c.contains("PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"));
  CHECK_FALSE(c["PORT_QOS_MAP"]["Ethernet0"].contains("pfc_to_pg_map"));
}

TEST_CASE("sonic config_db.json: a lossless queue outside 3-4 makes its template range lossless") {
  DeviceDesired d = fixture();
  d.qos.lossless = {false, false, true, false, false, false, false, false};  // priority 2
  d.qos.priority_to_tc[2] = 2;
  d.qos.tc[2] = {true, false, 0};
  const json c = rendered_config_db(d);
  CHECK(c["BUFFER_QUEUE"]["Ethernet0|0-2"] == json{{"profile", "egress_lossless_profile"}});
  CHECK(c["BUFFER_QUEUE"]["Ethernet0|3-4"] ==
        json{{"profile", "egress_lossy_profile"}});  // no lossless queue there now
  CHECK(c["BUFFER_QUEUE"]["Ethernet0|5-6"] == json{{"profile", "egress_lossy_profile"}});
  CHECK_FALSE(c["BUFFER_QUEUE"].contains("Ethernet0|7"));
}

TEST_CASE("sonic config_db.json: two lossless priorities and a second ECN queue") {
  DeviceDesired d = fixture();
  d.qos.lossless[4] = true;
  d.qos.priority_to_tc[4] = 4;
  d.qos.tc[4] = {true, false, 20};
  d.qos.tc[0].bandwidth_pct = 30;
  d.qos.ecn.push_back({4, 100000, 1000000, 5});
  const json c = rendered_config_db(d);
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
  CHECK(rendered_config_db(d)["SCHEDULER"]["ROCE_TC0"] == json{{"type", "DWRR"}, {"weight", "1"}});
}

TEST_CASE("sonic config_db.json: a port without a cable length is left out of CABLE_LENGTH") {
  DeviceDesired d = fixture();
  d.ports[1].cable_length_m = 0;  // unknown: "0m" would make buffermgrd drop the lossless PG
  CHECK(rendered_config_db(d)["CABLE_LENGTH"] == json{{"AZURE", {{"Ethernet0", "5m"}}}});
  d.ports[0].cable_length_m = 0;
  CHECK_FALSE(rendered_config_db(d).contains("CABLE_LENGTH"));
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
