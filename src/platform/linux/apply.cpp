// Linux host write side. The controller computes the change from the snapshot `host collect` printed
// (linux/collect.cpp) and the host's desired NIC state; the host makes it itself, with the same diff
// (linux/host_changes.h) over what it reads at that moment:
//
//   stage     FABRICCTL host apply --device N --transaction ID --confirm-timeout S   (stdin: nic-state.json)
//               writes the rollback record (previous values), arms the revert timer (a detached
//               `host rollback --transaction ID --after S`), then changes what differs; a failure
//               midway restores what it changed and exits non-zero
//   confirm   FABRICCTL host confirm --transaction ID      stops the timer, drops the record
//   rollback  FABRICCTL host rollback --transaction ID     restores the record's values now (none: a no-op)
//   extend    FABRICCTL host extend --transaction ID --confirm-timeout S
//                                                         the timer stopped and armed again from now
//   check     FABRICCTL host pending                      the transactions staged and not confirmed: one
//                                                         is in flight (plan, and right before stage)
//
// Nothing a Linux host changes this way survives a reboot (netlink and sysfs state is the kernel's; only
// nccl.conf is a file): persistence is apply.sh's or the host's provisioning's job (docs/transactions-linux.md).

#include "platform/cli_text.h"
#include "platform/linux/host_changes.h"
#include "platform/platform.h"
#include "state/snapshot.h"
#include "util/escape.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kHostCollect = "host-collect.json";
constexpr std::string_view kPending = "read the transactions staged on the host (none may be in flight)";

/// Whether the values that reach the host's shell are what the inventory promised: a program path, a
/// device name, a transaction name of [a-z0-9T-].
bool safe_id(const TransactionId& id) {
  return valid_program_path(id.fabricctl) &&
         id.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789T-") == std::string::npos;
}

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  const auto it = raw.find(kHostCollect);
  if (it == raw.end()) return unexpected("no " + std::string(kHostCollect) + " was collected");
  auto observed = parse_snapshot(it->second);
  if (!observed) return unexpected("fabricctl host collect printed no snapshot: " + observed.error());
  if (observed->name != device.name)
    return unexpected("fabricctl host collect answered for device \"" + terminal_line(observed->name) + "\", not " +
                      device.name);
  const Document state = linux_nic_state(device);
  auto changes = linux_host::host_changes(state, *observed);
  if (!changes) return unexpected(changes.error());
  NativeChange c;
  c.text = linux_host::change_text(*changes);
  c.payload = linux_nic_state_json(device, state);
  c.base = linux_host::observed_config_text(*observed);
  return c;
}

TransactionSteps steps(const DeviceDesired& device, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty()) return s;
  // The inventory checked these already; a value that fails here is a bug, and must not run.
  const bool ok = safe_id(id) && valid_device_name(device.name) && !id.name.empty();
  const std::string fc = ok ? shell_quote(id.fabricctl) : "false";
  const std::string tx = " --transaction " + shell_quote(id.name);
  const std::string timeout = std::to_string(std::max(1, id.confirm_timeout_s));
  s.stage.push_back(
      {"apply the NIC state with the host's revert timer armed for " + timeout + " s",
       ok ? fc + " host apply --device " + shell_quote(device.name) + tx + " --confirm-timeout " + shell_quote(timeout)
          : "false",
       change.payload});
  s.window_s = std::max(1, id.confirm_timeout_s);
  s.extend.push_back({"re-arm the host's revert timer for " + timeout + " s from now",
                      ok ? fc + " host extend" + tx + " --confirm-timeout " + shell_quote(timeout) : "false", ""});
  s.confirm.push_back({"confirm (stops the host's revert timer)", ok ? fc + " host confirm" + tx : "false", ""});
  s.rollback.push_back({"restore the previous NIC state now", ok ? fc + " host rollback" + tx : "false", ""});
  return s;
}

/// With or without a change: a transaction staged on the host and not confirmed is one in flight (a
/// killed apply's), whose timer restores the NIC state before it; a second would be refused by the host.
std::vector<RemoteStep> check(const DeviceDesired&, const NativeChange&, const TransactionId& id) {
  if (!valid_program_path(id.fabricctl)) return {{std::string(kPending), "false", ""}};
  return {{std::string(kPending), shell_quote(id.fabricctl) + " host pending", ""}};
}

/// "at 2026-12-03T06:05:00Z" from `host pending`'s seconds since the epoch; "" when it gave none.
std::string when(std::string_view epoch) {
  const auto s = parse_u64(epoch);
  if (!s) return "";
  const std::string at = utc_from_epoch(static_cast<double>(*s));
  return at.empty() ? "" : " at " + at;
}

std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (step.what != kPending) return exit_status_failure(step, out);
  // A host whose fabricctl predates `host pending` cannot tell: not asked, as on NVUE (docs/apply.md).
  if (out.exit_status == 2 && out.err.find("unknown host subcommand") != std::string_view::npos) return "";
  if (std::string r = exit_status_failure(step, out); !r.empty()) return r;
  std::vector<std::string> staged;
  for (const std::string& line : split_lines(out.out)) {
    const std::vector<std::string_view> words = words_of(line);
    if (words.empty()) continue;
    if (words.size() != 2) return step.what + ": not a line of `host pending`: " + first_text_line(line);
    staged.push_back(terminal_line(words[0].substr(0, 64)) + " (its timer restores the NIC state" + when(words[1]) +
                     ")");
  }
  if (staged.empty()) return "";
  return "a fabricctl transaction is staged on the host and not confirmed: " + join(staged, ", ") +
         "; confirm or undo it with `fabricctl apply --resume|--undo RECORD`, or wait";
}

}  // namespace

Applier linux_applier() {
  Applier a;
  a.change_file = "changes.txt";
  a.transaction = "host apply with a revert timer, confirm after verify";
  a.change = change;
  a.steps = steps;
  a.check = check;
  a.failure = failure;
  return a;
}

}  // namespace fabricctl
