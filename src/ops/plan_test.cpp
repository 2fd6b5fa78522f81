#include "ops/plan.h"

#include <doctest/doctest.h>

#include "ops/apply.h"
#include "ops/fake_fleet_test_support.h"
#include "ops/plan_file.h"
#include "temp_dir.h"
#include "verify/engine.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

using fake::every_device;

/// `host`'s NIC at MTU 1500, in the fake fleet.
void mtu_1500_on(fake::FakeConnector& fleet, const Fabric& fabric, const std::string& host) {
  fake::mtu_on(fleet, fabric, host, 1500);
}

/// The small fabric on the fake fleet with both hosts' NICs at MTU 1500: two devices to change.
struct HostsAt1500 {
  Fabric fabric = fake::small_fabric();
  fake::FakeClock clock;
  fake::FakeConnector fleet{fabric, clock};
  Observer quiet;
  Context ctx{fleet, quiet, clock};

  HostsAt1500() {
    mtu_1500_on(fleet, fabric, "host1");
    mtu_1500_on(fleet, fabric, "host2");
  }
};

}  // namespace

TEST_CASE("ops plan: a fleet that holds its intent has nothing to change") {
  const Fabric fabric = fake::small_fabric();
  fake::FakeClock clock;
  fake::FakeConnector fleet(fabric, clock);
  Observer quiet;
  Context ctx{fleet, quiet, clock};
  const PlannedFabric p = read_and_plan(fabric, every_device(fabric), {}, ctx);
  CHECK(p.plan.changed() == 0);
  CHECK(p.plan.failed() == 0);
  std::string error;
  const VerifyReport v =
      run_verify(fabric.desired, p.observed,
                 {.checks = select_checks({}, error), .scope = p.scope, .needed = p.scope, .passes = Passes::counted});
  for (const Result& r : v.results)
    CHECK_MESSAGE(r.status != Status::fail, r.check << " " << r.object() << ": " << r.message);
}

TEST_CASE("ops plan: only the drifted device changes, with its findings; an unreachable one fails") {
  const Fabric fabric = fake::small_fabric();
  fake::FakeClock clock;
  fake::FakeConnector fleet(fabric, clock);
  mtu_1500_on(fleet, fabric, "host2");
  fleet.device("host1").unreachable = "Connection refused";
  Observer quiet;
  Context ctx{fleet, quiet, clock};
  const PlannedFabric p = read_and_plan(fabric, {"host1", "host2"}, {}, ctx);
  CHECK(p.plan.created_at == "2026-12-03T06:00:00Z");
  REQUIRE(p.plan.devices.size() == 2);
  CHECK(p.plan.devices[0].failed());
  CHECK(p.plan.devices[0].error == "host1 (192.0.2.1:22): cannot connect: Connection refused");
  const DevicePlan& h2 = p.plan.devices[1];
  CHECK(h2.changes());
  REQUIRE_FALSE(h2.why.empty());
  CHECK(h2.why[0].check == "port.mtu.drift");
  CHECK(p.observed.devices.count("leaf1") == 1);  // the far end, read for the findings
  CHECK(change_file(h2.platform) == "changes.txt");
}

TEST_CASE("ops plan: a saved plan gone stale is refused device by device") {
  HostsAt1500 f;
  const Fabric& fabric = f.fabric;
  fake::FakeConnector& fleet = f.fleet;
  Context& ctx = f.ctx;
  fabricctl::test::TempDir dir;
  const PlannedFabric then = read_and_plan(fabric, every_device(fabric), {}, ctx);
  REQUIRE(save_plan(then.plan, dir.path / "plan"));
  auto saved = load_plan(dir.path / "plan");
  REQUIRE_MESSAGE(saved, saved.error());
  // Unchanged since: the saved changes apply as they are.
  SavedPlanCheck same = check_saved_plan(*saved, read_and_plan(fabric, every_device(fabric), {}, ctx).plan);
  CHECK(same.stale.empty());
  CHECK(same.plan.changed() == 2);
  // Someone fixed host2's MTU by hand (and left something else): its base is no longer the plan's.
  DeviceObserved o = observed_from_desired(fabric.desired.devices[1]);
  o.ports[0].mtu = 4200;
  fleet.device("host2").state = fake::raw_outputs(fabric.desired.devices[1], o);
  SavedPlanCheck now = check_saved_plan(*saved, read_and_plan(fabric, {"host1", "host2"}, {}, ctx).plan);
  REQUIRE(now.stale.size() == 3);
  CHECK(now.stale[0].find("host2: its configuration changed since the plan was made (sha256 ") == 0);
  CHECK(now.stale[1] == "leaf1: not in this run's scope or inventory");
  CHECK(now.stale[2] == "leaf2: not in this run's scope or inventory");
}

