// The SONiC collector: what it keeps of CONFIG_DB (no secret reaches a raw file) and how the three
// outputs become one device's observed state.
#include <doctest/doctest.h>

#include "collect_support.h"
#include "fidelity_support.h"
#include "platform/platform.h"
#include "platform/sonic/config_db.h"

using namespace fabricctl;

namespace {

using test::command;

const std::string kStatus =
    "Interface    Lanes    Speed    MTU  Alias  Oper  Admin\n"
    "-----------  -------  -------  ---  -----  ----  -----\n"
    "Ethernet0    1,2      400G     9100 e1     up    up\n"
    "Ethernet4    3,4      400G     9100 e2     down  up\n";
const std::string kLldp =
    "Capability codes: (R) Router, (B) Bridge, (O) Other\n"
    "LocalPort    RemoteDevice    RemotePortID    Capability    RemotePortDescr\n"
    "-----------  --------------  --------------  ------------  -----------------\n"
    "Ethernet0    host1           ens1f0np0       O\n"
    "--------------------------------------------------\n"
    "Total entries displayed:  1\n";

}  // namespace

TEST_CASE("sonic collector: whole-device commands only, and CONFIG_DB kept without its secrets") {
  const Collector c = adapter(Platform::sonic).collector;
  REQUIRE(c.commands.size() == 12);
  for (const CollectCommand& cmd : c.commands) {
    CHECK((cmd.command.rfind("show ", 0) == 0 || cmd.command.rfind("portstat ", 0) == 0));
    // The four the device's state needs are required; every counter command may be missing.
    CHECK(cmd.counter ==
          (cmd.file.find("counters") != std::string_view::npos || cmd.file.find("stats") != std::string_view::npos ||
           cmd.file.find("errors") != std::string_view::npos || cmd.file.find("flap") != std::string_view::npos));
  }
  const CollectCommand& running = command(c, "runningconfiguration.json");
  const bool has_keep = running.keep != nullptr;
  REQUIRE(has_keep);
  const std::string kept = running.keep(R"({
    "TACPLUS_SERVER": {"10.0.0.9": {"passkey": "tac-s3cret"}},
    "RADIUS": {"global": {"passkey": "rad-s3cret"}},
    "SNMP_COMMUNITY": {"public-s3cret": {"TYPE": "RO"}},
    "PORT": {"Ethernet0": {"mtu": "9100", "admin_status": "up"}},
    "PFC_WD": {"GLOBAL": {"POLL_INTERVAL": "200"}}
  })");
  CHECK(kept.find("s3cret") == std::string::npos);
  CHECK(kept.find("\"Ethernet0\"") != std::string::npos);
  CHECK(kept.find("POLL_INTERVAL") != std::string::npos);
  CHECK(running.keep("not json, maybe a secret").empty());
  CHECK(running.keep("[\"s3cret\"]").empty());
  // show version: the lines plan reads, not the serial number or what changes on every read.
  const std::string version =
      command(c, "version.txt")
          .keep(
              "SONiC Software Version: SONiC.20230531.22\nHwSKU: Force10-S6000\nASIC: broadcom\nSerial Number: S3CR3T\n"
              "Uptime: 08:00:00 up 1 day\n");
  CHECK(version == "SONiC Software Version: SONiC.20230531.22\nHwSKU: Force10-S6000\nASIC: broadcom\n");
}

