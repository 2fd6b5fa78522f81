// fabricctl apply: makes the plan (made now, or saved by `plan --out`) on the devices with each
// platform's own transaction, verifies, confirms or rolls back, and writes an audit record
// (docs/apply.md). Changing devices takes --yes, or "yes" typed at a terminal.
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <set>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/plan_inputs.h"
#include "cli/plan_report.h"
#include "cli/progress.h"
#include "cli/sleep.h"
#include "cli/two_readings.h"
#include "ops/apply_record.h"
#include "ops/apply_run.h"
#include "ops/inventory_lock.h"
#include "ops/plan_file.h"
#include "ops/resume.h"
#include "render/stop_signals.h"
#include "util/diag.h"
#include "util/escape.h"

namespace fabricctl {
namespace {

namespace po = boost::program_options;

/// An integer option left out: what --resume and --undo fill from the record, the rest from defaults.
constexpr int kNotGiven = INT_MIN;

/// Where audit records go unless --audit-dir says: $FABRICCTL_AUDIT_DIR, else
/// /var/log/fabricctl/audit for root, else $XDG_STATE_HOME (~/.local/state)/fabricctl/audit.
std::string default_audit_dir() {
  if (const char* env = std::getenv("FABRICCTL_AUDIT_DIR"); env && *env) return env;
  if (::geteuid() == 0) return "/var/log/fabricctl/audit";
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state)
    return std::string(state) + "/fabricctl/audit";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.local/state/fabricctl/audit";
  return "fabricctl-audit";
}

using ops::ApplyResult;
using ops::DeviceOutcome;
using ops::DevicePlan;
using ops::FabricPlan;
using ops::Outcome;

/// Why a saved plan is refused: each stale device, then what to do.
void print_stale(const std::vector<std::string>& stale) {
  for (const std::string& s : stale) std::cerr << "fabricctl: " << terminal_line(s) << "\n";
  std::cerr << "fabricctl: error: the saved plan no longer applies (" << stale.size()
            << (stale.size() == 1 ? " device" : " devices")
            << "); nothing was changed: make a new plan and review it\n";
}

/// Exit code of an apply (docs/cli.md): 3 when a device failed, was unreachable or was skipped, else 0.
int apply_exit_code(const ApplyResult& r) { return ops::all_applied(r) ? kExitOk : kExitDevice; }

/// "yes" typed at the terminal.
bool confirmed_at_terminal(size_t devices) {
  std::cerr << "Apply these changes to " << devices << (devices == 1 ? " device" : " devices")
            << "? Only 'yes' is accepted: " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer == "yes";
}

void write_outcomes(const ApplyResult& r, std::ostream& out) {
  size_t w = 6;
  for (const DeviceOutcome& d : r.devices) w = std::max(w, d.device.size());
  auto pad = [&](std::string_view s, size_t width) {
    out << s;
    for (size_t i = s.size(); i < width; ++i) out << ' ';
  };
  pad("DEVICE", w + 2);
  pad("PLATFORM", 10);
  pad("OUTCOME", 13);
  out << "DETAIL\n";
  for (const DeviceOutcome& d : r.devices) {
    pad(d.device, w + 2);
    pad(to_string(d.platform), 10);
    const bool failed = d.outcome == Outcome::failed || (d.outcome == Outcome::skipped && d.rolled_back);
    pad(failed ? (d.rolled_back ? "rolled back" : "failed") : to_string(d.outcome), 13);
    out << terminal_line(d.reason);
    if (!d.rollback_error.empty()) out << "; rollback: " << terminal_line(d.rollback_error);
    out << "\n";
  }
  out << "\n"
      << r.count(Outcome::applied) << " applied, " << r.count(Outcome::failed) << " failed, "
      << r.count(Outcome::unreachable) << " unreachable, " << r.count(Outcome::skipped) << " skipped, "
      << r.count(Outcome::unchanged) << " unchanged (transaction " << r.transaction << ").\n";
}

/// The record --resume or --undo names, if it can be continued now: not still being written, and no
/// device of it still inside its revert window.
std::optional<ops::RecordedApply> load_recorded(const std::string& arg, const std::string& audit_dir) {
  auto r = ops::load_apply_record(arg, audit_dir);
  if (!r) {
    std::cerr << "fabricctl: error: " << terminal_line(r.error()) << "\n";
    return std::nullopt;
  }
  if (ops::record_in_use(r->path)) {
    std::cerr << "fabricctl: error: " << r->transaction
              << " is still running (its process holds the audit record); nothing was changed\n";
    return std::nullopt;
  }
  const auto pending = ops::pending_reverts(*r, ops::system_clock().now());
  if (!pending.empty()) {
    for (const std::string& p : pending) std::cerr << "fabricctl: " << terminal_line(p) << "\n";
    std::cerr << "fabricctl: error: " << pending.size() << (pending.size() == 1 ? " device" : " devices") << " of "
              << r->transaction
              << " may still revert by itself; nothing was changed: run this again once the timers have fired\n";
    return std::nullopt;
  }
  return std::move(*r);
}

/// The record's options, for those not given on the command line. A resume after the canary step was
/// applied has no canary of its own: the record's canary already proved the change.
void take_recorded_options(const ops::RecordedApply& r, bool undo, std::string& batch, std::string& by,
                           int& health_gate_s, ops::ApplyOptions& a) {
  if (a.canary == kNotGiven) a.canary = undo || r.count(ops::RecordedState::confirmed) == 0 ? r.canary : 0;
  if (batch.empty()) batch = r.batch;
  if (by.empty()) by = r.by;
  if (health_gate_s == kNotGiven) health_gate_s = r.health_gate_s;
  if (a.max_failures == kNotGiven) a.max_failures = r.max_failures;
  if (a.confirm_timeout_s == kNotGiven) a.confirm_timeout_s = r.confirm_timeout_s;
}

/// After an undo: which devices are back to the configuration the record's plan saw.
void write_undo_check(const ops::UndoCheck& c, const ops::RecordedApply& r, std::ostream& out) {
  out << c.restored.size() << (c.restored.size() == 1 ? " device is" : " devices are")
      << " back to its configuration before " << r.transaction << ".\n";
  for (const std::string& d : c.differs)
    out << d << ": applied, but its configuration differs from the one before " << r.transaction
        << " (something the intent does not cover changed too, or the intent given is not the one before it)\n";
}

}  // namespace

