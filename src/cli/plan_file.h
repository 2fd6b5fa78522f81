// A saved plan (`plan --out DIR`): DIR/plan.json (the plan with what each transaction sends, schema
// fabricctl.plan/v1) and DIR/<device>/<change file> for a reviewer. `apply --plan DIR` reads
// plan.json back and applies exactly it.
#pragma once

#include <filesystem>

#include "cli/plan.h"
#include "util/expected.h"

namespace fabricctl {

/// Writes the plan into `dir` (created if missing; a directory that holds something other than a
/// saved plan is refused, so that nothing of the user's is overwritten).
Expected<void> save_plan(const FabricPlan& plan, const std::filesystem::path& dir);

/// Reads DIR/plan.json: every device's platform, base hash, change and payload. Errors name the file
/// and what is wrong in it.
Expected<FabricPlan> load_plan(const std::filesystem::path& dir);

}  // namespace fabricctl
