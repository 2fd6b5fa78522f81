// Resume and undo from an apply's audit record (ops/apply_record.h, ops/resume.h), on the fake fleet:
// the record a real apply writes is read back device by device; a resume plans only what the record
// did not apply and refuses a device it applied that changes again; an undo changes back what it
// confirmed, refuses a device changed since and an intent that is not the one before, and says which
// devices are back to their configuration before.
#include "ops/resume.h"

#include <doctest/doctest.h>

#include "ops/apply_run.h"
#include "ops/audit_log.h"
#include "ops/fake_fleet_test_support.h"
#include "temp_dir.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

int exit_of(const ApplyResult& r) { return all_applied(r) ? 0 : 3; }

/// host1 and host2 at MTU 1500; host2 refuses its change: an apply in waves of one device, recorded.
struct Interrupted : fake::Fleet {
  test::TempDir dir;
  ApplyRun run;
  RecordedApply record;
  RawOutputs host1_before;  // what host1 ran when the record's plan was made

  Interrupted() {
    mtu_1500_on("host1");
    mtu_1500_on("host2");
    host1_before = devices.device("host1").state;
    devices.device("host2").fail_when["host apply"] = {1, "", "refused"};
    ApplyOptions o;
    o.batch = parse_batch("1").value();
    const ApplyPlan plan = plan_apply(fabric, fake::every_device(fabric), {}, std::nullopt, ctx);
    auto done = run_apply(fabric, plan, o, {dir.path, "inventory/lab", "", exit_of}, ctx);
    REQUIRE_MESSAGE(done, done.error());
    run = std::move(*done);
    auto read = load_apply_record(run.result.transaction, dir.path);
    REQUIRE_MESSAGE(read, read.error());
    record = std::move(*read);
  }
  ApplyPlan plan_of(const Fabric& intent, const std::set<std::string>& scope) {
    return plan_apply(intent, scope, {}, std::nullopt, ctx);
  }
};

std::string record_text(std::string_view events) {
  return R"({"event":"start","at":"2026-12-06T06:00:00Z","transaction":"fabricctl-20261206T060000-abcdef",)"
         R"("who":"x","inventory":"inv","plan":"made by this apply","plan_sha256":"0","canary":0,"batch":"",)"
         R"("by":"link","health_gate_s":0,"max_failures":0,"confirm_timeout_s":300,"devices":[)"
         R"({"device":"leaf1","platform":"sonic","status":"change","before_sha256":"b"}]})"
         "\n" +
         std::string(events);
}

std::string error_of(std::string_view events) {
  auto r = read_apply_record(record_text(events), "rec.jsonl");
  REQUIRE_FALSE(r);
  return r.error();
}

}  // namespace

TEST_CASE("ops record: an apply's record read back, device by device") {
  Interrupted f;
  const RecordedApply& r = f.record;
  CHECK(r.transaction == f.run.result.transaction);
  CHECK(r.path == f.run.record);
  CHECK(r.batch == "1");
  CHECK(r.by == "link");
  REQUIRE(r.exit.has_value());
  CHECK(*r.exit == 3);
  REQUIRE(r.find("host1") != nullptr);
  CHECK(r.find("host1")->state == RecordedState::confirmed);
  CHECK(r.find("host1")->after_sha256.size() == 64);
  CHECK(r.find("host2")->state == RecordedState::rolled_back);
  CHECK(r.find("leaf1")->status == "no change");
  CHECK(pending_reverts(r, f.clock.now()).empty());  // host2 was rolled back: no timer left
  CHECK_FALSE(record_in_use(r.path));
}

TEST_CASE("ops resume: only what the record did not apply, and nothing it applied changed again") {
  Interrupted f;
  f.devices.device("host2").fail_when.clear();
  CHECK(resume_scope(f.record) == std::set<std::string>{"host1", "host2"});
  const ApplyPlan plan = f.plan_of(f.fabric, resume_scope(f.record));
  CHECK(plan.planned.plan.changed() == 1);
  CHECK(plan.planned.plan.find("host2")->changes());
  CHECK(resume_conflicts(f.record, plan.planned.plan).empty());
  ApplyRecord rec{f.dir.path, "inventory/lab", "", exit_of};
  rec.start_extra["resumes"] = f.record.transaction;
  f.clock.advance(std::chrono::seconds(2));  // a new transaction name
  auto resumed = run_apply(f.fabric, plan, {}, rec, f.ctx);
  REQUIRE_MESSAGE(resumed, resumed.error());
  CHECK(all_applied(resumed->result));
  auto read = load_apply_record(resumed->record.string(), f.dir.path);
  REQUIRE(read);
  CHECK(read->find("host2")->state == RecordedState::confirmed);
  CHECK(read->find("host1")->status == "no change");  // in scope: applied by the record, unchanged since
  CHECK(read->find("leaf1") == nullptr);              // out of scope: the record did not change it
  // host1 drifted again since the record applied it: a resume would make a new change there.
  fake::mtu_on(f.devices, f.fabric, "host1", 4200);
  const ApplyPlan again = f.plan_of(f.fabric, resume_scope(f.record));
  const auto conflicts = resume_conflicts(f.record, again.planned.plan);
  REQUIRE(conflicts.size() == 1);
  CHECK(conflicts[0].rfind("host1: " + f.record.transaction + " applied it, and the plan changes it again", 0) == 0);
}

