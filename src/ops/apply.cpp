#include "ops/apply.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <set>

#include "health/health.h"
#include "ops/remote_steps.h"
#include "ops/session_pool.h"
#include "ops/verify.h"
#include "util/escape.h"
#include "util/parallel.h"
#include "util/sha256.h"
#include "verify/engine.h"

namespace fabricctl::ops {

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::unchanged: return "unchanged";
    case Outcome::applied: return "applied";
    case Outcome::failed: return "failed";
    case Outcome::unreachable: return "unreachable";
    case Outcome::skipped: return "skipped";
  }
  return "?";
}

size_t ApplyResult::count(Outcome o) const {
  return static_cast<size_t>(
      std::count_if(devices.begin(), devices.end(), [o](const DeviceOutcome& d) { return d.outcome == o; }));
}

std::string new_transaction_name(const Clock& clock) {
  std::random_device rd;
  char tail[8];
  std::snprintf(tail, sizeof tail, "%06x", static_cast<unsigned>(rd()) & 0xffffffU);
  return "fabricctl-" + utc_stamp(clock.now()) + "-" + tail;
}

bool all_applied(const ApplyResult& r) {
  return std::none_of(r.devices.begin(), r.devices.end(), [](const DeviceOutcome& d) {
    return d.outcome == Outcome::failed || d.outcome == Outcome::unreachable || d.outcome == Outcome::skipped;
  });
}

namespace {

/// Everything one apply shares between its steps and worker threads.
struct Run {
  const Fabric& fabric;
  const FabricPlan& plan;
  const ApplyOptions& o;
  Context& ctx;
  TransactionId id;
  std::map<std::string, size_t, std::less<>> index;  // device -> position in fabric.desired.devices
  std::vector<DeviceOutcome> outcomes;               // by position in plan.devices
  FabricObserved now;                                // every device as last read (the baseline at first)
  std::set<std::string> baseline;                    // "<check> <object>" of the findings before apply
  std::set<std::string> settled;                     // devices in their final state for this apply
  std::atomic<size_t> failures{0};
  std::mutex mutex;

