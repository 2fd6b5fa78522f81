// A plan: per device, the native change apply would make (only what differs), why (the drift
// findings it fixes, in neutral terms), and the hash of the configuration it was computed against.
// `plan` shows it and can save it (plan_file.h); `apply` makes it, or applies a saved one after
// checking that no device changed since.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/fabric.h"
#include "ops/collect.h"
#include "ops/context.h"
#include "platform/platform.h"
#include "state/desired.h"
#include "state/observed.h"
#include "verify/result.h"

namespace fabricctl::ops {

struct DevicePlan {
  std::string device;
  Platform platform = Platform::sonic;
  NativeChange change;      // empty: the device holds its desired configuration
  std::string base_sha256;  // of change.base
  std::vector<Result> why;  // the drift findings on the device (failures of *.drift checks)
  std::string error;        // why no change could be computed (unreachable, unreadable), or why the
                            // device refuses it (Applier::check): a device failure
  std::string checked;      // what the device's own check of the change said when it accepted it
  bool refused = false;     // `error` is the device's own check refusing the change: it was reached

  [[nodiscard]] bool failed() const { return !error.empty(); }
  [[nodiscard]] bool changes() const { return error.empty() && !change.empty(); }
};

struct FabricPlan {
  std::string created_at;           // RFC 3339 UTC
  std::vector<DevicePlan> devices;  // natural order of names
  [[nodiscard]] size_t changed() const;
  [[nodiscard]] size_t failed() const;
  /// The plan of `device`, or nullptr.
  [[nodiscard]] const DevicePlan* find(std::string_view device) const;
};

/// The plan of one device from what its collector read (`raw`, nullptr when it could not be read:
/// `failure` says why) and the drift findings on it (`why`).
DevicePlan plan_device(const DeviceDesired& device, const RawOutputs* raw, std::string_view failure,
                       std::vector<Result> why);

/// The plan of the devices in `scope`, from what was read (`observed` for the findings, `raws` for the
/// native changes).
FabricPlan plan_fabric(const FabricDesired& desired, const FabricObserved& observed, const RawByDevice& raws,
                       const std::set<std::string>& scope);

/// Whether `check` is the drift of a setting apply changes: a *.drift check, except the speed, which
/// optics and cabling decide.
bool setting_drift(std::string_view check);

/// The drift findings (failures of the *.drift checks that name a setting) of the devices in `scope`,
/// by device.
std::map<std::string, std::vector<Result>> drift_findings(const FabricDesired& desired, const FabricObserved& observed,
                                                          const std::set<std::string>& scope);

/// What was read and the plan made from it.
struct PlannedFabric {
  std::set<std::string> scope;  // the devices planned
  FabricObserved observed;      // the scope and the far ends of its links
  RawByDevice raws;
  FabricPlan plan;
};

/// Asks each changing device of `plan` to judge its change without making it (Applier::check: SONiC's
/// config updater dry run), `jobs` devices at a time. A device that refuses its change, or cannot be
/// asked, fails in the plan with the reason; one that accepts it says so in `checked`.
void check_changes(FabricPlan& plan, const Fabric& fabric, int jobs, Context& ctx);

/// Reads the devices of `scope` and the far ends of their links (live, or from what a collect saved:
/// `how.from_raw`), and plans `scope`; live, each change is also checked by its device
/// (check_changes). Device failures are in the plan.
PlannedFabric read_and_plan(const Fabric& fabric, const std::set<std::string>& scope, const CollectOptions& how,
                            Context& ctx);

/// The file a reviewer reads a platform's change in ("patch.json"), and its transaction in a few words.
std::string_view change_file(Platform platform);
std::string_view transaction_summary(Platform platform);

}  // namespace fabricctl::ops
