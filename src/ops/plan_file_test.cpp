#include "ops/plan_file.h"

#include <doctest/doctest.h>

#include "temp_dir.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

FabricPlan sample_plan() {
  FabricPlan plan;
  plan.created_at = "2026-12-03T12:00:00Z";
  DevicePlan a;
  a.device = "leaf1";
  a.platform = Platform::nvue;
  a.change = {"nv set interface swp1 link mtu 9216\n", "nv set interface swp1 link mtu 9216\n", "{}", {}};
  a.base_sha256 = std::string(64, 'a');
  DevicePlan b;
  b.device = "leaf2";
  b.platform = Platform::eos;
  b.base_sha256 = std::string(64, 'b');
  DevicePlan c;
  c.device = "host1";
  c.platform = Platform::linux_host;
  c.error = "host1 (10.0.0.1:22): cannot connect";
  plan.devices = {c, a, b};
  return plan;
}

}  // namespace

TEST_CASE("ops plan file: what is saved is read back: changes, payloads, hashes, failures") {
  test::TempDir dir;
  const FabricPlan plan = sample_plan();
  REQUIRE(save_plan(plan, dir.path / "plan"));
  CHECK(std::filesystem::exists(dir.path / "plan" / "leaf1" / "commands.nvue"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "plan" / "leaf2"));  // no change, no file
  auto back = load_plan(dir.path / "plan");
  REQUIRE_MESSAGE(back, back.error());
  REQUIRE(back->devices.size() == 3);
  CHECK(back->devices[0].failed());
  CHECK(back->devices[1].changes());
  CHECK(back->devices[1].change.payload == plan.devices[1].change.payload);
  CHECK(back->devices[1].base_sha256 == plan.devices[1].base_sha256);
  CHECK_FALSE(back->devices[2].changes());
  CHECK(back->devices[2].base_sha256 == plan.devices[2].base_sha256);
  // A device named plan.json (a valid name) is refused by name, nothing written.
  FabricPlan named = plan;
  named.devices[1].device = "plan.json";
  const auto refused = save_plan(named, dir.path / "named");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().starts_with("device \"plan.json\" has the name of the plan's own file"));
  CHECK_FALSE(std::filesystem::exists(dir.path / "named"));
}

TEST_CASE("ops plan file: a file that is not a plan, or a damaged one, is refused naming what is wrong") {
  test::TempDir dir;
  test::spit(dir.path / "a" / "plan.json", R"({"schema": "fabricctl.snapshot/v1", "devices": []})");
  auto a = load_plan(dir.path / "a");
  REQUIRE_FALSE(a);
  CHECK(a.error().find("not a fabricctl plan") != std::string::npos);
  test::spit(dir.path / "b" / "plan.json",
             R"({"schema": "fabricctl.plan/v1", "devices": [{"device": "x;rm -rf /", "platform": "sonic",
                      "status": "change", "base_sha256": "", "change": "a", "payload": "a"}]})");
  auto b = load_plan(dir.path / "b");
  REQUIRE_FALSE(b);
  CHECK(b.error().find("is not valid") != std::string::npos);
  test::spit(dir.path / "c" / "plan.json",
             R"({"schema": "fabricctl.plan/v1", "devices": [{"device": "leaf1", "platform": "sonic",
                      "status": "change", "base_sha256": "00", "change": "x"}]})");
  auto c = load_plan(dir.path / "c");
  REQUIRE_FALSE(c);
  CHECK(c.error().find("\"payload\" is missing") != std::string::npos);
  CHECK_FALSE(load_plan(dir.path / "missing"));
}