TEST_CASE("ops undo: back to the configuration before, for the devices the record confirmed") {
  Interrupted f;
  CHECK(undo_scope(f.record) == std::set<std::string>{"host1"});
  // The intent as it was before the record: host1 at MTU 1500.
  Fabric before = f.fabric;
  for (DeviceDesired& d : before.desired.devices)
    if (d.name == "host1") d.ports[0].mtu = 1500;  // as fake::mtu_on drifted it
  // The record's own intent changes nothing of what it left.
  const ApplyPlan same = f.plan_of(f.fabric, undo_scope(f.record));
  auto conflicts = undo_conflicts(f.record, same.planned.plan);
  REQUIRE(conflicts.size() == 1);
  CHECK(conflicts[0].find("the intent given changes nothing of what") != std::string::npos);

  const ApplyPlan plan = f.plan_of(before, undo_scope(f.record));
  CHECK(undo_conflicts(f.record, plan.planned.plan).empty());
  f.devices.device("host1").after_stage = f.host1_before;  // the fake's stage makes what the intent says
  f.clock.advance(std::chrono::seconds(2));
  auto undone = run_apply(before, plan, {}, {f.dir.path, "inventory/before", "", exit_of}, f.ctx);
  REQUIRE_MESSAGE(undone, undone.error());
  REQUIRE_MESSAGE(all_applied(undone->result), undone->result.devices.front().reason);
  const UndoCheck check = check_undo(f.record, undone->result);
  CHECK(check.restored == std::vector<std::string>{"host1"});
  CHECK(check.differs.empty());
  // An undo that leaves host1 at another configuration than before (something the intent does not
  // cover changed too) says so.
  ApplyResult other = undone->result;
  other.devices.front().after_sha256 = std::string(64, '0');
  CHECK(check_undo(f.record, other).differs == std::vector<std::string>{"host1"});
}

TEST_CASE("ops undo: a device changed since the record confirmed it is refused") {
  Interrupted f;
  fake::mtu_on(f.devices, f.fabric, "host1", 4200);
  Fabric before = f.fabric;
  for (DeviceDesired& d : before.desired.devices)
    if (d.name == "host1") d.ports[0].mtu = 1500;  // as fake::mtu_on drifted it
  const auto conflicts = undo_conflicts(f.record, f.plan_of(before, undo_scope(f.record)).planned.plan);
  REQUIRE(conflicts.size() == 1);
  CHECK(conflicts[0].rfind("host1: no longer runs what " + f.record.transaction + " left it with", 0) == 0);
}

TEST_CASE("ops record: a device staged and never confirmed is pending until its timer fires") {
  const auto r = read_apply_record(
      record_text(R"({"event":"stage","at":"2026-12-06T06:00:05Z","device":"leaf1","before_sha256":"b"})"
                  "\n"
                  R"({"event":"staged","at":"2026-12-06T06:00:09Z","device":"leaf1"})"
                  "\n"),
      "rec.jsonl");
  REQUIRE_MESSAGE(r, r.error());
  CHECK_FALSE(r->exit.has_value());  // killed: no end event
  CHECK(r->find("leaf1")->state == RecordedState::staged);
  const auto t0 = std::chrono::system_clock::from_time_t(1796536809);  // 2026-12-06T06:00:09Z
  const auto pending = pending_reverts(*r, t0 + std::chrono::seconds(10));
  REQUIRE(pending.size() == 1);
  CHECK(pending[0] ==
        "leaf1: staged by fabricctl-20261206T060000-abcdef and never confirmed: its revert timer "
        "fires by 2026-12-06T06:05:09Z");
  CHECK(pending_reverts(*r, t0 + std::chrono::seconds(300)).empty());
}

TEST_CASE("ops record: read strictly, every refusal naming its line") {
  CHECK(error_of("not json\n") == "rec.jsonl:2: not a JSON object");
  CHECK(error_of(R"({"event":"stage","at":"2026-12-06T06:00:05Z","device":"leaf9"})") ==
        "rec.jsonl:2: device \"leaf9\" is not in the start event");
  CHECK(error_of(R"({"event":"reboot","at":"2026-12-06T06:00:05Z","device":"leaf1"})") ==
        "rec.jsonl:2: unknown event \"reboot\"");
  CHECK(error_of(R"({"event":"stage","at":"yesterday","device":"leaf1"})") ==
        "rec.jsonl:2: \"at\" is not a time: \"yesterday\"");
  CHECK(error_of(R"({"event":"confirmed","at":"2026-12-06T06:00:05Z","device":"leaf1"})") ==
        "rec.jsonl:2: \"after_sha256\" is not a string");
  CHECK(error_of(std::string(100, '[') + std::string(100, ']')) == "rec.jsonl:2: nested deeper than any event");
  auto r = read_apply_record(R"({"event":"staged","at":"2026-12-06T06:00:05Z","device":"leaf1"})", "x.jsonl");
  REQUIRE_FALSE(r);
  CHECK(r.error() == "x.jsonl:1: an event before the start event");
  r = read_apply_record("", "x.jsonl");
  REQUIRE_FALSE(r);
  CHECK(r.error() == "x.jsonl: no start event: not an apply's audit record");
  CHECK_FALSE(load_apply_record("../x", "/tmp"));
  CHECK(load_apply_record("no such", "/tmp").error() ==
        "\"no such\" is neither a transaction name nor an audit record's path");
}

TEST_CASE("ops record: in use while its apply writes it") {
  const test::TempDir dir;
  fake::FakeClock clock;
  std::filesystem::path path;
  {
    auto log = AuditLog::open(dir.path, "fabricctl-20261206T060000-abcdef", clock);
    REQUIRE(log);
    path = log->path();
    CHECK(record_in_use(path));
  }
  CHECK_FALSE(record_in_use(path));
}
