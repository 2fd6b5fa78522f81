// Applying a plan to live devices (docs/apply.md): in steps (the canary first, then the rest), each
// step staging every one of its devices at once with the device's own revert timer armed, reading
// them again and verifying, then confirming the devices that verify and rolling back those that do
// not. One device's failure never stops the others (unless --max-failures says so); an interrupt
// rolls back what is staged; every event reaches the observer (the audit record) as it happens.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "health/baseline.h"
#include "model/fabric.h"
#include "ops/clock.h"
#include "ops/context.h"
#include "ops/plan.h"
#include "ops/waves.h"

namespace fabricctl::ops {

/// Between two steps, the counters of the step just applied (its devices and their links' far ends):
/// read, read again `interval` later, judged as `fabricctl health` judges them. An error finding on
/// the step's devices stops the steps left, as a failed device does.
struct HealthGate {
  std::chrono::seconds interval{0};    // 0: no gate
  const Baseline* baseline = nullptr;  // the fabric's normal (`health --baseline`), or none
  /// Waits the given time, or less when the run is asked to stop (then false).
  std::function<bool(std::chrono::milliseconds)> wait;
};

struct ApplyOptions {
  std::string transaction;       // the transaction's name (new_transaction_name)
  int jobs = 32;                 // devices staged, read again and confirmed at once
  int canary = 0;                // devices in the first step, verified before the rest start; 0: one step
  Batch batch;                   // the devices of each step after the canary (ops/waves.h); none: one step
  WaveUnit by = WaveUnit::link;  // what a step never splits
  HealthGate health_gate;        // between steps, after each step's own verify
  /// Asked between two steps (`--pause`: a person looks); false: the steps left do not start.
  std::function<bool(const std::string& done, const std::string& next)> between_waves;
  int max_failures = 0;         // after this many failed devices no new device starts; 0: no limit
  int confirm_timeout_s = 300;  // the devices' revert timers
};

enum class Outcome {
  unchanged,    // nothing to change
  applied,      // staged, verified, confirmed
  failed,       // stage, verify or confirm failed: rolled back (see DeviceOutcome::rollback_error)
  unreachable,  // could not be read when the plan was made
  skipped,      // not started: the canary failed, --max-failures was reached, or fabricctl was interrupted
};

std::string_view to_string(Outcome o);

struct DeviceOutcome {
  std::string device;
  Platform platform = Platform::sonic;
  Outcome outcome = Outcome::unchanged;
  std::string reason;          // why it failed or was skipped; what was verified when applied
  bool rolled_back = false;    // the rollback steps ran and succeeded
  std::string rollback_error;  // a rollback that failed: the device's revert timer is what is left
  std::string before_sha256;   // the configuration before, as the plan saw it
  std::string after_sha256;    // after (applied: the new one; rolled back: read again)
};

struct ApplyResult {
  std::string transaction;
  std::vector<DeviceOutcome> devices;  // plan order
  int interrupted_by = 0;              // why the stop token stopped the apply (its signal), or 0
  [[nodiscard]] size_t count(Outcome o) const;
};

/// Applies `plan` (its changing devices) to the devices of `fabric`. `observed` is the state the plan
/// was made from: the baseline verify compares against, and the far ends of links not yet changed.
/// Devices are reached through ctx.connector; ctx.stop is polled before each device starts and
/// between stage and confirm; every audit event goes to ctx.observer.
ApplyResult apply_plan(const Fabric& fabric, const FabricPlan& plan, const FabricObserved& observed,
                       const ApplyOptions& options, Context& ctx);

/// A transaction name: fabricctl-YYYYMMDDTHHMMSS-<6 hex digits>, the time `clock`'s.
std::string new_transaction_name(const Clock& clock);

/// Whether every device with a change was applied: none failed, was unreachable or was skipped.
[[nodiscard]] bool all_applied(const ApplyResult& r);

}  // namespace fabricctl::ops