TEST_CASE("sonic collector: CONFIG_DB, status and LLDP become one device; what is missing is named") {
  const Collector c = adapter(Platform::sonic).collector;
  const DeviceDesired d = test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet4"});
  RawOutputs raw{{"runningconfiguration.json",
                  command(c, "runningconfiguration.json").keep(sonic::dump_config_db(sonic::config_db(d)))},
                 {"interfaces-status.txt", kStatus},
                 {"lldp-table.txt", kLldp}};
  const auto got = c.observe("leaf1", raw);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->name == "leaf1");
  CHECK(got->platform == Platform::sonic);
  REQUIRE(got->ports.size() == 2);
  const PortObserved& e0 = got->ports[0];
  CHECK(e0.name == "Ethernet0");
  CHECK(e0.speed_mbps == 400000);
  CHECK(e0.oper_up == true);
  CHECK(e0.mtu == d.ports[0].mtu);
  REQUIRE(e0.lldp);
  CHECK(e0.lldp->system_name == "host1");
  CHECK(e0.lldp->port_id == "ens1f0np0");
  CHECK(got->ports[1].oper_up == false);
  CHECK_FALSE(got->ports[1].lldp);

  CHECK(e0.counters.empty());  // a raw directory from before counters were collected

  // The counter tables: PFC pauses per priority and the watchdog's queues, in neutral names.
  raw["pfc-counters.txt"] =
      "  Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
      "---------  ------  ------  ------  ------  ------  ------  ------  ------\n"
      "Ethernet0       0       0       0   1,200       0       0       0       0\n\n"
      "  Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7\n"
      "---------  ------  ------  ------  ------  ------  ------  ------  ------\n"
      "Ethernet0       0       0       0       7       0       0       0       0\n";
  raw["pfcwd-stats.txt"] =
      "      QUEUE    STATUS    STORM DETECTED/RESTORED    TX OK/DROP    RX OK/DROP    TX LAST OK/DROP    RX LAST OK/DROP\n"
      "-----------  --------  -------------------------  ------------  ------------  -----------------  -----------------\n"
      "Ethernet0:3   stormed                        1/0         0/300           0/0                0/0                0/0\n";
  const auto counted = c.observe("leaf1", raw);
  REQUIRE_MESSAGE(counted, counted.error());
  CHECK(counted->ports[0].counters.at("pfc_rx_pause_3") == 1200);
  CHECK(counted->ports[0].counters.at("pfc_tx_pause_3") == 7);
  CHECK(counted->ports[0].counters.at("watchdog_drops_3") == 300);
  CHECK(counted->ports[1].counters.empty());  // Ethernet4: in neither table
  // Drops per ingress PG, errors, FEC codewords, queues' drops and ECN marks.
  raw["pg-drop-counters.txt"] =
      "Ingress PG dropped packets:\n"
      "     Port    PG0    PG1    PG2    PG3    PG4    PG5    PG6    PG7\n"
      "---------  -----  -----  -----  -----  -----  -----  -----  -----\n"
      "Ethernet0      0      0      0     42      0      0      0      0\n";
  raw["port-errors.json"] = R"({"Ethernet0": {"STATE": "U", "RX_ERR": "5", "RX_DRP": "0", "RX_OVR": "0",
                               "TX_ERR": "0", "TX_DRP": "0", "TX_OVR": "0"}})";
  raw["fec-stats.json"] = R"({"Ethernet0": {"STATE": "U", "FEC_CORR": "9", "FEC_UNCORR": "1", "FEC_SYMBOL_ERR": "0"}})";
  raw["queue-counters.json"] = R"({"Ethernet0": {"time": "2026-12-05T08:00:00", "UC3": {"totalpacket": "10",
                                  "totalbytes": "0", "droppacket": "2", "dropbytes": "0"}}})";
  raw["wred-counters.json"] = R"({"Ethernet0": {"time": "2026-12-05T08:00:00", "UC3": {"wreddroppacket": "0",
                                 "wreddropbytes": "0", "ecnmarkedpacket": "77", "ecnmarkedbytes": "0"}}})";
  const auto all = c.observe("leaf1", raw);
  REQUIRE_MESSAGE(all, all.error());
  const auto& e0c = all->ports[0].counters;
  CHECK(e0c.at("rx_discards_3") == 42);
  CHECK(e0c.at("rx_errors") == 5);
  CHECK(e0c.at("fec_uncorrectable") == 1);
  CHECK(e0c.at("queue_drops_3") == 2);
  CHECK(e0c.at("ecn_marked_3") == 77);
  CHECK(e0c.at("pfc_rx_pause_3") == 1200);  // the PFC tables' counters kept beside them
  raw["queue-counters.json"] = "COUNTERS_QUEUE_NAME_MAP is empty!\n";
  CHECK(c.observe("leaf1", raw).error().find("show queue counters --json: invalid JSON") == 0);
  raw.erase("queue-counters.json");
  raw["pfc-counters.txt"] = "% Error";
  CHECK(c.observe("leaf1", raw).error() == "show pfc counters: no \"Port Rx\" table");
  raw.erase("pfc-counters.txt");

  raw.erase("lldp-table.txt");
  CHECK(c.observe("leaf1", raw).error() == "no lldp-table.txt was collected");
  raw["lldp-table.txt"] = "% Error: no such command";
  CHECK(c.observe("leaf1", raw).error().find("show lldp table: no table") == 0);
}
