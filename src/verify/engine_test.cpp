// The engine: a run that only counts its passes reports the same numbers as one that lists them.
#include <doctest/doctest.h>

#include <set>
#include <string>

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

  const VerifyReport listed =
      run_verify(lab.desired, lab.observed, selected, scope, needed, Severity::info, {}, Passes::listed);
  const VerifyReport counted =
      run_verify(lab.desired, lab.observed, selected, scope, needed, Severity::info, {}, Passes::counted);
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
