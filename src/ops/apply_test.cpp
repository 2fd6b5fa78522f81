// apply on the fake fleet: each branch of the transaction (canary, --max-failures, rollback after a
// failed stage or verify, a hang, an unreachable device, an interrupt between stage and confirm, both
// ends of a link in one step) and the audit events it leaves.
#include "ops/apply.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <memory>

#include "ops/fake_fleet_test_support.h"
#include "platform/nvue/test_support.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::ops;
using Events = std::vector<std::string>;

namespace {

using fake::Fleet;

ApplyOptions options(int jobs, int canary, int max_failures) {
  ApplyOptions o;
  o.jobs = jobs;
  o.canary = canary;
  o.max_failures = max_failures;
  return o;
}

const DeviceOutcome& outcome(const ApplyResult& r, const std::string& device) {
  for (const DeviceOutcome& d : r.devices)
    if (d.device == device) return d;
  FAIL("no outcome for " << device);
  return r.devices.front();
}

}  // namespace

TEST_CASE("ops apply: a drifted leaf is staged, verified, confirmed") {
  Fleet f;
  f.pfc_off_on_leaf();
  const ApplyResult r = f.apply();
  CHECK(outcome(r, "leaf1").outcome == Outcome::applied);
  CHECK(outcome(r, "leaf1").reason == "verified and confirmed");
  CHECK(outcome(r, "host1").outcome == Outcome::unchanged);
  CHECK(all_applied(r));
  CHECK(f.seen.events == Events{"step", "stage leaf1", "staged leaf1", "confirmed leaf1"});
  CHECK(f.seen.records[3]["fields"]["after_sha256"] != outcome(r, "leaf1").before_sha256);
  // The plan reads the leaf and checks its change (two connections); then one for the whole apply:
  // check, stage, verify's read and confirm on one session (ops/session_pool.h), not four.
  CHECK(f.devices.opens("leaf1") == 3);
}

TEST_CASE("ops apply: a failed canary starts nothing else") {
  Fleet f;
  f.pfc_off_on_leaf();
  f.mtu_1500_on("host1");
  f.mtu_1500_on("host2");
  f.devices.device("host1").fail_when["host apply"] = Reply{3, "", "fabricctl: error: ens1f0np0: MTU refused\n"};
  const ApplyResult r = f.apply(options(32, 1, 0));
  CHECK(outcome(r, "host1").outcome == Outcome::failed);
  CHECK(outcome(r, "host1").reason.find("stage: ") == 0);
  CHECK(outcome(r, "host1").reason.find("ens1f0np0: MTU refused") != std::string::npos);
  CHECK(outcome(r, "host1").rolled_back);
  CHECK(outcome(r, "host2").outcome == Outcome::skipped);
  CHECK(outcome(r, "host2").reason == "not started: the canary step failed");
  CHECK(outcome(r, "leaf1").reason == "not started: the canary step failed");
  CHECK(f.seen.events == Events{"step", "stage host1", "stage_failed host1", "rolled_back host1"});
}

TEST_CASE("ops apply: --max-failures stops new devices once reached") {
  Fleet f;
  f.three_changes();
  f.devices.device("host1").unreachable = "No route to host";
  // host1 is unreachable when planned (one failure), so with K = 1 nothing starts.
  const ApplyResult r = f.apply(options(1, 0, 1));
  CHECK(outcome(r, "host1").outcome == Outcome::unreachable);
  CHECK(outcome(r, "host1").reason == "host1 (192.0.2.1:22): cannot connect: No route to host");
  CHECK(outcome(r, "host2").reason == "not started: --max-failures 1 reached");
  CHECK(outcome(r, "leaf1").reason == "not started: --max-failures 1 reached");
  CHECK(f.seen.events == Events{"step"});
}

TEST_CASE("ops apply: --max-failures counts failures of this apply as they happen") {
  Fleet f;
  f.three_changes();
  f.devices.device("host1").fail_when["host apply"] = Reply{3, "", "fabricctl: error: refused\n"};
  const ApplyResult r = f.apply(options(1, 0, 1));  // one device at a time, in plan order
  CHECK(outcome(r, "host1").outcome == Outcome::failed);
  CHECK(outcome(r, "host2").outcome == Outcome::skipped);
  CHECK(outcome(r, "host2").reason == "not started: --max-failures 1 reached");
  CHECK(outcome(r, "leaf1").reason == "not started: --max-failures 1 reached");
  CHECK(f.seen.events == Events{"step", "stage host1", "stage_failed host1", "rolled_back host1"});
}