TEST_CASE("ops reconcile: collect, verify, plan and apply until nothing changes") {
  HostsAt1500 f;
  const Fabric& fabric = f.fabric;
  Context& ctx = f.ctx;
  const std::set<std::string> all = every_device(fabric);
  std::string error;
  const std::vector<const Check*> checks = select_checks({}, error);
  int applied_rounds = 0;
  for (int round = 0;; ++round) {
    REQUIRE(round < 3);
    const PlannedFabric p = read_and_plan(fabric, all, {}, ctx);
    const VerifyReport v = run_verify(
        fabric.desired, p.observed,
        {.checks = checks, .scope = all, .needed = all, .min_severity = Severity::error, .passes = Passes::counted});
    if (p.plan.changed() == 0) {
      for (const Result& r : v.results) CHECK_MESSAGE(r.status != Status::fail, r.check << " " << r.object());
      break;
    }
    ApplyOptions o;
    o.transaction = "fabricctl-20261203T060000-00000" + std::to_string(round);
    const ApplyResult r = apply_plan(fabric, p.plan, p.observed, o, ctx);
    CHECK(all_applied(r));
    ++applied_rounds;
  }
  CHECK(applied_rounds == 1);
}

TEST_CASE("ops plan: live, each change is judged by its device's own dry run; a refusal fails the device") {
  fake::Fleet f;
  const DeviceDesired& leaf = f.desired("leaf1");
  nlohmann::ordered_json db = fake::rendered_config_db(leaf);
  db["PORT"]["Ethernet0"]["mtu"] = "1500";  // a patch GCU judges, nothing created by config load first
  f.devices.device("leaf1").state = fake::raw_outputs(leaf, observed_from_desired(leaf), db);

  PlannedFabric p = read_and_plan(f.fabric, {"leaf1"}, {}, f.ctx);
  const DevicePlan* d = p.plan.find("leaf1");
  REQUIRE(d != nullptr);
  REQUIRE(d->changes());
  CHECK(d->checked == "the config updater's dry run of the patch: accepted");
  CHECK(d->change.notes ==
        std::vector<std::string>{"image: SONiC.20230531.22 (202305), HwSKU Accton-AS9726-32D, ASIC broadcom",
                                 "GCU refuses WRED_PROFILE entries on 202305 (only green thresholds may be replaced)",
                                 "config apply-patch: PORT"});
  const std::vector<std::string> log = f.devices.log();
  CHECK(std::count(log.begin(), log.end(), "leaf1: sudo config apply-patch -d /dev/stdin") == 1);
  CHECK(std::none_of(log.begin(), log.end(),
                     [](const std::string& l) { return l == "leaf1: sudo config apply-patch /dev/stdin"; }));

  // The device refuses: its plan fails, with the updater's reason, and nothing is left to apply.
  f.devices.device("leaf1").fail_when["apply-patch -d"] =
      Reply{2, "** DRY RUN EXECUTION **\n", "Error: Given patch will produce invalid config\n"};
  p = read_and_plan(f.fabric, {"leaf1"}, {}, f.ctx);
  d = p.plan.find("leaf1");
  REQUIRE(d != nullptr);
  CHECK(d->failed());
  CHECK(d->error ==
        "refuses the change: the config updater's dry run of the patch: exited with status 2: Error: Given patch will "
        "produce invalid config");

  // From what a collect saved, nothing is asked of the device.
  f.devices.device("leaf1").fail_when.clear();
  test::TempDir raw;
  for (const auto& [file, text] : f.devices.device("leaf1").state) test::spit(raw.path / "leaf1" / file, text);
  const size_t asked = f.devices.log().size();
  CollectOptions saved;
  saved.from_raw = raw.path;
  p = read_and_plan(f.fabric, {"leaf1"}, saved, f.ctx);
  CHECK(p.plan.find("leaf1")->changes());
  CHECK(p.plan.find("leaf1")->checked.empty());
  CHECK(f.devices.log().size() == asked);
}

