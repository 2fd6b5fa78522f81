// Juniper Junos write side: the statements the running configuration lacks (change.h), loaded and
// committed with `commit confirmed` over NETCONF (docs/transactions-junos.md):
//
//   check     get-commit-revision-information   no confirmed commit may be pending
//             open-configuration private, load-configuration set, commit check, close-configuration
//                                                   the change judged by Junos's own commit check on a
//                                                   private copy: nothing of it reaches the candidate
//   stage     get-commit-revision-information   the lock, right before (after every device of the step
//                                                   is prepared): no confirmed commit pending, or this
//                                                   one's would extend it and take in its change
//             lock candidate, load-configuration set, commit check,
//             commit-configuration confirmed (minutes) with log NAME, unlock
//                                                   running holds the change; Junos rolls it back by
//                                                   itself unless a commit confirms it in time
//   confirm   lock, get-commit-revision-information (the confirmed commit still pending),
//             commit-configuration with log NAME-confirmed, unlock
//   rollback  lock, discard-changes, load-configuration set of the statements as they were,
//             commit-configuration with log NAME-rolled-back, unlock
//
// Each step is one NETCONF session, written whole to `xml-mode netconf need-trailer` (what Junos's
// `netconf` subsystem runs). The server answers the RPCs of a session in order and does not stop at an
// error, so a step that must not go on after a failure is preceded by a step that proves it will not
// fail: the check's dry run. Why the rollback is the inverse of the change and not `rollback 1`: `rollback
// 1` is the commit before the newest, which is the configuration before the change only when the stage's
// commit happened and nobody committed since.
// Why not the CLI: Junos documents no way to send configuration commands in one SSH exec, and prints
// errors as text with an exit status it does not document; NETCONF is what Juniper documents for
// automation, with a candidate lock, `commit check`, a confirmed commit with a stated unit, and errors as
// <rpc-error> elements (docs/reference-junos.md, section c).
// UNCONFIRMED (acceptance checklist, docs/transactions-junos.md): that `xml-mode netconf need-trailer`
// runs as an SSH exec for a login class with the CLI as shell; the <get-commit-revision-information>
// comment "commit confirmed, rollback in Nmins" on a pending commit (napalm reads it so) and not after it
// is confirmed; that a session that ends holding the lock discards what it loaded (RFC 6241 7.5).
#include <algorithm>

#include "platform/junos/change.h"
#include "platform/junos/config.h"
#include "platform/junos/netconf.h"
#include "platform/junos/running.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "util/escape.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::junos {
namespace {

constexpr std::string_view kConfiguration = "configuration.txt";
constexpr std::string_view kNetconf = "xml-mode netconf need-trailer";
constexpr std::string_view kLock = "<lock><target><candidate/></target></lock>";
constexpr std::string_view kUnlock = "<unlock><target><candidate/></target></unlock>";
constexpr std::string_view kPending = "<get-commit-revision-information><detail/></get-commit-revision-information>";
/// Stage's lock: the commit history read again right before the stage's session.
constexpr std::string_view kNonePending = "lock the switch: no confirmed commit pending";
/// Extend's first session: the commit to extend is still pending.
constexpr std::string_view kStillPending = "read the commit history (the confirmed commit still pending)";

/// What a statement of the change may hold: Junos keywords, numbers, code points, names of fabricctl's
/// own objects and of ports; nothing a Junos parser could read as more syntax (quotes, `;`, braces).
bool safe_line(std::string_view line) { return plain_word(line, " ./:-_[]*", 1024); }

std::string load(const std::vector<std::string>& lines) {
  return "<load-configuration action=\"set\" format=\"text\"><configuration-set>\n" + xml_text(join(lines, "\n")) +
         "\n</configuration-set></load-configuration>";
}

std::string commit(std::string_view log, std::string_view extra = "") {
  return "<commit-configuration>" + std::string(extra) + "<log>" + xml_text(log) + "</log></commit-configuration>";
}

/// The statements as they ran before the change: `set` lines of the canonical base.
Statements base_statements(const NativeChange& change) {
  Statements out;
  for (const std::string& line : split_lines(change.base))
    if (line.rfind("set ", 0) == 0) out.push_back(line.substr(4));
  return out;
}

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  const std::string* text = raw_file(raw, kConfiguration);
  if (text == nullptr) return unexpected("no " + std::string(kConfiguration) + " was collected");
  std::vector<std::string> deactivated;
  auto running = read_statements(*text, &deactivated);
  if (!running) return unexpected("show configuration: " + running.error());
  const Statements desired = desired_statements(device);
  const std::vector<std::string> lines = difference(desired, *running, ports_of(desired), deactivated);
  NativeChange c;
  for (const std::string& st : *running) c.base += "set " + st + "\n";
  if (lines.empty()) return c;
  for (const std::string& line : lines)
    if (!safe_line(line))
      return unexpected("a statement that cannot be sent to Junos: " + terminal_line(line.substr(0, 64)));
  c.text = join(lines, "\n") + "\n";
  c.payload = c.text;
  return c;
}

