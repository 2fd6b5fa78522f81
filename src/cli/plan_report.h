// How a plan is shown: a table of devices (what changes, and the findings that say why), the native
// change of each device as apply sends it (JSON: ops/plan_json.h).
#pragma once

#include <ostream>
#include <string>

#include "ops/plan.h"

namespace fabricctl {

enum class PlanFormat { table, native, json };

/// Whether the table is followed by each changing device's native change.
enum class PlanChanges { shown, left_out };

/// The table (findings that differ only by port folded, devices with the same findings naming the first
/// one's), then each changing device's native change under a header naming it (unless left out), then
/// the summary line.
void write_plan_table(const ops::FabricPlan& plan, std::ostream& out, PlanChanges changes = PlanChanges::shown);
/// Only the native changes, each under a header naming its device and file.
void write_plan_native(const ops::FabricPlan& plan, std::ostream& out);

/// "2 of 5 devices change, 1 failed; 2 unchanged."
std::string plan_summary(const ops::FabricPlan& plan);

/// Exit code of `plan --detailed-exitcode`: 3 when a device failed, else 1 with changes, else 0.
int plan_exit_code(const ops::FabricPlan& plan);

}  // namespace fabricctl