TEST_CASE("ops apply: a failed verify rolls the device back, and the record says why") {
  Fleet f;
  f.pfc_off_on_leaf();
  // The stage "succeeds" but the switch still runs without PFC on Ethernet8.
  f.devices.device("leaf1").after_stage = f.devices.device("leaf1").state;
  const ApplyResult r = f.apply();
  const DeviceOutcome& leaf = outcome(r, "leaf1");
  CHECK(leaf.outcome == Outcome::failed);
  CHECK(leaf.reason.find("verify: port.pfc.drift leaf1:Ethernet8") == 0);
  CHECK(leaf.rolled_back);
  CHECK(leaf.after_sha256 == leaf.before_sha256);  // read again after the rollback
  CHECK(f.seen.events == Events{"step", "stage leaf1", "staged leaf1", "verify_failed leaf1", "rolled_back leaf1"});
}

TEST_CASE("ops apply: a stage that hangs is a failure with the timeout, rolled back") {
  Fleet f;
  f.pfc_off_on_leaf();
  f.devices.device("leaf1").hang_when = {"config apply-patch /dev/stdin"};  // stage's, not plan's dry run
  const ApplyResult r = f.apply();
  const DeviceOutcome& leaf = outcome(r, "leaf1");
  CHECK(leaf.outcome == Outcome::failed);
  CHECK(leaf.reason.find("leaf1: the command did not finish within 60000 ms; stopped") != std::string::npos);
  CHECK(leaf.rolled_back);
  CHECK(f.seen.events == Events{"step", "stage leaf1", "stage_failed leaf1", "rolled_back leaf1"});
}

TEST_CASE("ops apply: a device unreachable at apply time fails at its check, and nothing is staged") {
  Fleet f;
  f.mtu_1500_on("host1");
  const PlannedFabric p = f.plan();
  f.devices.device("host1").unreachable = "Connection timed out";
  const ApplyResult r = apply_plan(f.fabric, p.plan, p.observed, {}, f.ctx);
  const DeviceOutcome& host = outcome(r, "host1");
  CHECK(host.outcome == Outcome::failed);
  CHECK(host.reason.starts_with("check: host1 ("));
  CHECK(host.reason.ends_with("): cannot connect: Connection timed out"));
  CHECK_FALSE(host.rolled_back);
  CHECK(host.rollback_error.empty());
  CHECK(f.seen.events == Events{"step", "check_failed host1"});
}

TEST_CASE("ops apply: a switch whose check refuses right before stage is left as it is") {
  Fleet f;
  f.pfc_off_on_leaf();
  const PlannedFabric p = f.plan();
  REQUIRE(p.plan.find("leaf1")->checked == "the config updater's dry run of the patch: accepted");
  // Between plan and apply the switch's updater starts refusing: nothing is staged, nothing rolled back.
  f.devices.device("leaf1").fail_when["apply-patch -d"] = Reply{2, "", "Error: Given patch is not valid\n"};
  const ApplyResult r = apply_plan(f.fabric, p.plan, p.observed, {}, f.ctx);
  const DeviceOutcome& leaf = outcome(r, "leaf1");
  CHECK(leaf.outcome == Outcome::failed);
  CHECK(leaf.reason ==
        "check: the config updater's dry run of the patch: exited with status 2: Error: Given patch is not valid");
  CHECK_FALSE(leaf.rolled_back);
  const std::vector<std::string> log = f.devices.log();
  CHECK(std::none_of(log.begin(), log.end(), [](const std::string& l) { return l.find("checkpoint") != l.npos; }));
  CHECK(f.seen.events == Events{"step", "check_failed leaf1"});
}

