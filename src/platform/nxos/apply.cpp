// Cisco NX-OS write side: the blocks the running-config lacks (change.h), sent in one `configure terminal`
// exec after a named checkpoint, with a revert armed on the switch (docs/transactions-nxos.md):
//
//   check     show running-config eem               no other fabricctl revert may be armed
//   stage     terminal dont-ask ; checkpoint ID      running as it was, kept by NX-OS (up to ten)
//             configure terminal ; event manager applet ID ; event timer countdown time S ;
//               action 1 cli terminal dont-ask ; action 2 cli rollback running-config checkpoint ID ; end
//                                                    the revert: NX-OS rolls back by itself after S seconds
//             show running-config eem               the lock: this transaction's applet the only one
//             configure terminal ; <change> ; end    the change, every block's lines in its mode
//   confirm   configure terminal ; no event manager applet ID ; end
//                                                    disarm the revert
//             copy running-config startup-config     saved
//             no checkpoint ID
//   rollback  terminal dont-ask ; rollback running-config checkpoint ID
//                                                    back to the checkpoint now; the applet, made after
//                                                    it, goes with the rollback
//             no checkpoint ID
//   release   configure terminal ; no event manager applet ID ; end ; no checkpoint ID
//                                                    a stage stopped before the change (the lock)
//
// Why not NX-OS's own timed commit: `configure replace FILE commit-timeout S` reverts by itself, but FILE
// must be a complete running-config on the switch's bootflash (Cisco's guide: "not a partial
// configuration"), which fabricctl could only write by copying a file to the switch; and configuration
// sessions take ACLs only on the releases whose guides say (docs/reference-nxos.md C). Checkpoints and
// rollback are what napalm and Ansible use (napalm nxos.py @ee70e634: `checkpoint file`, `rollback
// running-config file`); a countdown applet of the Embedded Event Manager is what makes the rollback
// fire by itself.
// UNCONFIRMED (acceptance checklist, docs/transactions-nxos.md): the EEM countdown and cli action forms
// on Nexus 9000; that a rollback run by the applet completes while it removes the applet; that NX-OS runs
// " ; "-separated commands of one exec in order and stops at none; that errors print as `% ...` or
// `ERROR: ...` lines whatever the exit status (failure() reads the output).
#include <algorithm>

#include "platform/nxos/change.h"
#include "platform/nxos/config.h"
#include "platform/nxos/running_config.h"
#include "platform/platform.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nxos {
namespace {

constexpr std::string_view kRunningConfig = "running-config.txt";
constexpr std::string_view kEemCommand = "show running-config eem";
constexpr std::string_view kApplet = "event manager applet ";
/// Stage's lock, right after its applet is armed: that applet is the only fabricctl revert.
constexpr std::string_view kOnlyThisInFlight =
    "lock the switch: this transaction's revert applet is the only fabricctl applet configured";

/// What a line of the change may hold: NX-OS keywords, numbers, names of fabricctl's own policies and
/// of ports (util/names.h). NX-OS's CLI splits an exec at ';', so nothing else may reach it.
bool safe_line(std::string_view line) { return plain_word(line, " ./:-_", 1024); }

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  const auto it = raw.find(kRunningConfig);
  if (it == raw.end()) return unexpected("no " + std::string(kRunningConfig) + " was collected");
  auto running = read_running_config(it->second);
  if (!running) return unexpected(running.error());
  const Config diff = difference(desired_config(device), *running);
  NativeChange c;
  c.base = canonical(*running);
  if (diff.empty()) return c;
  c.text = config_text(diff);
  for (const std::string& line : split_lines(c.text)) {
    const std::string_view body = std::string_view(line).substr(line.find_first_not_of(' '));
    if (!safe_line(body))
      return unexpected("a line that cannot be sent to NX-OS: " + terminal_line(body.substr(0, 64)));
  }
  c.payload = exec_lines(diff);
  return c;
}

/// The transaction's name: id.name is [a-z0-9T-] already (transaction.h); anything else becomes a fixed
/// name, never a value that could be read as more syntax (`;` separates NX-OS commands).
std::string name_of(const TransactionId& id) {
  return plain_word(id.name, "-", 64) ? id.name : "fabricctl-invalid-name";
}