  [[nodiscard]] const DeviceDesired& desired(const std::string& name) const {
    return fabric.desired.devices[index.at(name)];
  }
  [[nodiscard]] const DeviceMgmt& mgmt(const std::string& name) const { return fabric.mgmt[index.at(name)]; }
};

std::string finding_key(const Result& r) { return r.check + " " + r.object(); }

/// The findings before apply: every failure and every consequence of one (a step may see the same
/// finding as a failure whose cause is outside its scope: "not reported in this run"), over the
/// devices of the plan and the far ends of their links, on the state the plan was made from.
std::set<std::string> findings_before(const Fabric& fabric, const FabricPlan& plan, const FabricObserved& observed) {
  // Every device of the plan: a far end that could not be read is missing data there, not a crash
  // (src/verify/missing_data_test.cpp).
  std::set<std::string> scope;
  for (const DevicePlan& p : plan.devices) scope.insert(p.device);
  std::string error;
  VerifyOptions options;
  options.checks = select_checks({}, error);
  options.needed = devices_needed(fabric.desired, scope);
  options.scope = std::move(scope);
  options.min_severity = Severity::error;
  options.passes = Passes::counted;
  const VerifyReport report = verify(fabric.desired, observed, std::move(options));
  std::set<std::string> keys;
  for (const Result& r : report.results)
    if (r.status == Status::fail || r.status == Status::consequence) keys.insert(finding_key(r));
  return keys;
}

/// Opens a session and runs `steps`; "" or why not.
std::string run_on_device(Run& run, const std::string& device, const std::vector<RemoteStep>& steps) {
  auto session = run.ctx.connector.open(run.mgmt(device));
  if (!session) return terminal_line(session.error());
  return terminal_line(run_steps(**session, steps, adapter(run.desired(device).platform).applier));
}

/// The transaction on `p`'s device: the run's, with the device's fabricctl (a host's mgmt.fabricctl).
TransactionId id_of(Run& run, const DevicePlan& p) {
  TransactionId id = run.id;
  id.fabricctl = run.mgmt(p.device).fabricctl;
  return id;
}

TransactionSteps steps_of(Run& run, const DevicePlan& p) {
  const DeviceDesired& d = run.desired(p.device);
  return adapter(d.platform).applier.steps(d, p.change, id_of(run, p));
}

/// A step (stage, confirm) that failed on a device: its outcome and reason, the failure counted (for
/// --max-failures), and its event ("stage_failed").
void step_failed(Run& run, const DevicePlan& p, DeviceOutcome& out, const std::string& step, const std::string& why) {
  out.outcome = Outcome::failed;
  out.reason = step + ": " + why;
  ++run.failures;
  run.ctx.observer.event(step + "_failed", {{"device", p.device}, {"reason", why}});
}

/// Rolls `p`'s device back now with `steps` (its transaction's rollback, or release: none when a stage
/// stopped before it changed or prepared anything); records how that went.
void roll_back(Run& run, const DevicePlan& p, const std::vector<RemoteStep>& steps, DeviceOutcome& out) {
  const std::string why = steps.empty() ? std::string() : run_on_device(run, p.device, steps);
  out.rolled_back = why.empty();
  out.rollback_error = why;
  run.ctx.observer.event("rolled_back", {{"device", p.device}, {"ok", why.empty()}, {"error", why}});
}

/// Reads `devices` again; their state replaces what `run.now` had. Returns their raw outputs.
RawByDevice read_again(Run& run, const std::vector<std::string>& devices) {
  RawByDevice raws;
  CollectOptions how;
  how.jobs = run.o.jobs;
  how.counters = false;  // a step is judged by its state, not by counters
  FabricObserved fresh = collect_devices(run.fabric, devices, how, run.ctx, &raws);
  for (const std::string& d : devices) {
    run.now.devices.erase(d);
    run.now.failures.erase(d);
    run.now.unreadable.erase(d);
  }
  for (auto& [name, dev] : fresh.devices) run.now.devices.insert_or_assign(name, std::move(dev));
  for (auto& [name, f] : fresh.failures) run.now.record_failure(f);
  return raws;
}

/// The hash of the configuration `device` holds now, from what was read again ("" if unknown).
std::string config_hash(const Run& run, const std::string& device, const RawByDevice& raws) {
  const auto raw = raws.find(device);
  if (raw == raws.end()) return {};
  const DeviceDesired& d = run.desired(device);
  auto change = adapter(d.platform).applier.change(d, raw->second);
  return change ? sha256_hex(change->base) : std::string();
}

/// Why each staged device fails verification, by device: what it still does not hold (the drift of a
/// setting), what became wrong (a finding verify did not have before apply), or that it cannot be
/// read. Findings there before apply that no setting fixes (a swapped cable, a slow optic) do not
/// count. Results that involve a device not yet settled (a far end a later step changes) are not
/// judged yet.
std::map<std::string, std::vector<std::string>> judge(const Run& run, const std::set<std::string>& staged) {
  std::map<std::string, std::vector<std::string>> why;
  std::string error;
  VerifyOptions options;
  options.checks = select_checks({}, error);
  options.scope = staged;
  options.needed = devices_needed(run.fabric.desired, staged);
  options.min_severity = Severity::error;
  options.passes = Passes::counted;
  const VerifyReport report = verify(run.fabric.desired, run.now, std::move(options));
  for (const std::string& d : staged)
    if (const DeviceFailure* f = run.now.failure(d)) why[d].push_back("cannot read it after staging: " + f->reason);
  for (const Result& r : report.results) {
    if (r.status != Status::fail || r.severity != Severity::error) continue;
    std::vector<std::string> involved{r.a.device};
    if (r.b) involved.push_back(r.b->device);
    const bool judged = std::all_of(involved.begin(), involved.end(), [&](const std::string& d) {
      return run.settled.count(d) > 0 || staged.count(d) > 0;
    });
    if (!judged || (!setting_drift(r.check) && run.baseline.count(finding_key(r)) > 0)) continue;
    const std::string line = terminal_line(r.check + " " + r.object() + ": " + r.message);
    for (const std::string& d : involved)
      if (staged.count(d) > 0) why[d].push_back(line);
  }
  return why;
}

std::string first_lines(const std::vector<std::string>& lines) {
  std::string s = lines.front();
  if (lines.size() > 1) s += " (and " + std::to_string(lines.size() - 1) + " more)";
  return s;
}

/// What the rolled-back devices of a step hold now, read again: the record says whether the rollback
/// restored the configuration the plan saw, and later steps judge their far ends against it.
void reread_rolled_back(Run& run, const std::vector<size_t>& wave, std::vector<std::string>& reread) {
  if (reread.empty()) return;
  std::sort(reread.begin(), reread.end());
  const RawByDevice back = read_again(run, reread);
  for (size_t at : wave) {
    DeviceOutcome& out = run.outcomes[at];
    if (!std::binary_search(reread.begin(), reread.end(), out.device)) continue;
    out.after_sha256 = config_hash(run, out.device, back);
    if (out.rolled_back && !out.after_sha256.empty() && out.after_sha256 != out.before_sha256)
      out.rollback_error = "rolled back, but its configuration differs from the one before apply";
  }
}

/// A device of a step: its transaction (built once), and when its revert timer was armed: between the
/// start and the end of its arming step, since the step's devices wait for the slowest stage before
/// verify. `prepared`: the stage steps before the one that arms went through (run for every device of
/// the step before any device arms, so that a slow preparation spends no one's window); `staged`: its
/// whole stage went through and it is neither rolled back nor failed since.
struct InStep {
  TransactionSteps steps;
  std::chrono::system_clock::time_point armed_from, armed_by;
  std::chrono::milliseconds took{0};  // from its arming step to the end of its stage
  bool touched = false;               // a stage step ran on it
  bool prepared = false;
  bool staged = false;
};

size_t step_workers(const Run& run, size_t devices) {
  return std::min<size_t>(static_cast<size_t>(std::max(1, run.o.jobs)), std::max<size_t>(1, devices));
}

/// Runs stage steps [from, to) of `d` on the device; nothing to run is nothing to open.
std::string run_stage_part(Run& run, const std::string& device, const InStep& d, size_t from, size_t to) {
  if (from >= to) return "";
  const auto first = d.steps.stage.begin();
  return run_on_device(
      run, device,
      std::vector<RemoteStep>(first + static_cast<std::ptrdiff_t>(from), first + static_cast<std::ptrdiff_t>(to)));
}

/// The stage step that arms `d`'s revert timer (none past the last).
size_t arming_step(const InStep& d) { return std::min(d.steps.arms, d.steps.stage.size()); }

/// Where `d`'s stage goes on once the step's devices are prepared: at its lock, or at its arming.
size_t ready_step(const InStep& d) {
  const size_t arms = arming_step(d);
  return d.steps.lock && *d.steps.lock < arms ? *d.steps.lock : arms;
}

/// Undoes a stage that failed, or that is not to go on, where none of its steps from `until` on ran:
/// before the first step that changes the device, only what it prepared (TransactionSteps::release,
/// where the platform tells that step: a rollback there could undo another transaction's change); else
/// the rollback.
void undo_stage(Run& run, const DevicePlan& p, const InStep& d, size_t until, DeviceOutcome& out) {
  const bool release = d.steps.changes > 0 && until <= d.steps.changes;
  roll_back(run, p, release ? d.steps.release : d.steps.rollback, out);
}

/// Why a device of the step is not to start (fabricctl interrupted, --max-failures reached); "" to go on.
std::string not_starting(Run& run) {
  if (run.ctx.stop.stop_requested()) return "not started: fabricctl was interrupted";
  if (run.o.max_failures > 0 && run.failures >= static_cast<size_t>(run.o.max_failures))
    return "not started: --max-failures " + std::to_string(run.o.max_failures) + " reached";
  return "";
}

/// The first part of `p`'s stage: the device's own check of the change, right before (plan's may be
/// minutes old; refused, the device is left as it is), then the stage steps before its lock or the one
/// that arms its revert timer (EOS's session lines, NVUE's `nv set` lines: nothing it runs changes yet).
/// Returns true when the device is to be armed.
bool prepare(Run& run, const DevicePlan& p, InStep& d, DeviceOutcome& out) {
  if (std::string why = not_starting(run); !why.empty()) {
    out.outcome = Outcome::skipped;
    out.reason = std::move(why);
    return false;
  }
  d.steps = steps_of(run, p);
  const DeviceDesired& device = run.desired(p.device);
  const Applier& applier = adapter(device.platform).applier;
  const std::vector<RemoteStep> check =
      applier.check ? applier.check(device, p.change, id_of(run, p)) : std::vector<RemoteStep>{};
  if (const std::string refused = check.empty() ? std::string() : run_on_device(run, p.device, check);
      !refused.empty()) {
    step_failed(run, p, out, "check", refused);
    return false;
  }
  const size_t ready = ready_step(d);
  if (ready == 0) return true;
  run.ctx.observer.event("stage", {{"device", p.device}, {"before_sha256", p.base_sha256}});
  d.touched = true;
  if (const std::string why = run_stage_part(run, p.device, d, 0, ready); !why.empty()) {
    step_failed(run, p, out, "stage", why);
    undo_stage(run, p, d, ready, out);
    return false;
  }
  return true;
}

/// The rest of `p`'s stage, once every device of the step is prepared: its lock where it comes right
/// before, the step that arms the revert timer, then the change; a failure is undone at once.
void arm_and_change(Run& run, const DevicePlan& p, InStep& d, DeviceOutcome& out) {
  const size_t size = d.steps.stage.size(), arms = arming_step(d), ready = ready_step(d);
  if (std::string why = not_starting(run); !why.empty()) {
    // Prepared and never armed: what it prepared is undone, nothing it runs changed.
    out.outcome = Outcome::skipped;
    out.reason = std::move(why);
    if (ready > 0) undo_stage(run, p, d, ready, out);
    return;
  }
  if (ready == 0) run.ctx.observer.event("stage", {{"device", p.device}, {"before_sha256", p.base_sha256}});
  d.touched = true;
  const size_t changes = std::min(std::max(d.steps.changes, arms + 1), size);
  const auto began = run.ctx.clock.now();
  std::string why;
  size_t reached = ready;  // the end of the last part run: the stage steps before it ran, or failed
  const auto part = [&](size_t to) {
    if (!why.empty()) return;
    why = run_stage_part(run, p.device, d, reached, std::max(reached, to));
    reached = std::max(reached, to);
  };
  part(arms);  // the lock
  d.armed_from = run.ctx.clock.now();
  part(std::min(arms + 1, size));
  d.armed_by = run.ctx.clock.now();
  part(changes);
  part(size);
  d.took = std::chrono::duration_cast<std::chrono::milliseconds>(run.ctx.clock.now() - began);
  if (why.empty()) {
    d.staged = true;
    run.ctx.observer.event("staged", {{"device", p.device}});
    return;
  }
  step_failed(run, p, out, "stage", why);
  // No step from `reached` on ran: one that failed before the first change (its lock refused, say) is
  // released, not rolled back.
  undo_stage(run, p, d, reached, out);
}

/// Once a step's stages are done, each staged device's revert window as it stands: one that ran out while
/// the others staged (its timer has rolled it back, or is about to) is failed, naming the slowest stage,
/// and rolled back (nothing left to undo there), rather than verified as if it held the change; one that
/// is more than half spent is re-armed for a whole window where its platform can (TransactionSteps::
/// extend), so that verify and confirm run inside it.
void keep_windows(Run& run, const std::vector<size_t>& wave, std::vector<InStep>& in,
                  std::vector<std::string>& reread) {
  size_t slowest = 0;
  for (size_t k = 0; k < wave.size(); ++k)
    if (in[k].took > in[slowest].took) slowest = k;
  const auto now = run.ctx.clock.now();
  parallel_for(wave.size(), step_workers(run, wave.size()), [&](size_t, size_t k) {
    InStep& d = in[k];
    if (!d.staged) return;
    const DevicePlan& p = run.plan.devices[wave[k]];
    DeviceOutcome& out = run.outcomes[wave[k]];
    const std::chrono::seconds window(d.steps.window_s > 0 ? d.steps.window_s : run.id.confirm_timeout_s);
    std::string why;
    if (now - d.armed_by >= window) {
      why = "its revert window (" + std::to_string(window.count()) +
            " s) ran out while the step's devices staged "
            "(the slowest stage: " +
            run.plan.devices[wave[slowest]].device + ", " + std::to_string(in[slowest].took.count() / 1000) +
            " s): the device rolled the change back by itself; give "
            "--confirm-timeout more than the slowest stage, or smaller steps (--batch)";
      step_failed(run, p, out, "stage", why);
    } else if (now - d.armed_from > window / 2 && !d.steps.extend.empty()) {
      why = run_on_device(run, p.device, d.steps.extend);
      if (why.empty()) run.ctx.observer.event("extended", {{"device", p.device}});
      else step_failed(run, p, out, "extend", why);
    }
    if (why.empty()) return;
    roll_back(run, p, d.steps.rollback, out);
    d.staged = false;
    const std::lock_guard<std::mutex> lock(run.mutex);
    reread.push_back(p.device);
  });
}

/// One step of the apply: stage `wave` (positions in plan.devices) at once, verify, then confirm or
/// roll back each device.
void run_wave(Run& run, const std::vector<size_t>& wave, const std::string& label) {
  const size_t workers = step_workers(run, wave.size());
  std::vector<InStep> in(wave.size());
  std::vector<std::string> reread;  // rolled back: read again at the end of the step
  std::atomic<size_t> done{0};
  run.ctx.observer.phase(label + ": staging " + std::to_string(wave.size()) + " devices");
  // Every device prepared before any is armed: the step's revert windows are spent by the arming and
  // the change only, never by another device's slow preparation (a long NVUE change's `nv set` lines).
  parallel_for(wave.size(), workers, [&](size_t, size_t k) {
    const DevicePlan& p = run.plan.devices[wave[k]];
    DeviceOutcome& out = run.outcomes[wave[k]];
    in[k].prepared = prepare(run, p, in[k], out);
  });
  parallel_for(wave.size(), workers, [&](size_t, size_t k) {
    if (in[k].prepared) arm_and_change(run, run.plan.devices[wave[k]], in[k], run.outcomes[wave[k]]);
    const std::lock_guard<std::mutex> lock(run.mutex);
    run.ctx.observer.phase(label + ": staged " + std::to_string(++done) + "/" + std::to_string(wave.size()) +
                           " devices");
  });
  // Stage steps ran and it is not staged: failed and undone, or prepared and released. Read again.
  for (size_t k = 0; k < wave.size(); ++k)
    if (in[k].touched && !in[k].staged) reread.push_back(run.plan.devices[wave[k]].device);
  keep_windows(run, wave, in, reread);
  std::set<std::string> staged_names;
  std::vector<size_t> staged_at;  // positions in `wave`
  for (size_t k = 0; k < wave.size(); ++k)
    if (in[k].staged) {
      staged_names.insert(run.plan.devices[wave[k]].device);
      staged_at.push_back(k);
    }
  if (staged_names.empty()) {
    reread_rolled_back(run, wave, reread);
    return;
  }

  // Verify what the devices now run, unless fabricctl was interrupted: then nothing is confirmed.
  std::map<std::string, std::vector<std::string>> why;
  RawByDevice raws;
  if (!run.ctx.stop.stop_requested()) {
    run.ctx.observer.phase(label + ": verifying " + std::to_string(staged_names.size()) + " devices");
    raws = read_again(run, {staged_names.begin(), staged_names.end()});
    why = judge(run, staged_names);
  }
  const bool interrupted = run.ctx.stop.stop_requested();
  run.ctx.observer.phase(label + ": confirming");
  parallel_for(staged_at.size(), workers, [&](size_t, size_t j) {
    const size_t k = staged_at[j];
    const DevicePlan& p = run.plan.devices[wave[k]];
    DeviceOutcome& out = run.outcomes[wave[k]];
    const TransactionSteps& steps = in[k].steps;
    const auto bad = why.find(p.device);
    if (interrupted) {
      out.outcome = Outcome::skipped;
      out.reason = "interrupted before it was confirmed: rolled back";
    } else if (bad != why.end()) {
      out.outcome = Outcome::failed;
      out.reason = "verify: " + first_lines(bad->second);
      ++run.failures;
      run.ctx.observer.event("verify_failed", {{"device", p.device}, {"findings", bad->second}});
    } else {
      const std::string confirm = run_on_device(run, p.device, steps.confirm);
      if (confirm.empty()) {
        out.outcome = Outcome::applied;
        out.after_sha256 = config_hash(run, p.device, raws);
        out.reason = "verified and confirmed";
        run.ctx.observer.event("confirmed", {{"device", p.device}, {"after_sha256", out.after_sha256}});
        return;
      }
      step_failed(run, p, out, "confirm", confirm);
    }
    roll_back(run, p, steps.rollback, out);
    const std::lock_guard<std::mutex> lock(run.mutex);
    reread.push_back(p.device);
  });
  for (size_t k : staged_at) {
    const DeviceOutcome& out = run.outcomes[wave[k]];
    if (out.outcome == Outcome::applied) run.settled.insert(out.device);
  }
  reread_rolled_back(run, wave, reread);
}

/// The health gate after `step` (ops/apply.h, HealthGate): "" when the step's counters stayed well, else
/// why the steps left do not start.
std::string health_gate(Run& run, const Wave& step) {
  const HealthGate& gate = run.o.health_gate;
  std::set<std::string> scope;
  for (size_t i : step.devices) scope.insert(run.plan.devices[i].device);
  const std::set<std::string> needed = devices_needed(run.fabric.desired, scope);
  const std::vector<std::string> read(needed.begin(), needed.end());
  CollectOptions how;
  how.jobs = run.o.jobs;
  how.counters = true;
  run.ctx.observer.phase("health gate after the " + step.label + " step: first reading");
  const FabricObserved before = collect_devices(run.fabric, read, how, run.ctx);
  run.ctx.observer.phase("health gate after the " + step.label + " step: waiting " +
                         std::to_string(gate.interval.count()) + " s");
  if (gate.wait && !gate.wait(gate.interval)) return "fabricctl was interrupted";
  run.ctx.observer.phase("health gate after the " + step.label + " step: second reading");
  const FabricObserved after = collect_devices(run.fabric, read, how, run.ctx);
  HealthOptions options;
  options.scope = scope;
  options.baseline = gate.baseline;
  const VerifyReport report = run_health(run.fabric.desired, before, after, options);
  std::vector<std::string> findings;
  for (const Result& r : report.results)
    if (r.status == Status::fail && r.severity == Severity::error)
      findings.push_back(terminal_line(r.check + " " + r.object() + ": " + r.observed));
  for (const auto& [device, why] : report.unreadable)
    if (scope.count(device) > 0) findings.push_back(terminal_line(device + ": counters unreadable: " + why));
  run.ctx.observer.event("health_gate", {{"step", step.label}, {"findings", findings}});
  if (findings.empty()) return {};
  return "the health gate after the " + step.label + " step found " + first_lines(findings);
}

}  // namespace