/// The transaction's name: id.name is [a-z0-9T-] already (transaction.h); anything else a fixed name.
std::string name_of(const TransactionId& id) {
  return plain_word(id.name, "-", 64) ? id.name : "fabricctl-invalid-name";
}

/// The change's statements that may be sent: a saved plan's payload is checked again, as it may have been
/// edited since the plan was made (the same rule as change(); a line that fails it is not sent).
std::vector<std::string> sendable(const std::string& payload) {
  std::vector<std::string> out;
  for (const std::string& line : split_lines(payload))
    if (safe_line(line) && (line.rfind("set ", 0) == 0 || line.rfind("delete ", 0) == 0)) out.push_back(line);
  return out;
}

std::vector<RemoteStep> check(const DeviceDesired&, const NativeChange& change, const TransactionId&) {
  // No change: only whether a confirmed commit is pending (a killed apply's, rolled back when its
  // window ends), so that a plan never says "nothing to change" of a switch about to change.
  if (change.empty())
    return {{"read the commit history (no confirmed commit pending)", std::string(kNetconf),
             netconf_session({std::string(kPending)})}};
  // Two sessions: the server does not stop at an error, so a refused private copy (another user's
  // uncommitted edits in the shared candidate) must end the check before anything is loaded.
  return {{"open a private copy of the configuration (no uncommitted edits of others; no confirmed commit "
           "pending)",
           std::string(kNetconf),
           netconf_session({std::string(kPending), "<open-configuration><private/></open-configuration>",
                            "<close-configuration/>"})},
          {"judge the change with commit check on a private copy", std::string(kNetconf),
           netconf_session({"<open-configuration><private/></open-configuration>", load(sendable(change.payload)),
                            "<commit-configuration><check/></commit-configuration>", "<close-configuration/>"})}};
}

