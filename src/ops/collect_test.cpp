#include "ops/collect.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "ops/fake_fleet_test_support.h"
#include "state/snapshot.h"

using namespace fabricctl;
using namespace fabricctl::ops;

TEST_CASE("ops collect: every device read through the connector, stamped by the clock") {
  fake::Fleet f;
  RawByDevice raws;
  const FabricObserved got = collect_devices(f.fabric, {}, {}, f.ctx, &raws);
  CHECK(got.failures.empty());
  REQUIRE(got.devices.size() == 4);
  CHECK(got.devices.at("leaf1").ports.size() == 2);
  CHECK(got.devices.at("host1").collected_at == "2026-12-03T06:00:00.000Z");
  CHECK(got.devices.at("leaf1").source == "fabricctl collect");
  CHECK(raws.size() == 4);
  CHECK(f.seen.phases.front() == "reading 4 devices");
  CHECK(f.seen.phases.back() == "read 4/4 devices, 0 failed");
}

TEST_CASE("ops collect: an unreachable device and one that hangs are failures; the others are read") {
  fake::Fleet f;
  f.devices.device("host1").unreachable = "Connection refused";
  f.devices.device("leaf1").hang_when = {"show lldp table"};
  f.devices.device("host2").slow = std::chrono::milliseconds(2500);
  CollectOptions one_at_a_time;
  one_at_a_time.jobs = 1;
  const FabricObserved got = collect_devices(f.fabric, {}, one_at_a_time, f.ctx);
  REQUIRE(got.devices.size() == 2);
  CHECK(got.devices.at("host2").collected_at == "2026-12-03T06:00:02.500Z");  // after its slow command
  CHECK(got.failure("host1")->reason == "host1 (192.0.2.1:22): cannot connect: Connection refused");
  CHECK(got.failure("leaf1")->reason == "leaf1: the command did not finish within 60000 ms; stopped");
  CHECK(got.failure("leaf1")->stage == FailureStage::collect);
  CHECK(f.seen.phases.back() == "read 4/4 devices, 2 failed");
}

TEST_CASE("ops collect: one neighbour's bad name makes its port unreadable; every device is read and written") {
  // Anyone who can rename a host chooses what the switches' LLDP says: a name over 255 bytes, one with a
  // TAB and one with a control character must not stop the audit of the fabric.
  fake::Fleet f;
  const DeviceDesired& leaf = f.desired("leaf1");
  DeviceObserved o = observed_from_desired(leaf);
  REQUIRE(o.ports.size() == 2);
  o.ports[0].lldp = LldpNeighbor{std::string(300, 'h'), "ens1f0np0"};
  o.ports[1].lldp = LldpNeighbor{"host2\x01", "ens1f0np0"};
  f.devices.device("leaf1").state = fake::raw_outputs(leaf, o);
  FabricObserved got = collect_devices(f.fabric, {}, {}, f.ctx);
  CHECK(got.failures.empty());
  REQUIRE(got.devices.size() == 4);
  const DeviceObserved& read = got.devices.at("leaf1");
  CHECK(read.unreadable_ports.size() == 2);
  CHECK(read.port_unreadable(o.ports[0].name)->find("RemoteDevice: \"hhh") != std::string::npos);
  const auto dir = std::filesystem::temp_directory_path() / ("fabricctl-collect-lldp-" + std::to_string(::getpid()));
  const auto written = write_snapshot_dir(got, dir);
  CHECK_MESSAGE(written, written.error());
  CHECK(std::filesystem::exists(dir / "leaf1.json"));
  std::filesystem::remove_all(dir);

  // What a reader lets through that no snapshot takes fails that device alone, at collect.
  DeviceObserved bad = observed_from_desired(leaf);
  bad.ports[1].name = bad.ports[0].name;
  CHECK(snapshot_problem("leaf1", bad) == "device \"leaf1\": port \"" + bad.ports[0].name + "\" appears twice");
  CHECK(snapshot_problem("leaf1", observed_from_desired(leaf)).empty());
}

TEST_CASE("ops collect: a command that fails names itself and the device's first line") {
  fake::Fleet f;
  f.devices.device("leaf1").fail_when["show interfaces status"] = Reply{1, "", "Error: no such command\nmore\n"};
  const FabricObserved got = collect_devices(f.fabric, {"leaf1"}, {}, f.ctx);
  CHECK(got.devices.empty());
  CHECK(got.failure("leaf1")->reason == "`show interfaces status` exited with status 1: Error: no such command");
}

