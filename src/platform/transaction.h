// The write side of a platform: what apply would change on a device (its native change, computed from
// what collection read), and the device's own transaction that makes the change safely: stage it with
// the device's revert timer armed, keep it once verify has passed, or roll it back. Pure: the adapter
// builds commands and judges their outputs; `fabricctl apply` (ops/apply.cpp) runs them on the devices.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "state/desired.h"
#include "util/expected.h"

namespace fabricctl {

/// What apply would change on one device, in the platform's own terms.
struct NativeChange {
  /// The change as a reviewer reads it (`plan`, plan/<device>/<file>): SONiC an RFC 6902 patch, EOS the
  /// lines of a configure session, NVUE `nv set`/`nv unset` commands, a Linux host the changes
  /// `fabricctl host apply` would make. Empty: the device already holds its desired configuration.
  std::string text;
  /// What the transaction sends (the patch, the session lines, the commands; for a host its desired
  /// NIC state). Often `text` itself.
  std::string payload;
  /// The device's configuration the change was computed against, as canonical text. A saved plan
  /// keeps its SHA-256, so that apply refuses a device that changed since the plan was made.
  std::string base;
  /// What a reviewer should know about how the change goes on this device, one line each (SONiC: its
  /// image, and which part goes by which command). Shown with the change; not part of it.
  std::vector<std::string> notes;

  [[nodiscard]] bool empty() const { return text.empty(); }
};

/// One command of a transaction, run on the device over SSH.
struct RemoteStep {
  std::string what;     // for messages and the audit record: "start the commit timer"
  std::string command;  // as the device's SSH exec takes it: fixed text, every value checked and quoted
  std::string input;    // written to its standard input, then end of file ("" for none)
};

/// A transaction's name and its revert timer.
struct TransactionId {
  /// fabricctl-YYYYMMDDTHHMMSS-<6 hex>: names the EOS session, the SONiC checkpoint, the NVUE
  /// revision message, the host's rollback record. Only [a-z0-9T-], so it can be used unquoted.
  std::string name;
  /// The device reverts the staged change by itself unless it is confirmed within this many seconds:
  /// what makes a fabricctl killed between stage and confirm harmless.
  int confirm_timeout_s = 300;
  /// The host's fabricctl (inventory mgmt.fabricctl), for the platforms whose transaction runs it.
  std::string fabricctl = "fabricctl";
};

/// The commands of one device's transaction, in the order they run.
struct TransactionSteps {
  std::vector<RemoteStep> stage;     // send the change and make it running, the device's revert timer armed
  std::vector<RemoteStep> confirm;   // keep it: disarm the timer and save it as the startup configuration
  std::vector<RemoteStep> rollback;  // back to the configuration before `stage`, now
  /// Re-arms the revert timer for a whole window from now, for a device staged early in a step that
  /// waits for the step's slowest stage before verify; empty where the platform cannot (docs/apply.md).
  std::vector<RemoteStep> extend;
  /// Undoes what the stage steps before `changes` did (the device's lock, the revert timer, files kept
  /// for the revert) without touching what the device runs: what a stage that failed before `changes`
  /// needs instead of `rollback`, which could undo another transaction's change. Each step harmless where
  /// stage did not get that far. Empty, with `changes` told: nothing to undo (Junos's lock only reads).
  std::vector<RemoteStep> release;
  /// The stage step that arms the revert timer: the window runs from that step on. The steps before it
  /// only prepare (EOS's session, NVUE's pending revision): apply runs them on every device of a step
  /// before it arms any, so that no device's window is spent by another's slow preparation.
  size_t arms = 0;
  /// The stage step that takes the device's lock when the lock must come right before `arms` (the
  /// device's own view of what is in flight, read at the last moment); apply runs it with the arming,
  /// after the step's devices are prepared. None: no such step (SONiC's and NX-OS's lock is the armed
  /// revert itself, after `arms`).
  std::optional<size_t> lock;
  /// The first stage step that changes what the device runs; the steps before it only prepare and lock.
  /// 0: not told (a failure anywhere in stage runs `rollback`).
  size_t changes = 0;
  /// The window as the device counts it, in seconds (whole minutes on Junos and NVUE); 0: the
  /// transaction's confirm_timeout_s.
  int window_s = 0;
};

/// What a remote command printed, and how it ended.
struct StepOutput {
  int exit_status = -1;
  std::string_view out;
  std::string_view err;
};

struct Applier {
  /// plan/<device>/<change_file>: the change as a reviewer reads it ("patch.json", "session.cfg").
  std::string_view change_file = "change.txt";
  /// The transaction in a few words, for the plan's table: "checkpoint, apply-patch, rollback timer".
  std::string_view transaction;
  /// The device's native change: from its desired state and the outputs its collector read
  /// (RawOutputs, platform.h). nullptr: fabricctl cannot change this platform.
  Expected<NativeChange> (*change)(const DeviceDesired& device,
                                   const std::map<std::string, std::string, std::less<>>& raw) = nullptr;
  /// The transaction that makes `change` on the device.
  TransactionSteps (*steps)(const DeviceDesired& device, const NativeChange& change, const TransactionId& id) = nullptr;
  /// Read-only commands by which the device judges the change before it is made (SONiC: the config
  /// updater's dry run; EOS: no other session holds the commit timer), judged by `failure`: a refusal
  /// means the device is not to be changed now. `plan` runs them when it reads the devices live and
  /// shows the verdict; `apply` runs them again right before stage, where a refusal fails the device
  /// with nothing sent. None (or nullptr): no such check for the platform or this change.
  /// `id`: the transaction apply would run (plan: its fabricctl only, no name yet).
  std::vector<RemoteStep> (*check)(const DeviceDesired& device, const NativeChange& change,
                                   const TransactionId& id) = nullptr;
  /// Why a step failed, "" when it did not: beyond its exit status, a CLI that reports errors in its
  /// output (EOS "% Invalid input") is judged here. Device output is untrusted: the reason is cut to
  /// one line.
  std::string (*failure)(const RemoteStep& step, const StepOutput& out) = nullptr;
};

/// How a remote command ended, for messages: "exited with status N"; for -1, the status SSH reports
/// when the channel closed with none (RFC 4254 6.10: the server "SHOULD" send one, and some NOS SSH
/// servers do not), "ended without an exit status".
std::string ended_text(int exit_status);

/// The default judgment: a non-zero exit status, with the first line of stderr (or stdout).
std::string exit_status_failure(const RemoteStep& step, const StepOutput& out);
/// The same with the reason a platform found in the output (`why`, when it is not "").
std::string exit_status_failure(const RemoteStep& step, const StepOutput& out, const std::string& why);

/// The first line of stderr, then of stdout, that begins with one of `prefixes` (a CLI's error mark:
/// EOS "%", NVUE "Error:"), cut to one printable line of at most 200 characters; "" when none does.
std::string marked_line(const StepOutput& out, std::initializer_list<std::string_view> prefixes);

/// The first line of `text` that is not blank, cut the same way; "" when there is none.
std::string first_text_line(std::string_view text);

}  // namespace fabricctl