TransactionSteps steps(const DeviceDesired&, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty()) return s;
  const std::string name = name_of(id);
  // Junos's window is whole minutes: the timeout rounded up.
  const int minutes = std::clamp((std::max(id.confirm_timeout_s, 1) + 59) / 60, 1, 65535);
  s.window_s = minutes * 60;
  // Its own session: the stage's goes on after an error, so a pending commit found there would not stop
  // its commit. A stage stopped here changed nothing: nothing to release (a rollback would commit, and
  // a commit confirms the pending one).
  s.lock = s.stage.size();
  s.stage.push_back({std::string(kNonePending), std::string(kNetconf), netconf_session({std::string(kPending)})});
  s.arms = s.stage.size();
  s.changes = s.stage.size();
  s.stage.push_back(
      {"load the change and commit confirmed " + std::to_string(minutes) +
           " min (Junos rolls it back by itself unless confirmed)",
       std::string(kNetconf),
       netconf_session({std::string(kLock), load(sendable(change.payload)),
                        "<commit-configuration><check/></commit-configuration>",
                        commit(name, "<confirmed/><confirm-timeout>" + std::to_string(minutes) + "</confirm-timeout>"),
                        std::string(kUnlock)})});
  // A confirmed commit repeated within the window extends it (reference-junos.md c, "repeatable to
  // extend"); the commit must still be pending, or its rollback has run.
  // The pending commit proved first, in a session of its own: a session goes on after an error, and a
  // confirmed commit after the window ran out would arm a new one of its own.
  s.extend.push_back({std::string(kStillPending), std::string(kNetconf), netconf_session({std::string(kPending)})});
  s.extend.push_back({"commit confirmed " + std::to_string(minutes) + " min again (a whole window from now)",
                      std::string(kNetconf),
                      netconf_session({std::string(kLock),
                                       commit(name + "-extended", "<confirmed/><confirm-timeout>" +
                                                                      std::to_string(minutes) + "</confirm-timeout>"),
                                       std::string(kUnlock)})});
  s.confirm.push_back({"confirm the commit (a commit within the window)", std::string(kNetconf),
                       netconf_session({std::string(kLock), std::string(kPending), commit(name + "-confirmed"),
                                        std::string(kUnlock)})});
  // The inverse: what the change touched, as it was (device text: checked like the change).
  std::vector<std::string> undo;
  for (const std::string& line : inverse(base_statements(change), sendable(change.payload)))
    if (safe_line(line)) undo.push_back(line);
  std::vector<std::string> rollback = {std::string(kLock), "<discard-changes/>"};
  if (!undo.empty()) rollback.push_back(load(undo));
  rollback.push_back(commit(name + "-rolled-back"));
  rollback.emplace_back(kUnlock);
  s.rollback.push_back({"restore the statements as they were before the change, and commit", std::string(kNetconf),
                        netconf_session(rollback)});
  return s;
}

size_t occurrences(std::string_view text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// Why a NETCONF step failed, from its replies: the server's <rpc-error>s, a pending confirmed commit
/// where none may be (check) or where one must be (confirm), or a session that ended early.
std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (std::string r = exit_status_failure(step, out); !r.empty()) return r;
  const std::vector<std::string_view> messages = netconf_messages(out.out);
  if (messages.empty() || !has_element(messages.front(), "hello"))
    return step.what +
           ": the switch did not start a NETCONF session: " + first_text_line(out.out.empty() ? out.err : out.out);
  for (const std::string_view m : messages)
    if (const std::vector<std::string> errors = rpc_errors(m); !errors.empty())
      return step.what + ": " + errors.front();
  // One reply per RPC and the server's hello: fewer means the session was cut short.
  const size_t rpcs = occurrences(step.input, "<rpc ");
  if (messages.size() < rpcs + 1)
    return step.what + ": the NETCONF session ended after " + std::to_string(messages.size() - 1) + " of " +
           std::to_string(rpcs) + " replies";
  if (step.input.find(kPending) == std::string::npos) return "";
  std::string comment;
  for (const std::string_view m : messages)
    if (has_element(m, "commit-revision-information")) comment = element_text(m, "comment").value_or("");
  const bool pending = comment.find("commit confirmed") != std::string::npos;
  // Confirm and extend need the commit still pending; every other step (the check) refuses one.
  const bool confirming = step.input.find("-confirmed</log>") != std::string::npos || step.what == kStillPending;
  if (confirming && !pending)
    return step.what +
           ": no confirmed commit is pending on the switch: its rollback has run already (the "
           "confirm window ended), so the change is not there to keep";
  if (!confirming && pending)
    return "a confirmed commit is pending on the switch (" + comment +
           "): its transaction is not confirmed yet, and its rollback runs when the window ends" +
           (step.what == kNonePending ? "; nothing was loaded" : "");
  return "";
}

}  // namespace
}  // namespace fabricctl::junos

namespace fabricctl {

Applier junos_applier() {
  Applier a;
  a.change_file = "change.set";
  a.transaction =
      "lock (no confirmed commit pending), NETCONF lock, load set, commit check, commit confirmed, "
      "confirm after verify";
  a.change = junos::change;
  a.steps = junos::steps;
  a.check = junos::check;
  a.failure = junos::failure;
  return a;
}

}  // namespace fabricctl
