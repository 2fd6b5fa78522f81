#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "platform/sonic/test_support.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf() { return test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet4"}); }

std::string fix_of(const DeviceDesired& d, Setting setting, std::vector<int> keys = {}, size_t port = 0) {
  return sonic_fix(Fix{setting, &d, &d.ports.at(port), std::move(keys)});
}

/// The words of one shell line, single quotes removed ('\'' is an embedded quote).
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::string w;
  bool quoted = false, any = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '\'') {
      quoted = !quoted;
      any = true;
    } else if (c == ' ' && !quoted) {
      if (any || !w.empty()) out.push_back(w);
      w.clear();
      any = false;
    } else {
      w += c;
    }
  }
  if (any || !w.empty()) out.push_back(w);
  return out;
}

/// Every field an `sonic-db-cli CONFIG_DB hset 'TABLE|key' field value ...` line of `fix` sets is in
/// config_db.json with the same value.
void check_hsets_in(const nlohmann::json& db, const std::string& fix) {
  for (const std::string& line : test::lines_of(fix)) {
    CAPTURE(line);
    const std::vector<std::string> w = words(line);
    REQUIRE(w.size() >= 6);
    REQUIRE(w[0] == "sonic-db-cli");
    REQUIRE(w[1] == "CONFIG_DB");
    REQUIRE(w[2] == "hset");
    REQUIRE(w.size() % 2 == 0);
    const std::string& key = w[3];
    const size_t bar = key.find('|');
    REQUIRE(bar != std::string::npos);
    const std::string table = key.substr(0, bar);
    const std::string entry = key.substr(bar + 1);
    REQUIRE_MESSAGE(db.contains(table), "no table " << table);
    REQUIRE_MESSAGE(db[table].contains(entry), "no " << table << " entry " << entry);
    for (size_t i = 4; i + 1 < w.size(); i += 2) {
      CAPTURE(w[i]);
      REQUIRE(db[table][entry].contains(w[i]));
      CHECK(db[table][entry][w[i]] == w[i + 1]);
    }
  }
}

}  // namespace

TEST_CASE("sonic fix: the adapter row phrases SONiC fixes") {
  const DeviceDesired d = leaf();
  CHECK((adapter(Platform::sonic).fix == &sonic_fix));
  CHECK(fix_text(Fix{Setting::mtu, &d, &d.ports[1], {}}) == "sudo config interface mtu 'Ethernet4' 9100");
}

TEST_CASE("sonic fix: SONiC's own CLI where it has a command") {
  const DeviceDesired d = leaf();
  CHECK(fix_of(d, Setting::mtu) == "sudo config interface mtu 'Ethernet0' 9100");
  CHECK(fix_of(d, Setting::link_up) == "sudo config interface startup 'Ethernet0'");
  CHECK(fix_of(d, Setting::speed) ==
        "show interfaces status 'Ethernet0'\nshow interfaces transceiver presence 'Ethernet0'");
  CHECK(fix_of(d, Setting::cabling) == "show lldp neighbors 'Ethernet0'");
  CHECK(fix_of(d, Setting::pfc, {3}) == "sudo config interface pfc priority 'Ethernet0' 3 on");
  CHECK(fix_of(d, Setting::pfc, {3, 4}) ==
        "sudo config interface pfc priority 'Ethernet0' 3 on\nsudo config interface pfc priority 'Ethernet0' 4 off");
  CHECK(test::lines_of(fix_of(d, Setting::pfc)).size() == 8);  // no keys: every priority
  CHECK(fix_of(d, Setting::watchdog) ==
        "sudo config pfcwd interval 100\nsudo config pfcwd start --action drop --restoration-time 200 'Ethernet0' 200");

  DeviceDesired off = leaf();
  off.qos.watchdog.enabled = false;
  CHECK(fix_of(off, Setting::watchdog) == "sudo config pfcwd stop 'Ethernet0'");
  // A watchdog without a lossless priority has nothing to watch: stopped too.
  DeviceDesired lossy = leaf();
  lossy.qos.lossless.fill(false);
  CHECK(fix_of(lossy, Setting::watchdog) == "sudo config pfcwd stop 'Ethernet0'");
}