ApplyResult apply_plan(const Fabric& fabric, const FabricPlan& plan, const FabricObserved& observed,
                       const ApplyOptions& o, Context& outer) {
  // One session a device through check, stage, verify's reads, confirm and rollback (ops/session_pool.h).
  SessionPool pool(outer.connector, outer.clock);
  Context ctx{pool, outer.observer, outer.clock, outer.stop};
  Run run{fabric, plan, o, ctx, {}, {}, {}, observed, {}, {}, {}, {}};
  run.id.name = o.transaction;
  run.id.confirm_timeout_s = o.confirm_timeout_s;
  for (size_t i = 0; i < fabric.desired.devices.size(); ++i) run.index.emplace(fabric.desired.devices[i].name, i);
  run.baseline = findings_before(fabric, plan, observed);
  std::vector<size_t> order;  // the devices that change, in plan order
  run.outcomes.resize(plan.devices.size());
  for (size_t i = 0; i < plan.devices.size(); ++i) {
    const DevicePlan& p = plan.devices[i];
    DeviceOutcome& out = run.outcomes[i];
    out.device = p.device;
    out.platform = p.platform;
    out.before_sha256 = p.base_sha256;
    if (p.failed()) {
      // Refused by its own check when planned: reached, and failed (not `unreachable`); nothing staged.
      out.outcome = p.refused ? Outcome::failed : Outcome::unreachable;
      out.reason = p.error;
      ++run.failures;
    } else if (!p.changes()) {
      out.outcome = Outcome::unchanged;
      out.after_sha256 = p.base_sha256;
      run.settled.insert(p.device);
    } else {
      order.push_back(i);
    }
  }
  // The canary step, then the rest: at once, or in waves (ops/waves.h). A step starts only when every
  // device of the steps before it was applied: the steps before are its health gate.
  std::vector<std::string> names;
  names.reserve(plan.devices.size());
  for (const DevicePlan& p : plan.devices) names.push_back(p.device);
  const std::vector<Wave> waves =
      plan_waves(fabric.desired, order, names, static_cast<size_t>(std::max(0, o.canary)), o.batch, o.by);
  std::string stopped;  // why the waves left do not start
  for (size_t w = 0; w < waves.size(); ++w) {
    if (stopped.empty() && ctx.stop.stop_requested()) stopped = "fabricctl was interrupted";
    if (stopped.empty() && w > 0 && o.between_waves && !o.between_waves(waves[w - 1].label, waves[w].label))
      stopped = "stopped after the " + waves[w - 1].label + " step";
    if (!stopped.empty()) {
      for (size_t i : waves[w].devices) {
        run.outcomes[i].outcome = Outcome::skipped;
        run.outcomes[i].reason = "not started: " + stopped;
      }
      continue;
    }
    ctx.observer.event("step", {{"step", waves[w].label}, {"devices", waves[w].devices.size()}});
    run_wave(run, waves[w].devices, waves[w].label);
    if (std::any_of(waves[w].devices.begin(), waves[w].devices.end(),
                    [&](size_t i) { return run.outcomes[i].outcome != Outcome::applied; }))
      stopped = "the " + waves[w].label + " step failed";
    else if (w + 1 < waves.size() && o.health_gate.interval.count() > 0 && !ctx.stop.stop_requested())
      stopped = health_gate(run, waves[w]);
    // The step is over for its devices: their sessions close (a run holds a descriptor per device in flight).
    for (size_t i : waves[w].devices) pool.release(plan.devices[i].device);
  }
  ctx.observer.clear();
  ApplyResult result;
  result.transaction = o.transaction;
  result.devices = std::move(run.outcomes);
  result.interrupted_by = ctx.stop.reason();
  return result;
}

}  // namespace fabricctl::ops
