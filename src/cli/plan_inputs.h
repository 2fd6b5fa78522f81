// What `plan` and `apply` read before they can say what would change: the fabric's devices in scope
// (--limit) and the far ends of their links, live over SSH or from what a collect saved. The options
// and their checks are here; the reading and planning is ops::read_and_plan.
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/read_options.h"
#include "model/fabric.h"
#include "ops/collect.h"

namespace fabricctl {

struct PlanInputs {
  std::vector<std::string> limit;  // --limit globs
  std::string shard;               // --shard K/N
  std::string from_raw;            // --from-raw RAWDIR
  std::string snapshots;           // --snapshots DIR: a directory `collect --out` wrote (its raw/)
  ReadOptions read;
};

/// Adds --limit, --shard, the options of reading devices live and, with `offline` (plan; apply reads
/// the devices themselves, so its --help does not offer them), --from-raw and --snapshots.
void add_plan_inputs(boost::program_options::options_description& desc, PlanInputs& in, bool offline = true);

/// What to plan and how to read it, once the options are checked.
struct PlanScope {
  std::set<std::string> scope;  // the devices --limit and --shard pick
  ops::CollectOptions how;      // live, or from a saved raw directory
};

/// Checks the options and the connect settings of what will be read. On a problem prints why and
/// returns nullopt (exit 2); nothing was read.
std::optional<PlanScope> plan_scope(const Fabric& fabric, const PlanInputs& in);

}  // namespace fabricctl
