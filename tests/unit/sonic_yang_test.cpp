// The rendered SONiC config_db.json, merged with the PORT fields a real switch already has, must pass
// SONiC's own YANG models (shared/tools/sonic-yang-check, yanglint underneath) with every table
// checked (--strict-tables). Broken variants must be rejected, so these tests can fail. Without shared/
// beside the repository they skip, or fail when CI is set (shared_dir.h).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/config_db_patch.h"
#include "platform/sonic/default_config_db.h"
#include "platform/sonic/test_support.h"
#include "shared_dir.h"

using namespace fabricctl;
using nlohmann::json;
using sonic::testing::fixture;

namespace {

const std::filesystem::path kChecker = fabricctl::test::shared_path("tools/sonic-yang-check");

struct CheckResult {
  int exit_code = -1;  // 0 valid, 1 invalid, 2 usage/environment
  std::string output;  // stdout and stderr
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

/// Writes `config` to a temporary .json file and runs sonic-yang-check --strict-tables on it.
CheckResult yang_check(const json& config) {
  REQUIRE_MESSAGE(std::filesystem::exists(kChecker), "sonic-yang-check not found at " << kChecker.string());
  std::string path = (std::filesystem::temp_directory_path() / "fabricctl-sonic-yang-XXXXXX.json").string();
  std::vector<char> buf(path.begin(), path.end());
  buf.push_back('\0');
  const int fd = mkstemps(buf.data(), 5);  // 5 = strlen(".json")
  REQUIRE_MESSAGE(fd >= 0, "cannot create a temporary file");
  close(fd);
  path = buf.data();
  std::ofstream(path) << config.dump(4) << '\n';

  CheckResult r;
  // /usr/bin/python3, as the test scripts name it: not a version manager's shim found by the checker's `env`.
  const std::string cmd =
      "/usr/bin/python3 " + shell_quote(kChecker.string()) + " --strict-tables " + shell_quote(path) + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE_MESSAGE(pipe != nullptr, "cannot run " << cmd);
  char chunk[4096];
  size_t n = 0;
  while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) r.output.append(chunk, n);
  const int status = pclose(pipe);
  std::filesystem::remove(path);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// SONiC's default tables for `device` with what a switch's PORT entries already carry (lanes are
/// mandatory in sonic-port.yang; speed from the inventory): fabricctl writes only PORT.mtu.
nlohmann::ordered_json switch_defaults(const DeviceDesired& device) {
  nlohmann::ordered_json base = sonic::default_config_db(device);
  int lane = 0;
  for (const PortDesired& p : device.ports) {
    std::string lanes;
    for (int i = 0; i < 4; ++i) lanes += (i ? "," : "") + std::to_string(lane++);
    base["PORT"][p.name] = {{"lanes", lanes},
                            {"speed", std::to_string(p.speed_mbps.value_or(100000))},  // Mb/s
                            {"admin_status", "up"}};
  }
  return base;
}

/// The CONFIG_DB of a switch after `config load` of the rendered config_db.json on its default tables:
/// what the switch would hold, and what SONiC's models judge.
json switch_config(const DeviceDesired& device) {
  const nlohmann::ordered_json file =
      sonic::testing::parse_ordered(sonic::testing::render_artifact(device, "config_db.json"));
  return json::parse(sonic::testing::load_config(switch_defaults(device), file).dump());
}

void check_valid(const DeviceDesired& d) {
  const CheckResult r = yang_check(switch_config(d));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("RESULT: VALID") != std::string::npos);
  CHECK(r.output.find("NOT CHECKED") == std::string::npos);
  CHECK(r.output.find("WARNING") == std::string::npos);
}

}  // namespace

// Every case needs something from outside the repository (tests/unit/shared_dir.h: suite "external").
TEST_SUITE_BEGIN("external");

TEST_CASE("sonic YANG: the roce-lossless config_db.json, loaded on SONiC's defaults, passes with every table checked") {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(kChecker);
  const CheckResult r = yang_check(switch_config(fixture()));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("RESULT: VALID") != std::string::npos);
  CHECK(r.output.find("NOT CHECKED") == std::string::npos);
  // SONiC's AZURE entries and fabricctl's side by side; the queues SONiC's template set that no priority
  // uses are gone (QUEUE holds 3 per port).
  for (const char* t :
       {"DSCP_TO_TC_MAP (2)", "TC_TO_PRIORITY_GROUP_MAP (2)", "TC_TO_QUEUE_MAP (2)", "MAP_PFC_PRIORITY_TO_QUEUE (2)",
        "SCHEDULER (5)", "WRED_PROFILE (3)", "PORT_QOS_MAP (3)", "QUEUE (6)", "BUFFER_QUEUE (6)", "BUFFER_PG (2)",
        "BUFFER_PROFILE (3)", "BUFFER_POOL (3)", "CABLE_LENGTH (1)", "PFC_WD (3)", "PORT (2)"})
    CHECK_MESSAGE(r.output.find(t) != std::string::npos, "table not checked: " << t);
}

