// apply as the command runs it, on the fake fleet: the plan to show (made now, or a saved one checked
// against the devices as they are now), and the run with its audit record from start to end.
#include "ops/apply_run.h"

#include <doctest/doctest.h>

#include <fstream>

#include "ops/fake_fleet_test_support.h"
#include "temp_dir.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

/// The shared fake fleet, `host`'s NIC at MTU `mtu`, and the whole fabric as the scope.
struct RunFleet : fake::Fleet {
  std::set<std::string> all = fake::every_device(fabric);
  void mtu_on(const std::string& host, int mtu) { fake::mtu_on(devices, fabric, host, mtu); }
};

std::vector<nlohmann::json> record_lines(const std::filesystem::path& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

}  // namespace

TEST_CASE("ops apply run: the record holds the start, each device's events and the end with its exit") {
  RunFleet f;
  f.mtu_on("host1", 1500);
  const ApplyPlan plan = plan_apply(f.fabric, f.all, {}, std::nullopt, f.ctx);
  REQUIRE(plan.stale.empty());
  REQUIRE(plan.planned.plan.changed() == 1);
  const test::TempDir dir;
  ApplyOptions o;
  o.canary = 1;
  o.batch = parse_batch("25%").value();
  o.by = WaveUnit::rail;
  const ApplyRecord record{dir.path, "inventory/lab", "", [](const ApplyResult& r) { return all_applied(r) ? 0 : 3; }};
  auto run = run_apply(f.fabric, plan, o, record, f.ctx);
  REQUIRE_MESSAGE(run, run.error());
  CHECK(all_applied(run->result));
  CHECK(run->record_error.empty());
  CHECK(run->record.parent_path() == dir.path);
  CHECK(run->record.filename().string() == run->result.transaction + ".jsonl");
  const auto lines = record_lines(run->record);
  REQUIRE(lines.size() >= 4);
  const nlohmann::json& start = lines.front();
  CHECK(start["event"] == "start");
  CHECK(start["transaction"] == run->result.transaction);
  CHECK(start["inventory"] == "inventory/lab");
  CHECK(start["plan"] == "made by this apply");
  CHECK(start["canary"] == 1);
  CHECK(start["batch"] == "25%");
  CHECK(start["by"] == "rail");
  CHECK(start["plan_sha256"].get<std::string>().size() == 64);
  size_t changing = 0;
  for (const auto& d : start["devices"]) changing += d["status"] == "change" ? 1 : 0;
  CHECK(changing == 1);
  CHECK(lines.back()["event"] == "end");
  CHECK(lines.back()["exit"] == 0);
  CHECK(lines.back()["devices"] == nlohmann::json::parse(outcomes_json(run->result)["devices"].dump()));
  // The caller's observer saw the same device events as the record.
  CHECK(std::count(f.seen.events.begin(), f.seen.events.end(), "confirmed host1") == 1);
}

TEST_CASE("ops apply run: a failed device is in the end event with the caller's exit status") {
  RunFleet f;
  f.mtu_on("host1", 1500);
  f.devices.device("host1").fail_when["host apply"] = {1, "", "refused"};
  const ApplyPlan plan = plan_apply(f.fabric, f.all, {}, std::nullopt, f.ctx);
  const test::TempDir dir;
  auto run =
      run_apply(f.fabric, plan, {},
                {dir.path, "inv", "saved-plan", [](const ApplyResult& r) { return all_applied(r) ? 0 : 3; }}, f.ctx);
  REQUIRE_MESSAGE(run, run.error());
  CHECK_FALSE(all_applied(run->result));
  const auto lines = record_lines(run->record);
  CHECK(lines.front()["plan"] == "saved-plan");
  CHECK(lines.back()["exit"] == 3);
}

TEST_CASE("ops apply run: no record, nothing changed") {
  RunFleet f;
  f.mtu_on("host1", 1500);
  const ApplyPlan plan = plan_apply(f.fabric, f.all, {}, std::nullopt, f.ctx);
  const test::TempDir dir;
  std::ofstream(dir.path / "file") << "x";
  auto run = run_apply(f.fabric, plan, {}, {dir.path / "file" / "audit", "inv", "", nullptr}, f.ctx);
  REQUIRE_FALSE(run);
  for (const std::string& e : f.seen.events) CHECK(e.rfind("stage", 0) != 0);
}

TEST_CASE("ops apply plan: a saved plan is kept while it applies, and refused per stale device") {
  RunFleet f;
  f.mtu_on("host1", 1500);
  const ApplyPlan made = plan_apply(f.fabric, f.all, {}, std::nullopt, f.ctx);
  const FabricPlan saved = made.planned.plan;
  ApplyPlan again = plan_apply(f.fabric, f.all, {}, saved, f.ctx);
  CHECK(again.stale.empty());
  CHECK(again.planned.plan.changed() == 1);
  // host1 changed since the plan was made: the saved plan is stale on it.
  f.mtu_on("host1", 4200);
  again = plan_apply(f.fabric, f.all, {}, saved, f.ctx);
  REQUIRE(again.stale.size() == 1);
  CHECK(again.stale[0].rfind("host1: ", 0) == 0);
}