/// Asked with no change too: an armed revert is a transaction in flight (a killed apply's), whose change
/// the switch holds until the applet rolls it back.
std::vector<RemoteStep> check(const DeviceDesired&, const NativeChange&, const TransactionId&) {
  return {{"read the EEM applets (no other fabricctl revert may be armed)", std::string(kEemCommand), ""}};
}

TransactionSteps steps(const DeviceDesired&, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty()) return s;
  const std::string name = name_of(id);
  const int seconds = std::max(id.confirm_timeout_s, 1);
  s.stage.push_back(
      {"take checkpoint " + name + " of the running configuration", "terminal dont-ask ; checkpoint " + name, ""});
  s.arms = s.stage.size();
  s.stage.push_back(
      {"arm the revert: EEM applet " + name + " rolls back to the checkpoint in " + std::to_string(seconds) + " s",
       "configure terminal ; event manager applet " + name + " ; event timer countdown time " +
           std::to_string(seconds) + " ; action 1 cli terminal dont-ask ; action 2 cli rollback " +
           "running-config checkpoint " + name + " ; end",
       ""});
  s.stage.push_back({std::string(kOnlyThisInFlight), std::string(kEemCommand), ""});
  s.changes = s.stage.size();
  s.stage.push_back({"send the change in configure terminal", change.payload, ""});
  const RemoteStep disarm{"disarm the revert (remove EEM applet " + name + ")",
                          "configure terminal ; no event manager applet " + name + " ; end", ""};
  const RemoteStep drop{"drop checkpoint " + name, "no checkpoint " + name, ""};
  // Before the change (the lock refused): this transaction's applet and checkpoint go, and nothing else:
  // a rollback to its checkpoint would also undo what another transaction did since.
  s.release = {disarm, drop};
  s.confirm = {disarm, {"save running as the startup configuration", "copy running-config startup-config", ""}, drop};
  s.rollback = {{"roll back to checkpoint " + name + " (the revert applet goes with it)",
                 "terminal dont-ask ; rollback running-config checkpoint " + name, ""},
                drop};
  return s;
}

/// The fabricctl applets `show running-config eem` lists: each is a revert still armed.
std::vector<std::string> armed_reverts(std::string_view text) {
  std::vector<std::string> out;
  for (const std::string& line : split_lines(text))
    if (line.rfind(kApplet, 0) == 0 && line.compare(kApplet.size(), 10, "fabricctl-") == 0)
      out.push_back(printable(line.substr(kApplet.size()), 64));
  return out;
}

/// NX-OS prints errors as `% Invalid command at '^' marker.`, `% ...`, `ERROR: ...`, and a failed
/// rollback as `Rollback failed.` (Ansible's cisco.nxos terminal plugin, napalm's nxos driver;
/// docs/reference-nxos.md B); judged whatever the exit status.
std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (std::string r = exit_status_failure(step, out); !r.empty()) return r;
  if (const std::string error = marked_line(out, {"%", "ERROR:", "Error:", "Rollback failed", "Syntax error"});
      !error.empty())
    return step.what + ": " + error;
  if (step.command != kEemCommand) return "";
  const std::vector<std::string> armed = armed_reverts(out.out);
  if (step.what == kOnlyThisInFlight) {
    if (armed.size() == 1) return "";
    if (armed.empty()) return step.what + ": the applet armed by the step before is not configured";
    return "another fabricctl transaction is in flight on the switch (EEM applets " + join(armed, ", ") +
           "); nothing was changed, and this transaction's applet and checkpoint are removed";
  }
  if (armed.empty()) return "";
  return "a fabricctl revert is still armed on the switch (EEM applet " + join(armed, ", ") +
         "): its transaction is not confirmed yet, and its rollback runs when the countdown ends";
}

}  // namespace
}  // namespace fabricctl::nxos

namespace fabricctl {

Applier nxos_applier() {
  Applier a;
  a.change_file = "config.cfg";
  a.transaction = "checkpoint, EEM countdown rollback, configure terminal, confirm after verify";
  a.change = nxos::change;
  a.steps = nxos::steps;
  a.check = nxos::check;
  a.failure = nxos::failure;
  return a;
}

}  // namespace fabricctl