TEST_CASE("ops collect: where the shell runs lists, one exec reads the device; a failed required one runs alone") {
  fake::Fleet f;
  REQUIRE(collect_devices(f.fabric, {"leaf1"}, {}, f.ctx).failures.empty());
  auto log = f.devices.log();
  REQUIRE(log.size() == 1);  // SONiC: required and counter commands in one exec
  CHECK(log[0].find("show runningconfiguration all ; echo fabricctl-end-") != std::string::npos);
  CHECK(log[0].find("show pfc counters ; echo fabricctl-end-") != std::string::npos);

  // A required command that fails in the batch runs again alone: its error is its own, not the
  // batch's standard error of every command.
  f.devices.device("leaf1").fail_when["show lldp table"] = Reply{2, "", "Error: lldp is not running\n"};
  const FabricObserved got = collect_devices(f.fabric, {"leaf1"}, {}, f.ctx);
  CHECK(got.failure("leaf1")->reason == "`show lldp table` exited with status 2: Error: lldp is not running");
  log = f.devices.log();
  CHECK(log.back() == "leaf1: show lldp table");
}

TEST_CASE("ops collect: an exec whose marks are missing reads the required commands alone, no counters") {
  fake::Fleet f;
  // The device answers the list with no mark at all (untrusted output): the split reaches no command.
  f.devices.device("leaf1").list_reply = Reply{0, "garbage\n", ""};
  const FabricObserved got = collect_devices(f.fabric, {"leaf1"}, {}, f.ctx);
  REQUIRE(got.failures.empty());
  CHECK(got.devices.at("leaf1").ports.front().counters.empty());  // absent, never zeros
  const auto log = f.devices.log();
  CHECK(std::find(log.begin(), log.end(), "leaf1: show runningconfiguration all") != log.end());
  CHECK(std::none_of(log.begin(), log.end(), [](const std::string& l) { return l == "leaf1: show pfc counters"; }));
}

TEST_CASE("ops collect: a counter command the device lacks leaves its counters out, live and from raw") {
  fake::Fleet f;
  // The fake's SONiC switch prints the PFC counters and none of the other counter commands (as a
  // release without them); one that fails outright is as absent.
  f.devices.device("leaf1").fail_when["show pfcwd stats"] = Reply{1, "", "Error: PFC watchdog not supported\n"};
  RawByDevice raws;
  const FabricObserved got = collect_devices(f.fabric, {"leaf1"}, {}, f.ctx, &raws);
  REQUIRE(got.failures.empty());
  const auto& raw = raws.at("leaf1");
  CHECK(raw.count("pfc-counters.txt") == 1);
  CHECK(raw.count("pfcwd-stats.txt") == 0);
  CHECK(raw.count("queue-counters.json") == 0);
  // SONiC's shell runs lists: its counter commands went in one exec, each split back with its status.
  const auto log = f.devices.log();
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& l) {
          return l.find("show pfc counters ; echo fabricctl-end-") != std::string::npos &&
                 l.find("show pfcwd stats -e ; echo fabricctl-end-") != std::string::npos;
        }) == 1);
  CHECK(std::none_of(log.begin(), log.end(), [](const std::string& l) { return l == "leaf1: show pfc counters"; }));
  const PortObserved& port = got.devices.at("leaf1").ports.front();
  CHECK(port.counters.count("pfc_rx_pause_3") == 1);
  CHECK(port.counters.count("watchdog_storms_3") == 0);  // absent, never 0

  // The same raw directory read back: the missing optional files are no error.
  const auto dir = std::filesystem::temp_directory_path() / ("fabricctl-optional-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "leaf1");
  for (const auto& [file, text] : raw) std::ofstream(dir / "leaf1" / file) << text;
  CollectOptions from_raw;
  from_raw.from_raw = dir;
  const FabricObserved again = collect_devices(f.fabric, {"leaf1"}, from_raw, f.ctx);
  CHECK(again.failures.empty());
  CHECK(again.devices.at("leaf1").ports.front().counters == port.counters);
  // A required file missing is still the device's failure.
  std::filesystem::remove(dir / "leaf1" / "lldp-table.txt");
  CHECK(collect_devices(f.fabric, {"leaf1"}, from_raw, f.ctx).failure("leaf1") != nullptr);
  std::filesystem::remove_all(dir);
}

TEST_CASE("ops collect: without counters (verify, plan, apply), no counter command runs") {
  fake::Fleet f;
  CollectOptions state_only;
  state_only.counters = false;
  const FabricObserved got = collect_devices(f.fabric, {"leaf1"}, state_only, f.ctx);
  REQUIRE(got.failures.empty());
  CHECK(got.devices.at("leaf1").ports.front().counters.empty());
  const auto log = f.devices.log();
  CHECK(std::any_of(log.begin(), log.end(),
                    [](const std::string& l) { return l.rfind("leaf1: show runningconfiguration all", 0) == 0; }));
  for (const std::string& line : log) CHECK(line.find("counters") == std::string::npos);
  CHECK(std::none_of(log.begin(), log.end(),
                     [](const std::string& l) { return l.find("portstat") != std::string::npos; }));
}