TEST_CASE("sonic YANG: variants of the intent stay valid") {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(kChecker);
  DeviceDesired d = fixture();
  SUBCASE("ECN and watchdog off") {
    d.qos.ecn_enabled = false;
    d.qos.ecn.clear();
    d.qos.watchdog.enabled = false;
  }
  SUBCASE("dynamic buffer model: lossless PGs with profile NULL, the PFC-to-PG map") {
    d.hardware.headroom_cable_rows_m.clear();
  }
  SUBCASE("lossless priority 2 only") {
    d.qos.lossless = {false, false, true, false, false, false, false, false};
    d.qos.priority_to_tc[2] = 2;
    d.qos.tc[2] = {true, false, 0};
    d.qos.ecn_enabled = false;
    d.qos.dcqcn.enabled = false;
  }
  SUBCASE("two lossless priorities, two ECN queues, forward action") {
    d.qos.lossless[4] = true;
    d.qos.priority_to_tc[4] = 4;
    d.qos.tc[4] = {true, false, 20};
    d.qos.tc[0].bandwidth_pct = 30;
    d.qos.ecn.push_back({4, 100000, 1000000, 5});
    d.qos.watchdog.action = WatchdogAction::forward;
  }
  SUBCASE("no lossless priority: empty pfc_enable") { d.qos.lossless.fill(false); }
  check_valid(d);
}

TEST_CASE("sonic YANG: SONiC's default tables with config_db.patch.json applied pass, AZURE tables included") {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(kChecker);
  DeviceDesired d = fixture();
  SUBCASE("roce-lossless") {}
  SUBCASE("dynamic buffer model") { d.hardware.headroom_cable_rows_m.clear(); }
  SUBCASE("two lossless priorities, two ECN queues") {
    d.qos.lossless[4] = true;
    d.qos.priority_to_tc[4] = 4;
    d.qos.tc[4] = {true, false, 20};
    d.qos.tc[0].bandwidth_pct = 30;
    d.qos.ecn.push_back({4, 100000, 1000000, 5});
  }
  nlohmann::ordered_json doc = switch_defaults(d);
  doc = doc.patch(sonic::config_db_patch(doc, sonic::config_db(d)));
  const CheckResult r = yang_check(json::parse(doc.dump()));
  INFO(r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("RESULT: VALID") != std::string::npos);
  CHECK(r.output.find("NOT CHECKED") == std::string::npos);
}

TEST_CASE("sonic YANG: broken configurations are reported INVALID") {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(kChecker);
  SUBCASE("detection_time below SONiC's 100 ms minimum") {
    json c = switch_config(fixture());
    c["PFC_WD"]["Ethernet0"]["detection_time"] = "50";
    const CheckResult r = yang_check(c);
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("RESULT: INVALID") != std::string::npos);
    CHECK(r.output.find(R"(PFC_WD|Ethernet0 field "detection_time" = "50")") != std::string::npos);
  }
  SUBCASE("a detection time shorter than the poll interval, as rendered") {
    // The profile validation must refuse this intent; SONiC's model does.
    DeviceDesired d = fixture();
    d.qos.watchdog.poll_interval_ms = 500;
    const CheckResult r = yang_check(switch_config(d));
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("detection_time must be greater than or equal to POLL_INTERVAL") != std::string::npos);
  }
  SUBCASE("PORT without the lanes the switch has: the leafrefs need real PORT entries") {
    const json c = sonic::testing::parse(
        sonic::testing::load_config(sonic::default_config_db(fixture()), sonic::config_db(fixture())).dump());
    const CheckResult r = yang_check(c);
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("RESULT: INVALID") != std::string::npos);
  }
  SUBCASE("--strict-tables: a table without a model fails") {
    json c = switch_config(fixture());
    c["FLEX_COUNTER_TABLE"]["PFCWD"]["FLEX_COUNTER_STATUS"] = "enable";
    const CheckResult r = yang_check(c);
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("NOT CHECKED: table FLEX_COUNTER_TABLE") != std::string::npos);
  }
}

TEST_SUITE_END();
