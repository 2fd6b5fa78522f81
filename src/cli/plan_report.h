// How a plan is shown: a table of devices (what changes, and the findings that say why), the native
// change of each device as apply sends it, or JSON (docs/plan.md, schema fabricctl.plan/v1).
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

#include "cli/plan.h"

namespace fabricctl {

enum class PlanFormat { table, native, json };

/// The table, then each changing device's native change under a header naming it.
void write_plan_table(const FabricPlan& plan, std::ostream& out);
/// Only the native changes, each under a header naming its device and file.
void write_plan_native(const FabricPlan& plan, std::ostream& out);
/// The plan as JSON. `payloads`: with what each transaction sends (a saved plan needs it; stdout not).
nlohmann::ordered_json plan_json(const FabricPlan& plan, bool payloads);

/// "2 of 5 devices change, 1 failed; 2 unchanged."
std::string plan_summary(const FabricPlan& plan);

}  // namespace fabricctl
