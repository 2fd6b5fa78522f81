// A saved plan (`plan --out DIR`): DIR/plan.json (the plan with what each transaction sends, schema
// fabricctl.plan/v1) and DIR/<device>/<change file> for a reviewer. `apply --plan DIR` reads
// plan.json back and applies exactly it.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ops/plan.h"
#include "util/expected.h"

namespace fabricctl::ops {

/// Writes the plan into `dir`, a new directory that holds none of its files yet (the CLI's staging
/// directory, which one syncfs makes durable and then swaps in for the saved plan's directory whole:
/// render/staged_output.h); nothing is fsynced here. A changed device named plan.json is refused: its
/// directory would be the plan's own file.
Expected<void> save_plan(const FabricPlan& plan, const std::filesystem::path& dir);

/// Reads DIR/plan.json: every device's platform, base hash, change and payload. Errors name the file
/// and what is wrong in it.
Expected<FabricPlan> load_plan(const std::filesystem::path& dir);

/// A saved plan checked against a plan made now from what the devices hold.
struct SavedPlanCheck {
  FabricPlan plan;                 // what to apply: the saved changes on the devices as read now
  std::vector<std::string> stale;  // "<device>: why the saved plan no longer applies to it"
};

/// The saved plan's devices, checked against `now`: a device whose configuration differs from the one
/// the plan was computed against is stale, and so is one no longer in scope. A device that failed
/// when the plan was made, or fails now, is carried as failed. Applying is safe only without `stale`.
SavedPlanCheck check_saved_plan(const FabricPlan& saved, const FabricPlan& now);

}  // namespace fabricctl::ops