TEST_CASE("ops apply: a switch another apply stages at the same moment is released untouched, never rolled back") {
  Fleet f;
  f.pfc_off_on_leaf();
  // Another apply's revert timer appears between this apply's check and its lock (stage's second step).
  const std::string theirs = "fabricctl-20261203T055900-ffffff.timer";
  f.devices.device("leaf1").race_timers.insert(theirs);
  const ApplyResult r = f.apply();
  const DeviceOutcome& leaf = outcome(r, "leaf1");
  CHECK(leaf.outcome == Outcome::failed);
  CHECK(
      leaf.reason.starts_with("stage: another fabricctl transaction is in flight on the switch (revert timers "
                              "armed: fabricctl-20261203T055900-ffffff.timer, fabricctl-"));
  CHECK(leaf.rolled_back);
  // Only its own timer stopped and its files removed: nothing loaded, rolled back or changed, the other
  // apply's timer still armed.
  const std::vector<std::string> log = f.devices.log();
  const auto leaf1 = [&](std::string_view what) {
    return std::count_if(log.begin(), log.end(),
                         [&](const std::string& l) { return l.starts_with("leaf1: sudo " + std::string(what)); });
  };
  CHECK(leaf1("config load") == 0);
  CHECK(leaf1("config rollback") == 0);
  CHECK(leaf1("config apply-patch /dev/stdin") == 0);
  CHECK(leaf1("tee") == 0);
  CHECK(leaf1("systemctl stop") == 1);
  CHECK(f.devices.device("leaf1").timers == std::set<std::string>{theirs});
  CHECK(f.seen.events == Events{"step", "stage leaf1", "stage_failed leaf1", "rolled_back leaf1"});
}

TEST_CASE("ops apply: a switch that refuses the change when planned failed, and was not unreachable") {
  Fleet f;
  f.pfc_off_on_leaf();
  f.devices.device("leaf1").fail_when["apply-patch -d"] = Reply{2, "", "Error: Given patch is not valid\n"};
  const ApplyResult r = f.apply();
  const DeviceOutcome& leaf = outcome(r, "leaf1");
  CHECK(leaf.outcome == Outcome::failed);
  CHECK(leaf.reason ==
        "refuses the change: the config updater's dry run of the patch: exited with status 2: Error: Given patch "
        "is not valid");
  CHECK_FALSE(leaf.rolled_back);
  const std::vector<std::string> log = f.devices.log();
  CHECK(std::none_of(log.begin(), log.end(), [](const std::string& l) { return l.find("checkpoint") != l.npos; }));
}

TEST_CASE("ops apply: waves after the canary; a wave starts only when the one before was applied") {
  Fleet f;
  f.three_changes();
  ApplyOptions o = options(1, 0, 0);  // one device at a time: the events in a fixed order
  o.batch = parse_batch("2").value();
  // host1 first, then its leaf (a link between two changing devices), then host2.
  ApplyResult r = f.apply(o);
  CHECK(all_applied(r));
  CHECK(f.seen.events == Events{"step", "stage host1", "staged host1", "stage leaf1", "staged leaf1", "confirmed host1",
                                "confirmed leaf1", "step", "stage host2", "staged host2", "confirmed host2"});
  CHECK(f.seen.records[0]["fields"]["step"] == "wave 1/2");

  // A failure in the first wave: the second does not start.
  Fleet g;
  g.three_changes();
  g.devices.device("leaf1").fail_when["apply-patch /dev/stdin"] = Reply{2, "", "Error: refused\n"};
  r = g.apply(o);
  CHECK(outcome(r, "leaf1").outcome == Outcome::failed);
  CHECK(outcome(r, "host1").outcome == Outcome::applied);
  CHECK(outcome(r, "host2").outcome == Outcome::skipped);
  CHECK(outcome(r, "host2").reason == "not started: the wave 1/2 step failed");
}

TEST_CASE("ops apply: the health gate reads a step's counters twice; a rising fault stops the steps left") {
  Fleet f;
  f.three_changes();
  const DeviceDesired& host = f.desired("host1");
  auto host1_drops = [&](uint64_t drops) {  // host1 once staged, its first NIC's lossless drops at `drops`
    DeviceObserved o = observed_from_desired(host);
    for (PortObserved& p : o.ports) p.counters = {{"rx_discards_3", p.name == "ens1f0np0" ? drops : 0}};
    f.devices.device("host1").after_stage = fake::raw_outputs(host, o);
  };
  ApplyOptions o = options(1, 0, 0);
  o.batch = parse_batch("1").value();
  std::vector<std::chrono::milliseconds> waits;
  uint64_t rise = 0;
  o.health_gate.interval = std::chrono::seconds(30);
  o.health_gate.wait = [&](std::chrono::milliseconds d) {
    waits.push_back(d);
    f.clock.advance(d);
    host1_drops(rise);  // host1 is staged by now: what it holds is what it reports
    f.devices.device("host1").state = f.devices.device("host1").after_stage;
    return true;
  };
  SUBCASE("the counters stay well: every step, a gate between each two") {
    host1_drops(0);
    const ApplyResult r = f.apply(o);
    CHECK(all_applied(r));
    CHECK(waits == std::vector<std::chrono::milliseconds>(2, std::chrono::seconds(30)));
    CHECK(std::count(f.seen.events.begin(), f.seen.events.end(), "health_gate") == 2);
  }
  SUBCASE("lossless drops on host1 after its step: the next steps do not start") {
    host1_drops(0);
    rise = 40;
    const ApplyResult r = f.apply(o);
    CHECK(outcome(r, "host1").outcome == Outcome::applied);  // its change stays: it verified
    CHECK(outcome(r, "leaf1").outcome == Outcome::skipped);
    CHECK(outcome(r, "leaf1").reason ==
          "not started: the health gate after the wave 1/3 step found health.lossless.drops "
          "host1:ens1f0np0~leaf1:Ethernet0: "
          "priority 3: +40 in 30 s (1.33/s)");
    CHECK(outcome(r, "host2").outcome == Outcome::skipped);
    CHECK(waits.size() == 1);
  }
}

