// The engine: a run that only counts its passes reports the same numbers as one that lists them.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <thread>

#include "verify/checks/check_test_support.h"
#include "verify/engine.h"

using namespace fabricctl;
using fabricctl::test::Lab;

TEST_CASE("verify engine: passes counted report what passes listed report, without the list") {
  Lab lab;
  // One fault, so that the run has failures as well as passes.
  lab.port("leaf1", "Ethernet0").mtu = 1500;
  std::string error;
  const std::vector<const Check*> selected = select_checks({}, error);
  REQUIRE(error.empty());
  std::set<std::string> scope;
  for (const DeviceDesired& d : lab.desired.devices) scope.insert(d.name);
  const std::set<std::string> needed = devices_needed(lab.desired, scope);

  const VerifyReport listed = run_verify(
      lab.desired, lab.observed, {.checks = selected, .scope = scope, .needed = needed, .passes = Passes::listed});
  const VerifyReport counted = run_verify(
      lab.desired, lab.observed, {.checks = selected, .scope = scope, .needed = needed, .passes = Passes::counted});
  REQUIRE(listed.pass_count > 0);
  CHECK(listed.passes.size() == listed.pass_count);
  CHECK(counted.passes.empty());
  CHECK(counted.pass_count == listed.pass_count);
  CHECK(counted.results.size() == listed.results.size());
  CHECK(counted.devices_checked == listed.devices_checked);
  CHECK(counted.links_checked == listed.links_checked);
  const ReportTally a = tally(listed), b = tally(counted);
  CHECK(a.pass == b.pass);
  CHECK(a.fail == b.fail);
  CHECK(a.fail > 0);
  CHECK(verify_exit_code(listed) == verify_exit_code(counted));
}

TEST_CASE("verify engine: checks run side by side report what they report one at a time, in the same order") {
  if (std::thread::hardware_concurrency() < 2) return;  // one core: one thread either way
  Lab lab;
  lab.port("leaf1", "Ethernet0").mtu = 1500;
  lab.port("spine1", "swp1").oper_up = false;
  std::string error;
  const std::vector<const Check*> selected = select_checks({}, error);
  REQUIRE(error.empty());
  REQUIRE(selected.size() > 2);
  std::set<std::string> scope;
  for (const DeviceDesired& d : lab.desired.devices) scope.insert(d.name);
  VerifyOptions options{.checks = selected, .scope = scope, .needed = devices_needed(lab.desired, scope)};
  const VerifyReport one = run_verify(lab.desired, lab.observed, options);
  options.ports_per_thread = 1;  // every port a thread's worth: as many threads as cores
  const VerifyReport many = run_verify(lab.desired, lab.observed, options);
  REQUIRE(tally(one).fail > 0);
  REQUIRE(one.results.size() == many.results.size());
  for (size_t i = 0; i < one.results.size(); ++i) {
    CHECK(one.results[i].check == many.results[i].check);
    CHECK(one.results[i].object() == many.results[i].object());
    CHECK(one.results[i].message == many.results[i].message);
  }
  REQUIRE(one.passes.size() == many.passes.size());
  for (size_t i = 0; i < one.passes.size(); ++i) CHECK(one.passes[i].check == many.passes[i].check);
  CHECK(one.pass_count == many.pass_count);
  CHECK(one.links_checked == many.links_checked);
  CHECK(verify_exit_code(one) == verify_exit_code(many));
}

namespace {

VerifyReport verify_lab(const Lab& lab, Severity min = Severity::info) {
  std::string error;
  const std::vector<const Check*> selected = select_checks({}, error);
  REQUIRE(error.empty());
  std::set<std::string> scope;
  for (const DeviceDesired& d : lab.desired.devices) scope.insert(d.name);
  return run_verify(lab.desired, lab.observed,
                    {.checks = selected,
                     .scope = scope,
                     .needed = devices_needed(lab.desired, scope),
                     .min_severity = min,
                     .passes = Passes::counted});
}

}  // namespace

TEST_CASE("verify engine: a check that does not apply is neither a pass nor checked, and is counted per check") {
  Lab lab;
  const VerifyReport up = verify_lab(lab);
  // Up, only what does not apply by its kind (path checks on a switch-to-switch link).
  CHECK(up.tally_of("link.speed.mismatch").not_applicable == 0);
  lab.port("leaf1", "Ethernet0").oper_up = false;
  lab.port("leaf1", "Ethernet0").speed_mbps.reset();
  const VerifyReport down = verify_lab(lab);
  const VerifyReport::CheckTally speed = down.tally_of("link.speed.mismatch");
  CHECK(speed.not_applicable == 1);
  CHECK(speed.passed + 1 == up.tally_of("link.speed.mismatch").passed);
  CHECK(down.not_applicable == up.not_applicable + 1);
  CHECK(tally(down).not_applicable == down.not_applicable);
  // The down port's missing speed is not missing data: the audit is complete, the link is the finding.
  CHECK(down.incomplete == 0);
  CHECK(verify_exit_code(down) == 1);
  // Per-check passes add up to the run's.
  size_t passed = 0;
  for (const auto& t : down.check_tallies) passed += t.passed;
  CHECK(passed == down.pass_count);
  CHECK(down.check_tallies.size() == down.checks_run.size());
}

TEST_CASE("verify engine: failures below --severity are counted as hidden, not dropped silently") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").mtu = 1500;  // an error
  // A warning: ECN marks leaf1's lossless queue though the intent has ECN off.
  lab.device("leaf1").qos.ecn_enabled = false;
  lab.device("leaf1").qos.ecn.clear();
  const VerifyReport all = verify_lab(lab, Severity::info);
  const ReportTally shown = tally(all);
  REQUIRE(shown.warnings > 0);
  REQUIRE(shown.errors > 0);
  const VerifyReport errors_only = verify_lab(lab, Severity::error);
  CHECK(all.hidden_warnings == 0);
  CHECK(all.hidden_infos == 0);
  CHECK(errors_only.hidden_warnings == shown.warnings);
  CHECK(errors_only.hidden_infos == shown.infos);
  CHECK(tally(errors_only).errors == shown.errors);
}
