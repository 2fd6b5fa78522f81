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
  REQUIRE(c.commands.size() == 6);
  for (const CollectCommand& cmd : c.commands) CHECK(cmd.command.rfind("show ", 0) == 0);
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
  raw["pfc-counters.txt"] = "% Error";
  CHECK(c.observe("leaf1", raw).error() == "show pfc counters: no \"Port Rx\" table");
  raw.erase("pfc-counters.txt");

  raw.erase("lldp-table.txt");
  CHECK(c.observe("leaf1", raw).error() == "no lldp-table.txt was collected");
  raw["lldp-table.txt"] = "% Error: no such command";
  CHECK(c.observe("leaf1", raw).error().find("show lldp table: no table") == 0);
}