TEST_CASE("ops apply: --pause asks between steps; a no stops the steps left") {
  Fleet f;
  f.three_changes();
  ApplyOptions o = options(4, 1, 0);
  o.batch = parse_batch("1").value();
  std::vector<std::string> asked;
  o.between_waves = [&](const std::string& done, const std::string& next) {
    asked.push_back(done + " -> " + next);
    return asked.size() < 2;
  };
  const ApplyResult r = f.apply(o);
  CHECK(asked == std::vector<std::string>{"canary -> wave 1/2", "wave 1/2 -> wave 2/2"});
  CHECK(outcome(r, "host1").outcome == Outcome::applied);
  CHECK(outcome(r, "leaf1").outcome == Outcome::applied);
  CHECK(outcome(r, "host2").outcome == Outcome::skipped);
  CHECK(outcome(r, "host2").reason == "not started: stopped after the wave 1/2 step");
}

TEST_CASE("ops apply: an interrupt between stage and confirm rolls back what is staged") {
  Fleet f;
  f.pfc_off_on_leaf();
  f.seen.on_event = [&](std::string_view e) {
    if (e == "staged") f.signal = SIGINT;
  };
  const ApplyResult r = f.apply();
  CHECK(r.interrupted_by == SIGINT);
  CHECK(outcome(r, "leaf1").outcome == Outcome::skipped);
  CHECK(outcome(r, "leaf1").reason == "interrupted before it was confirmed: rolled back");
  CHECK(outcome(r, "leaf1").rolled_back);
  CHECK(f.seen.events == Events{"step", "stage leaf1", "staged leaf1", "rolled_back leaf1"});
  for (const std::string& line : f.devices.log()) CHECK(line.find("config save") == std::string::npos);
}

TEST_CASE("ops apply: both ends of a link change in one step and are judged together") {
  Fleet f;
  f.mtu_1500_on("host1");
  f.pfc_off_on_leaf();
  const ApplyResult r = f.apply();
  CHECK(outcome(r, "host1").outcome == Outcome::applied);
  CHECK(outcome(r, "leaf1").outcome == Outcome::applied);
  // Both staged before either is confirmed.
  const Events& e = f.seen.events;
  const auto at = [&](const std::string& s) { return std::find(e.begin(), e.end(), s) - e.begin(); };
  CHECK(std::max(at("staged host1"), at("staged leaf1")) < std::min(at("confirmed host1"), at("confirmed leaf1")));
}

TEST_CASE("ops apply: a fault that was there before and that no setting fixes does not roll a fix back") {
  Fleet f;
  f.pfc_off_on_leaf();
  // host1's two cables swapped: leaf1:Ethernet0 and leaf2:Ethernet0 each reach the other NIC. The
  // cause (cabling.swapped on host1) is outside leaf1's step; its consequence on leaf1's link is not new.
  DeviceObserved h = observed_from_desired(f.desired("host1"));
  std::swap(h.ports[0].lldp, h.ports[1].lldp);
  f.devices.device("host1").state = fake::raw_outputs(f.desired("host1"), h);
  for (const auto& [leaf, nic] : {std::pair{"leaf1", "ens2f0np0"}, std::pair{"leaf2", "ens1f0np0"}}) {
    const DeviceDesired& d = f.desired(leaf);
    DeviceObserved o = observed_from_desired(d);
    o.ports[0].lldp->port_id = nic;
    fake::FakeDevice& dev = f.devices.device(leaf);
    const RawOutputs cabled = fake::raw_outputs(d, o);
    dev.after_stage = cabled;  // what it holds once fixed: its intent, cables as they are
    dev.state["lldp-table.txt"] = cabled.at("lldp-table.txt");
  }
  for (const int canary : {0, 1}) {
    const ApplyResult r = f.apply(options(32, canary, 0));
    CHECK_MESSAGE(outcome(r, "leaf1").outcome == Outcome::applied, outcome(r, "leaf1").reason);
    f.pfc_off_on_leaf();  // again, for the run with a canary
    f.devices.device("leaf1").state["lldp-table.txt"] = f.devices.device("leaf1").after_stage.at("lldp-table.txt");
  }
}

