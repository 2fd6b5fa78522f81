// A plan as JSON (docs/plan.md, schema fabricctl.plan/v1): what `plan -o json` prints, and with the
// payloads, what a saved plan holds (plan_file.h) and what the audit record's plan_sha256 hashes.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

#include "ops/plan.h"

namespace fabricctl::ops {

/// "failed", "change" or "no change".
std::string_view status_of(const DevicePlan& d);

/// The plan as JSON. `payloads`: with what each transaction sends (a saved plan needs it; stdout not).
nlohmann::ordered_json plan_json(const FabricPlan& plan, bool payloads);

}  // namespace fabricctl::ops