TEST_CASE("ops plan: from raw outputs, one verdict with collect; a field nested 200,000 deep crashes nothing") {
  fake::Fleet f;
  RawByDevice raws;
  collect_devices(f.fabric, {}, {}, f.ctx, &raws);
  test::TempDir dir;
  const auto save = [&](const RawByDevice& all) {
    for (const auto& [device, outputs] : all) {
      std::filesystem::create_directories(dir.path / device);
      for (const auto& [file, text] : outputs) test::spit(dir.path / device / file, text);
    }
  };
  save(raws);
  CollectOptions from_raw;
  from_raw.from_raw = dir.path;
  REQUIRE(read_and_plan(f.fabric, every_device(f.fabric), from_raw, f.ctx).plan.failed() == 0);

  // An output collect cannot read that plan's change does not look at (leaf1's LLDP table): collect calls
  // leaf1 unreadable, and so does plan, with collect's reason, never "nothing to change".
  test::spit(dir.path / "leaf1" / "lldp-table.txt", "no table here\n");
  const FabricObserved seen = collect_devices(f.fabric, {"leaf1"}, from_raw, f.ctx);
  REQUIRE(seen.failure("leaf1") != nullptr);
  PlannedFabric p = read_and_plan(f.fabric, every_device(f.fabric), from_raw, f.ctx);
  const auto leaf1 = std::find_if(p.plan.devices.begin(), p.plan.devices.end(),
                                  [](const DevicePlan& d) { return d.device == "leaf1"; });
  REQUIRE(leaf1 != p.plan.devices.end());
  CHECK(leaf1->error == seen.failure("leaf1")->reason);
  save(raws);

  // CONFIG_DB with one field nested 200,000 deep (1.2 MB): read as a live read keeps it, by both.
  std::string db = raws.at("leaf1").at("runningconfiguration.json");
  const size_t at = db.find("\"PORT_QOS_MAP\": {");
  REQUIRE(at != std::string::npos);
  db.insert(at + 17, "\"Ethernet999\": {\"deep\": " + std::string(200000, '[') + std::string(200000, ']') + "}, ");
  test::spit(dir.path / "leaf1" / "runningconfiguration.json", db);
  const bool collect_read = collect_devices(f.fabric, {"leaf1"}, from_raw, f.ctx).failure("leaf1") == nullptr;
  p = read_and_plan(f.fabric, every_device(f.fabric), from_raw, f.ctx);
  const bool plan_read = std::none_of(p.plan.devices.begin(), p.plan.devices.end(),
                                      [](const DevicePlan& d) { return d.device == "leaf1" && !d.error.empty(); });
  CHECK(collect_read == plan_read);
}

TEST_CASE("ops plan: a device that holds its intent with a transaction in flight is named, not 'nothing to change'") {
  // A killed apply left leaf1 staged: it holds the change (so nothing differs) and its revert timer is
  // armed, to roll it back in a while. Plan says so instead of "nothing to change".
  fake::Fleet f;
  f.devices.device("leaf1").fail_when.emplace(
      "systemctl list-units --type=timer",
      Reply{0, "fabricctl-20261203T055500-abc123.timer loaded active waiting /bin/sh -c config rollback\n", ""});
  const PlannedFabric p = f.plan();
  CHECK(p.plan.changed() == 0);
  REQUIRE(p.plan.failed() == 1);
  const DevicePlan* leaf1 = p.plan.find("leaf1");
  REQUIRE(leaf1 != nullptr);
  CHECK(leaf1->error ==
        "has a transaction in flight: a fabricctl revert timer is armed on the switch "
        "(fabricctl-20261203T055500-abc123.timer): that transaction is staged and not confirmed; the switch rolls "
        "its change back when the timer fires (confirm or undo it with `fabricctl apply --resume|--undo RECORD`, or "
        "wait)");
  // Without one, the same fleet has nothing to change and nothing failed.
  fake::Fleet quiet;
  CHECK(quiet.plan().plan.failed() == 0);
}

TEST_CASE("ops plan: an NVUE trial apply awaiting its confirmation is named at plan") {
  fake::Fleet f(fake::small_fabric_nvue_leaf2());
  CHECK(f.plan().plan.failed() == 0);
  f.devices.device("leaf2").fail_when.emplace("nv config revision -o json",
                                              Reply{0, R"({"41": {"state": "applied_and_saved", "message": ""},
                   "42": {"state": "confirm", "message": "fabricctl-20261206T205500-abc123"}})",
                                                    ""});
  const PlannedFabric p = f.plan();
  const DevicePlan* leaf2 = p.plan.find("leaf2");
  REQUIRE(leaf2 != nullptr);
  CHECK(leaf2->error ==
        "has a transaction in flight: a configuration apply is in flight on the switch: revision 42 (state "
        "confirm, message \"fabricctl-20261206T205500-abc123\"); NVUE rolls a trial back when its confirm time ends "
        "unless it is confirmed (confirm or undo a fabricctl one with `fabricctl apply --resume|--undo RECORD`, or "
        "wait)");
}