TEST_CASE("ops apply: a slow stage spends the others' revert windows: re-armed where it can, else named") {
  // One step, the devices one after the other (host1, host2, leaf1): leaf1's patch takes 216 s.
  const auto run = [](int confirm_timeout_s) {
    auto f = std::make_unique<Fleet>();
    f->three_changes();
    f->devices.device("leaf1").slow_when.emplace("config apply-patch /dev/stdin", std::chrono::seconds(216));
    ApplyOptions o = options(1, 0, 0);
    o.confirm_timeout_s = confirm_timeout_s;
    const ApplyResult r = f->apply(o);
    return std::pair{std::move(f), r};
  };
  // 120 s: every window ran out before verify (leaf1's own too: SONiC arms before it changes anything).
  // Each device is failed naming the slowest stage and rolled back, never verified as if it held the change.
  const auto first = run(120);
  const ApplyResult& r = first.second;
  for (const char* d : {"host1", "host2", "leaf1"}) {
    CAPTURE(d);
    CHECK(outcome(r, d).outcome == Outcome::failed);
    CHECK(outcome(r, d).reason ==
          "stage: its revert window (120 s) ran out while the step's devices staged (the slowest stage: leaf1, 216 "
          "s): the device rolled the change back by itself; give --confirm-timeout more than the slowest stage, or "
          "smaller steps (--batch)");
    CHECK(outcome(r, d).rolled_back);
  }
  const auto& seen = first.first->seen.events;
  CHECK(std::count(seen.begin(), seen.end(), "verify_failed leaf1") == 0);

  // 300 s: more than half of the hosts' windows and of leaf1's is spent. Each is re-armed before verify:
  // leaf1 (SONiC) its timer stopped and armed again, the hosts by `host extend`.
  const auto second = run(300);
  CHECK(all_applied(second.second));
  Fleet& g = *second.first;
  const auto log = g.devices.log();
  const auto patch = std::find_if(log.begin(), log.end(), [](const std::string& l) {
    return l.starts_with("leaf1: sudo config apply-patch /dev/stdin");
  });
  REQUIRE(patch != log.end());
  const auto stop =
      std::find_if(patch, log.end(), [](const std::string& l) { return l.starts_with("leaf1: sudo systemctl stop"); });
  REQUIRE(stop != log.end());
  CHECK((stop + 1)->starts_with("leaf1: sudo systemd-run --on-active=300s"));
  for (const char* d : {"leaf1", "host1", "host2"})
    CHECK(std::count(g.seen.events.begin(), g.seen.events.end(), "extended " + std::string(d)) == 1);
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& l) {
          return l.starts_with("host1: 'fabricctl' host extend --transaction ") &&
                 l.ends_with(" --confirm-timeout '300'");
        }) == 1);
}

namespace {

/// leaf2 (NVUE) without its port's PFC watchdog: a change of one line.
void watchdog_off_on_nvue_leaf2(Fleet& f) {
  std::string commands;
  for (const std::string& l : test::lines_of(nvue::testing::commands_of(f.desired("leaf2"))))
    if (l.find("interface swp1 qos pfc-watchdog") == std::string::npos) commands += l + "\n";
  f.devices.device("leaf2").state["config.json"] = nvue::testing::config_show(commands);
}

/// The position in `log` of the first line that begins with `prefix` and holds `part`; log.size() if none.
size_t first_of(const std::vector<std::string>& log, const std::string& prefix, const std::string& part = "") {
  for (size_t i = 0; i < log.size(); ++i)
    if (log[i].starts_with(prefix) && log[i].find(part) != std::string::npos) return i;
  return log.size();
}

}  // namespace