TEST_CASE("sonic fix: CONFIG_DB fields where the CLI has no command") {
  const DeviceDesired d = leaf();
  CHECK(fix_of(d, Setting::trust) ==
        "sonic-db-cli CONFIG_DB hset 'PORT_QOS_MAP|Ethernet0' dscp_to_tc_map 'ROCE'\n"
        "sonic-db-cli CONFIG_DB hdel 'PORT_QOS_MAP|Ethernet0' dot1p_to_tc_map");
  CHECK(fix_of(d, Setting::dscp_map, {26, 48}) == "sonic-db-cli CONFIG_DB hset 'DSCP_TO_TC_MAP|ROCE' 26 '3' 48 '6'");
  CHECK(fix_of(d, Setting::ecn, {3}) ==
        "sonic-db-cli CONFIG_DB hset 'WRED_PROFILE|ROCE_LOSSLESS' ecn 'ecn_all' wred_green_enable 'true' "
        "green_min_threshold '153600' green_max_threshold '1536000' green_drop_probability '20'\n"
        "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|3' wred_profile 'ROCE_LOSSLESS'");
  // A queue the intent does not mark gets the WRED profile that marks and drops nothing, as
  // config_db.json has it (deleting the field would leave SONiC's AZURE_LOSSLESS where it was bound).
  const std::string no_marking =
      "sonic-db-cli CONFIG_DB hset 'WRED_PROFILE|ROCE_NO_ECN' ecn 'ecn_none' wred_green_enable 'false' "
      "wred_yellow_enable 'false' wred_red_enable 'false'\n";
  CHECK(fix_of(d, Setting::ecn, {0}) ==
        no_marking + "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|0' wred_profile 'ROCE_NO_ECN'");

  DeviceDesired no_ecn = leaf();
  no_ecn.qos.ecn_enabled = false;
  no_ecn.qos.ecn.clear();
  CHECK(fix_of(no_ecn, Setting::ecn, {3}) ==
        no_marking + "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|3' wred_profile 'ROCE_NO_ECN'");
  // A queue no priority uses has no entry in config_db.json: its WRED binding goes.
  CHECK(fix_of(d, Setting::ecn, {4}) == "sonic-db-cli CONFIG_DB hdel 'QUEUE|Ethernet0|4' wred_profile");
}

TEST_CASE("sonic fix: host settings have no switch command") {
  const DeviceDesired d = leaf();
  for (Setting s : {Setting::dcqcn, Setting::cnp, Setting::rdma_gid, Setting::rdma_port}) CHECK(fix_of(d, s).empty());
}

TEST_CASE("sonic fix: every field a fix sets is the one config_db.json sets, with its value") {
  DeviceDesired d = leaf();
  d.ports[1].mtu = 9000;
  d.qos.ecn.push_back({5, 20480, 204800, 50});  // a second ECN queue: its own WRED profile
  d.qos.priority_to_tc[5] = 5;
  d.qos.tc[5] = {true, false, 20};
  d.qos.tc[0].bandwidth_pct = 30;
  const nlohmann::json db = sonic::testing::parse(sonic::testing::render_artifact(d, "config_db.json"));
  for (size_t port = 0; port < d.ports.size(); ++port) {
    CAPTURE(port);
    CHECK(db["PORT"][d.ports[port].name]["mtu"] == std::to_string(d.ports[port].mtu));
    CHECK(fix_of(d, Setting::mtu, {}, port) ==
          "sudo config interface mtu '" + d.ports[port].name + "' " + std::to_string(d.ports[port].mtu));
    check_hsets_in(db, fix_of(d, Setting::dscp_map, {}, port));
    check_hsets_in(db, fix_of(d, Setting::ets, {}, port));
    check_hsets_in(db, fix_of(d, Setting::ecn, {3, 5}, port));
    check_hsets_in(db, test::lines_of(fix_of(d, Setting::trust, {}, port)).front());
  }
  const std::vector<std::string> ecn = test::lines_of(fix_of(d, Setting::ecn, {5}, 1));
  REQUIRE(ecn.size() == 2);
  CHECK(ecn[1] == "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet4|5' wred_profile 'ROCE_ECN_TC5'");
}
