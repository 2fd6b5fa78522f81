// `fabricctl health`: a fabric's counters judged as rates between two readings of every device, on
// both ends of every link, with the fault named where it is. verify asks "does every device hold its
// intent?"; health asks "is the fabric well?": a slow receiver pausing its link into a storm, a cable
// whose errors climb, a link that flaps, lossless traffic dropped, RoCE retransmitting. Every judgement
// is a rate (the rise over the seconds between the two readings' collected_at), never a total against
// zero; a counter that fell was cleared or its device restarted, and is not judged. Checks speak the
// neutral counters (state/observed.h PortObserved::counters, docs/counters-reference.md), never a
// platform's, and report as verify does (verify/verify_report.h), so every report format serves both.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "health/baseline.h"
#include "state/desired.h"
#include "state/observed.h"
#include "verify/verify_report.h"

namespace fabricctl {

/// How health runs. Where a rate becomes a finding is each device's (its profile's `health:` section,
/// state/desired.h HealthLimits).
struct HealthOptions {
  std::set<std::string> scope{};  // devices whose findings are wanted (verify's --limit); empty: all
  /// The fabric's normal (`health --baseline`): a counter rising a device's `baseline_factor` times
  /// faster than it did then is a finding; below `baseline_floor_per_s` a baseline rate counts as that
  /// floor, so that a counter at 0 in the baseline needs a real rate to be named. nullptr: no baseline.
  const Baseline* baseline = nullptr;
  double baseline_floor_per_s = 1;
};

/// The checks health runs, in report order: ID, severity, what it judges.
struct HealthCheck {
  const char* id;
  Severity severity;
  const char* judges;
};
const std::vector<HealthCheck>& health_checks();

/// Judges the rise of every counter from `before` to `after`. A device missing or unreadable in
/// either reading is unreadable in the report (its reason says which reading); a device whose two
/// readings are not in time order, or are the same instant, too.
VerifyReport run_health(const FabricDesired& desired, const FabricObserved& before, const FabricObserved& after,
                        const HealthOptions& options);

}  // namespace fabricctl