int cmd_apply(const std::vector<std::string>& args) {
  FabricOptions o;
  PlanInputs in;
  ops::ApplyOptions a;
  std::string plan_dir, audit_dir, output = "table", batch, by, baseline_dir, resume, undo;
  // kNotGiven (and "" above): not on the command line, so that --resume and --undo can take the record's.
  int health_gate_s = kNotGiven;
  a.canary = kNotGiven;
  a.max_failures = kNotGiven;
  a.confirm_timeout_s = kNotGiven;
  bool yes = false, dry_run = false, quiet = false, pause = false;
  po::options_description desc("apply options");
  add_fabric_options(desc, o);
  desc.add_options()("plan", po::value(&plan_dir)->value_name("DIR"),
                     "apply exactly the plan `fabricctl plan --out DIR` saved (refused if a device changed since)")(
      "yes,y", po::bool_switch(&yes), "change the devices without asking")("dry-run", po::bool_switch(&dry_run),
                                                                           "print the plan and change nothing")(
      "canary", po::value(&a.canary)->value_name("N"),
      "apply N devices first and verify them before the rest start (default 0: all in one step)")(
      "batch", po::value(&batch)->value_name("N|P%"),
      "after the canary, N devices (or P% of those that change) a step, each step verified and applied before "
      "the next starts (default: the rest in one step)")(
      "by", po::value(&by)->value_name("UNIT"),
      "what a step never splits: link (default: both ends of as many links as possible in one step), rail "
      "or group (a device's first group)")("pause", po::bool_switch(&pause),
                                           "ask at the terminal before each step after the first")(
      "health-gate", po::value(&health_gate_s)->value_name("S"),
      "between steps, read the counters of the step just applied twice, S seconds apart, and start no further "
      "step if `health` finds an error there (default 0: off)")(
      "max-failures", po::value(&a.max_failures)->value_name("K"),
      "start no new device after K devices failed (default 0: no limit); devices already in flight (up to -j) "
      "finish")("confirm-timeout", po::value(&a.confirm_timeout_s)->value_name("S"),
                "seconds after which a device reverts a staged change that was not confirmed (default 300)")(
      "resume", po::value(&resume)->value_name("RECORD"),
      "continue the apply RECORD recorded (its audit record, or its transaction name in the audit directory): "
      "the devices it did not apply, with its options unless given here")(
      "undo", po::value(&undo)->value_name("RECORD"),
      "change back the devices the apply RECORD confirmed, to the intent given (the one before it); refused if "
      "one changed since")(
      "audit-dir", po::value(&audit_dir)->value_name("DIR"),
      "where the audit record goes (default $FABRICCTL_AUDIT_DIR, /var/log/fabricctl/audit as root, else "
      "~/.local/state/fabricctl/audit)")("output,o", po::value(&output)->value_name("FORMAT"),
                                         "the outcome: table (default) or json")("quiet,q", po::bool_switch(&quiet),
                                                                                 "no progress on stderr");
  add_baseline_option(desc, baseline_dir);
  add_plan_inputs(desc, in, false);
  int exit = kExitOk;
  if (!parse_args(
          args, desc,
          "fabricctl apply -i INVENTORY [--plan DIR] (--yes | --dry-run) [--canary N] [--batch N|P%] [--by UNIT] "
          "[--pause] [--health-gate S [--baseline DIR]] [--max-failures K] [--confirm-timeout S] [--audit-dir DIR] "
          "[--limit GLOB]... [--resume RECORD | --undo RECORD]",
          exit))
    return exit;
  if (const std::string e = check_choice("-o", output, {"table", "json"}); !e.empty()) {
    std::cerr << "fabricctl: error: " << e << "\n";
    return kExitInvalid;
  }
  if ((a.canary < 0 && a.canary != kNotGiven) || (a.max_failures < 0 && a.max_failures != kNotGiven)) {
    std::cerr << "fabricctl: error: --canary and --max-failures take 0 or more devices\n";
    return kExitInvalid;
  }
  if (audit_dir.empty()) audit_dir = default_audit_dir();
  std::optional<ops::RecordedApply> recorded;
  if (!resume.empty() || !undo.empty()) {
    if (!resume.empty() && !undo.empty()) {
      std::cerr << "fabricctl: error: --resume or --undo: one of them\n";
      return kExitInvalid;
    }
    if (!plan_dir.empty()) {
      std::cerr << "fabricctl: error: --" << (resume.empty() ? "undo" : "resume")
                << " plans from the devices now; --plan is for a plan reviewed before\n";
      return kExitInvalid;
    }
    auto r = load_recorded(resume.empty() ? undo : resume, audit_dir);
    if (!r) return kExitInvalid;
    recorded = std::move(*r);
    take_recorded_options(*recorded, !undo.empty(), batch, by, health_gate_s, a);
  }
  if (a.canary == kNotGiven) a.canary = 0;
  if (a.max_failures == kNotGiven) a.max_failures = 0;
  if (a.confirm_timeout_s == kNotGiven) a.confirm_timeout_s = 300;
  if (health_gate_s == kNotGiven) health_gate_s = 0;
  if (by.empty()) by = "link";
  if (!batch.empty()) {
    auto b = ops::parse_batch(batch);
    if (!b) {
      std::cerr << "fabricctl: error: " << b.error() << "\n";
      return kExitInvalid;
    }
    a.batch = *b;
  }
  if (auto u = ops::parse_wave_unit(by); u) {
    a.by = *u;
  } else {
    std::cerr << "fabricctl: error: " << u.error() << "\n";
    return kExitInvalid;
  }
  if (pause && !dry_run && (::isatty(STDIN_FILENO) != 1 || ::isatty(STDERR_FILENO) != 1)) {
    std::cerr << "fabricctl: error: --pause asks at a terminal, and there is none; nothing was changed\n";
    return kExitInvalid;
  }
  if (health_gate_s < 0 || health_gate_s > 3600) {
    std::cerr << "fabricctl: error: --health-gate takes 0-3600 seconds, not " << health_gate_s << "\n";
    return kExitInvalid;
  }
  if (!baseline_dir.empty() && health_gate_s == 0) {
    std::cerr << "fabricctl: error: --baseline is what --health-gate judges against: give --health-gate S\n";
    return kExitInvalid;
  }
  std::optional<Baseline> baseline;
  if (!load_baseline_option(baseline_dir, baseline)) return kExitInvalid;
  // Long enough to stage, read again and verify a device; at most a day.
  if (a.confirm_timeout_s < 5 || a.confirm_timeout_s > 86400) {
    std::cerr << "fabricctl: error: --confirm-timeout takes 5-86400 seconds, not " << a.confirm_timeout_s << "\n";
    return kExitInvalid;
  }
  std::optional<FabricPlan> saved;
  if (!plan_dir.empty()) {
    auto loaded = ops::load_plan(plan_dir);
    if (!loaded) {
      std::cerr << "fabricctl: error: " << loaded.error() << "\n";
      return kExitInvalid;
    }
    saved = std::move(*loaded);
  }
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  auto scope = plan_scope(*fabric, in);
  if (!scope) return kExitInvalid;
  if (recorded) {
    const std::set<std::string> of_record = resume.empty() ? ops::undo_scope(*recorded) : ops::resume_scope(*recorded);
    if (of_record.empty() || (!resume.empty() && recorded->exit == kExitOk)) {
      std::cout << recorded->transaction
                << (resume.empty() ? " confirmed no device: nothing to undo.\n"
                                   : " applied every device it changed: nothing to resume.\n");
      return kExitOk;
    }
    std::erase_if(scope->scope, [&](const std::string& d) { return !of_record.contains(d); });
  }
  // One apply of an inventory at a time on this controller, taken before anything is read.
  std::optional<FileLock> held;
  if (!dry_run) {
    auto lock = ops::lock_inventory(audit_dir, o.inventory, ops::utc_text(ops::system_clock().now()));
    if (!lock) {
      std::cerr << "fabricctl: error: " << lock.error() << "\n";
      return kExitDevice;
    }
    held.emplace(std::move(*lock));
  }
  Progress progress = stderr_progress(quiet);
  const auto connector = connector_of(in.read);
  // SIGINT and SIGTERM: no new device starts, what is staged is rolled back, then the signal ends
  // the process as it means to. SIGKILL: each device's revert timer restores it.
  ops::Context ctx{*connector, progress, ops::system_clock(), ops::StopToken(stop_signal)};
  const ops::ApplyPlan planned = ops::plan_apply(*fabric, scope->scope, scope->how, saved, ctx);
  if (!planned.stale.empty()) {
    print_stale(planned.stale);
    return kExitInvalid;
  }
  const FabricPlan& plan = planned.planned.plan;
  if (recorded) {
    const auto conflicts =
        resume.empty() ? ops::undo_conflicts(*recorded, plan) : ops::resume_conflicts(*recorded, plan);
    if (!conflicts.empty()) {
      for (const std::string& c : conflicts) std::cerr << "fabricctl: " << terminal_line(c) << "\n";
      std::cerr << "fabricctl: error: this is not " << (resume.empty() ? "an undo" : "a resume") << " of "
                << recorded->transaction << "; nothing was changed\n";
      return kExitInvalid;
    }
  }
  for (const DevicePlan& d : plan.devices)
    if (d.failed()) std::cerr << "fabricctl: " << d.device << ": " << terminal_line(d.error) << "\n";
  // A saved plan was reviewed as it was made: its devices and findings again, not every change.
  if (output == "table") write_plan_table(plan, std::cout, saved ? PlanChanges::left_out : PlanChanges::shown);
  std::cout.flush();
  if (dry_run) return plan_exit_code(plan) == kExitDevice ? kExitDevice : kExitOk;
  if (plan.changed() == 0) {
    if (output == "json")
      std::cout << nlohmann::ordered_json{{"schema", "fabricctl.apply/v1"}, {"devices", {}}}.dump(2) << "\n";
    else if (plan.failed() > 0)
      std::cout << "Nothing else to change: " << plan.failed() << " device(s) could not be planned (named above).\n";
    else std::cout << "Nothing to change.\n";
    return plan.failed() > 0 ? kExitDevice : kExitOk;
  }
  if (!yes) {
    if (::isatty(STDIN_FILENO) != 1 || ::isatty(STDERR_FILENO) != 1) {
      std::cerr << "fabricctl: error: apply changes " << plan.changed()
                << " devices: give --yes (or run it at a terminal to confirm); nothing was changed\n";
      return kExitInvalid;
    }
    if (!confirmed_at_terminal(plan.changed())) {
      std::cerr << "fabricctl: nothing was changed\n";
      return kExitInvalid;
    }
  }
  a.jobs = in.read.jobs;
  a.health_gate.interval = std::chrono::seconds(health_gate_s);
  a.health_gate.baseline = baseline ? &*baseline : nullptr;
  a.health_gate.wait = sleep_unless_stopped;
  if (pause)
    a.between_waves = [&progress](const std::string& done, const std::string& next) {
      progress.clear();
      std::cerr << "The " << done << " step is verified. Start the " << next
                << " step? Only 'yes' is accepted: " << std::flush;
      std::string answer;
      return std::getline(std::cin, answer) && answer == "yes";
    };
  ops::ApplyRecord record{audit_dir, o.inventory, plan_dir, apply_exit_code};
  if (recorded) record.start_extra[resume.empty() ? "undoes" : "resumes"] = recorded->transaction;
  StopSignals signals;
  auto run = ops::run_apply(*fabric, planned, a, record, ctx);
  if (!run) {
    std::cerr << "fabricctl: error: " << run.error() << "; nothing was changed\n";
    return kExitInvalid;
  }
  const ApplyResult& result = run->result;
  progress.clear();
  if (output == "json") std::cout << ops::outcomes_json(result).dump(2) << "\n";
  else write_outcomes(result, std::cout);
  if (recorded && !undo.empty() && output == "table")
    write_undo_check(ops::check_undo(*recorded, result), *recorded, std::cout);
  std::cout << std::flush;
  std::cerr << "fabricctl: audit record: " << run->record.string() << "\n";
  if (!run->record_error.empty()) std::cerr << "fabricctl: error: " << run->record_error << "\n";
  if (result.interrupted_by != 0) {
    std::cerr << "fabricctl: interrupted: staged devices were rolled back, no new device was started\n";
    signals.reraise();
  }
  return apply_exit_code(result);
}

}  // namespace fabricctl
