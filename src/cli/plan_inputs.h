// What `plan` and `apply` read before they can say what would change: the fabric's devices in scope
// (--limit) and the far ends of their links, live over SSH or from what a collect saved.
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/collect_run.h"
#include "cli/plan.h"
#include "cli/progress.h"
#include "model/fabric.h"

namespace fabricctl {

struct PlanInputs {
  std::vector<std::string> limit;  // --limit globs
  std::string from_raw;            // --from-raw RAWDIR
  std::string snapshots;           // --snapshots DIR: a directory `collect --out` wrote (its raw/)
  CollectOptions collect;
};

/// Adds --limit, --from-raw, --snapshots and the options of reading devices live.
void add_plan_inputs(boost::program_options::options_description& desc, PlanInputs& in);

/// What was read and the plan made from it.
struct PlannedFabric {
  std::set<std::string> scope;  // the devices planned
  FabricObserved observed;      // the scope and the far ends of its links
  RawByDevice raws;
  FabricPlan plan;
};

/// Checks the options, reads the devices and plans them. On bad options or settings prints why and
/// sets `exit` (2); device failures are in the plan.
std::optional<PlannedFabric> read_and_plan(const Fabric& fabric, PlanInputs& in, Progress& progress, int& exit);

}  // namespace fabricctl