TEST_CASE("ops apply: a slow preparation spends no window: the step's devices are prepared before any arms") {
  // One step, the devices one after the other: leaf2's (NVUE) `nv set` lines take 216 s, twice a window
  // of 120 s. They only stage into its pending revision, so they run before any device of the step arms.
  Fleet f(fake::small_fabric_nvue_leaf2());
  f.three_changes();
  watchdog_off_on_nvue_leaf2(f);
  f.devices.device("leaf2").slow_when.emplace("nv set ", std::chrono::seconds(216));
  ApplyOptions o = options(1, 0, 0);
  o.confirm_timeout_s = 120;
  const ApplyResult r = f.apply(o);
  for (const char* d : {"host1", "host2", "leaf1", "leaf2"}) {
    CAPTURE(d);
    CHECK_MESSAGE(outcome(r, d).outcome == Outcome::applied, outcome(r, d).reason);
  }
  CHECK(std::count_if(f.seen.events.begin(), f.seen.events.end(),
                      [](const std::string& e) { return e.starts_with("extended "); }) == 0);
  // Every revert timer armed after leaf2's lines: SONiC's systemd timer, the hosts', NVUE's trial apply.
  const auto log = f.devices.log();
  const size_t lines = first_of(log, "leaf2: nv set ");
  REQUIRE(lines < log.size());
  for (const auto& arming :
       {std::pair{"leaf1: ", "systemd-run"}, std::pair{"host1: ", " host apply "}, std::pair{"host2: ", " host apply "},
        std::pair{"leaf2: ", "nv config apply --confirm '"}}) {
    const std::string prefix = arming.first;  // a name, not a binding: clang's CAPTURE lambda takes no binding
    CAPTURE(prefix);
    const size_t armed = first_of(log, prefix, arming.second);
    REQUIRE(armed < log.size());
    CHECK(armed > lines);
  }
}

TEST_CASE("ops apply: an NVUE stage refused before its apply drops its revision and rejects no trial") {
  // A trial another apply left pending would be reverted by `--confirm-no`: a stage that never applied
  // has none of its own to reject.
  Fleet f(fake::small_fabric_nvue_leaf2());
  watchdog_off_on_nvue_leaf2(f);
  f.devices.device("leaf2").fail_when.emplace("nv set ", Reply{1, "", "Error: Invalid value\n"});
  const ApplyResult r = f.apply();
  const DeviceOutcome& leaf2 = outcome(r, "leaf2");
  CHECK(leaf2.outcome == Outcome::failed);
  CHECK(leaf2.reason.starts_with("stage: stage `nv set interface swp1 qos pfc-watchdog"));
  CHECK(leaf2.rolled_back);
  const auto log = f.devices.log();
  const size_t refused = first_of(log, "leaf2: nv set ");
  REQUIRE(refused + 1 < log.size());
  CHECK(log[refused + 1] == "leaf2: nv config detach");
  CHECK(first_of(log, "leaf2: nv config apply") == log.size());
}

TEST_CASE("ops apply: interrupted once prepared, a device is released and none is armed") {
  Fleet f(fake::small_fabric_nvue_leaf2());
  f.three_changes();
  watchdog_off_on_nvue_leaf2(f);
  // The only stage event before any device arms is leaf2's (its lines go first); the signal comes then.
  f.seen.on_event = [&f](std::string_view name) {
    if (name == "stage") f.signal = SIGINT;
  };
  const ApplyResult r = f.apply(options(1, 0, 0));
  for (const char* d : {"host1", "host2", "leaf1", "leaf2"}) {
    CAPTURE(d);
    CHECK(outcome(r, d).outcome == Outcome::skipped);
    CHECK(outcome(r, d).reason == "not started: fabricctl was interrupted");
  }
  CHECK(outcome(r, "leaf2").rolled_back);
  const auto log = f.devices.log();
  const size_t lines = first_of(log, "leaf2: nv set ");
  REQUIRE(lines + 1 < log.size());
  CHECK(log[lines + 1] == "leaf2: nv config detach");  // its pending revision dropped
  for (const char* armed : {"systemd-run", " host apply ", "nv config apply"}) {
    CAPTURE(armed);
    CHECK(
        std::none_of(log.begin(), log.end(), [&](const std::string& l) { return l.find(armed) != std::string::npos; }));
  }
}
