// `fabricctl apply` as one operation on each side of the operator's "yes": the plan to show (made now,
// or a saved one checked against what the devices hold now), then the run itself, recorded. The
// command only parses, asks and prints.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ops/apply.h"
#include "ops/audit_log.h"
#include "ops/plan.h"
#include "util/expected.h"

namespace fabricctl::ops {

/// What apply is about to do: the plan, made from the devices as they are now.
struct ApplyPlan {
  PlannedFabric planned;  // planned.plan: the saved plan's changes when one was given, else the plan made now
  /// A saved plan that no longer applies: "<device>: why" for each device it is stale on. Nothing may
  /// be applied then.
  std::vector<std::string> stale;
};

/// Reads the devices of `scope` and plans them; with a `saved` plan, checks it against that plan
/// (check_saved_plan) and keeps its changes.
ApplyPlan plan_apply(const Fabric& fabric, const std::set<std::string>& scope, const CollectOptions& how,
                     const std::optional<FabricPlan>& saved, Context& ctx);

/// Where an apply's audit record goes, and what its start event says about the run.
struct ApplyRecord {
  std::filesystem::path dir;  // the record is DIR/<transaction>.jsonl
  std::string inventory;      // as given
  std::string plan_source;    // the saved plan's directory, or "" for a plan made by this apply
  /// The exit status the caller ends with for a result: the record's end event names it.
  std::function<int(const ApplyResult&)> exit_status;
  /// More fields of the start event: {"resumes": TX} or {"undoes": TX} (apply --resume, --undo).
  nlohmann::ordered_json start_extra = nlohmann::ordered_json::object();
};

/// One apply, recorded.
struct ApplyRun {
  ApplyResult result;
  std::filesystem::path record;  // the audit record
  std::string record_error;      // a write to it that failed, or ""
};

/// Names a new transaction, opens its audit record and writes the start event (the plan's devices,
/// their status and configuration digest before, the plan's digest, the options), applies the plan
/// with ctx.observer and the record both observing, and writes the end event. Fails, with nothing
/// changed, only when the record cannot be made.
Expected<ApplyRun> run_apply(const Fabric& fabric, const ApplyPlan& plan, ApplyOptions options,
                             const ApplyRecord& record, Context& ctx);

/// The outcome of each device, as `apply -o json` prints it and the end event records it.
nlohmann::ordered_json outcomes_json(const ApplyResult& r);

}  // namespace fabricctl::ops
