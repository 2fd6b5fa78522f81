// EOS write side: the lines of session.cfg the running-config does not hold yet (eos/session_lines.h),
// sent in a named configuration session and committed with EOS's commit timer (docs/transactions-eos.md):
//
//   stage     configure session <id>             one SSH exec: the session is opened, the lines go
//             <the change's lines>               into it, and EOS's CLI leaves it pending (nothing
//             end                                running changes yet)
//             show session-config named <id> diffs
//                                                the session against running, for the audit record
//             show configuration sessions detail | json
//                                                the lock: no commit timer, this session the only
//                                                fabricctl one pending (napalm's lock, eos.py _lock)
//             configure session <id> commit timer HH:MM:SS
//                                                running = the session; EOS reverts it by itself unless
//                                                the session is committed again before the timer ends
//   confirm   configure session <id> commit      the second commit: the timer stops, the change stays
//             copy running-config startup-config saved as the startup configuration
//   rollback  configure session <id> abort       a pending session is dropped; a session whose commit
//                                                timer runs is rolled back to the configuration before it
//   release   configure session <id> abort       a stage stopped before its commit (the lock): dropped
//
// Sources: Arista EOS User Manual, "Configure Session" (https://www.arista.com/en/um-eos/eos-configure-session)
// and "Session Management Commands" (https://www.arista.com/en/um-eos/eos-session-management-commands:
// `commit timer hh:mm:ss` rolls the session's changes back unless confirmed within the interval); napalm
// napalm/eos/eos.py @ee70e634 (commit confirm = `configure session <n> commit timer`, confirm =
// `configure session <n> commit`, discard of a pending one = `configure session <n> abort`).
// Before it stages, apply reads `show configuration sessions detail | json` (eos/config_sessions.h) and
// refuses, changing nothing, while any session holds the commit timer: EOS keeps one per switch (its 4.32+
// output names a single commitTimerSessionName), and a second trial commit would either be refused or
// fold another operator's unconfirmed change into ours.
// UNCONFIRMED in Arista's own text (kept to this file): that `abort` of a session whose commit timer runs
// restores the configuration before it (a third-party EOS write-up, advertisingemergency.net/?p=112, and
// napalm rely on it); that EOS's SSH exec runs a command string of several lines as successive CLI lines
// in one CLI process; that a CLI error over SSH exec ends with status 0 (failure() reads the output).
#include <algorithm>
#include <cstdio>

#include "platform/eos/config_sessions.h"
#include "platform/eos/running_config.h"
#include "platform/eos/session_lines.h"
#include "platform/platform.h"
#include "util/escape.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kRunningConfig = "running-config.txt";

/// What a line of the change may hold: EOS keywords, numbers, port names (util/names.h), seconds with
/// decimals; indentation. EOS's CLI has no quoting, so nothing else may reach it.
bool safe_line(const std::string& line) {
  if (line == "!" || line == "   !") return true;
  const size_t text = line.find_first_not_of(" !");  // indentation, and "!" comments' leaders
  return text != std::string::npos && plain_word(std::string_view(line).substr(text), " ./:-", 1024);
}

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  const auto it = raw.find(kRunningConfig);
  if (it == raw.end()) return unexpected("no " + std::string(kRunningConfig) + " was collected");
  // What collect keeps (it keeps it already; a raw file from elsewhere is filtered the same way).
  const std::string running = eos::keep_running_config(it->second);
  auto lines = eos::unsatisfied(eos::session_text(device), running);
  if (!lines) return unexpected(lines.error());
  for (const std::string& line : split_lines(*lines))
    if (!safe_line(line)) return unexpected("a line that cannot be sent to EOS: " + terminal_line(line.substr(0, 64)));
  auto base = eos::canonical(running);
  if (!base) return unexpected(base.error());
  NativeChange c;
  c.text = *lines;
  c.payload = *lines;
  c.base = *base;
  return c;
}

/// Seconds as EOS's commit timer takes them, HH:MM:SS: at least one second, at most 23:59:59 (EOS does
/// not document a longer one).
std::string hhmmss(int seconds) {
  const int s = std::clamp(seconds, 1, 24 * 3600 - 1);
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

/// The session's name: id.name is [a-z0-9T-] already (transaction.h); anything else is refused by
/// sending a name EOS cannot take rather than a value that could be read as more syntax.
std::string session_name(const TransactionId& id) {
  return plain_word(id.name, "-", 64) ? id.name : "invalid-session-name";
}

/// Before a change: no configuration session may hold EOS's commit timer, which is one per switch, and no
/// other fabricctl session may be pending. Asked with no change too: a session whose timer runs is a
/// transaction in flight (a killed apply's), whose change the switch holds until the timer rolls it
/// back, so "nothing to change" would be wrong.
constexpr std::string_view kNoneInFlight = "read the configuration sessions (none may hold a commit timer)";
/// Stage's lock, right before its commit (after every device of the step is prepared): this
/// transaction's session is the only fabricctl one pending, and none holds the timer. A second apply
/// that passed its check sees the first's session pending, or holding the timer, until the first is
/// confirmed or rolled back: two at once may both stop, never both go on.
constexpr std::string_view kLock =
    "lock the switch: no commit timer, and this transaction's session the only "
    "fabricctl one pending";

std::vector<RemoteStep> check(const DeviceDesired&, const NativeChange&, const TransactionId&) {
  return {{std::string(kNoneInFlight), std::string(eos::kSessionsDetailCommand), ""}};
}

TransactionSteps steps(const DeviceDesired&, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty()) return s;
  const std::string session = "configure session " + session_name(id);
  std::string lines;
  for (const std::string& line : split_lines(change.payload))
    if (safe_line(line)) lines += line + "\n";
  s.stage.push_back(
      {"stage the change in configuration session " + session_name(id), session + "\n" + lines + "end", ""});
  s.stage.push_back(
      {"show the session's differences from running", "show session-config named " + session_name(id) + " diffs", ""});
  const std::string timer = hhmmss(id.confirm_timeout_s);
  s.lock = s.stage.size();
  s.stage.push_back({std::string(kLock), std::string(eos::kSessionsDetailCommand), ""});
  s.arms = s.stage.size();
  s.changes = s.stage.size();
  s.stage.push_back({"commit with EOS's commit timer armed for " + timer, session + " commit timer " + timer, ""});
  s.confirm.push_back({"confirm the session (stops the commit timer)", session + " commit", ""});
  s.confirm.push_back({"save running as the startup configuration", "copy running-config startup-config", ""});
  s.rollback.push_back({"abort the session (reverts a commit whose timer runs)", session + " abort", ""});
  s.release.push_back({"abort the session (never committed: nothing running changes)", session + " abort", ""});
  return s;
}

/// EOS's CLI prints its errors as lines that begin with "%" ("% Invalid input", "% Incomplete command",
/// "% Ambiguous command", "% Error ..."); judged whatever the exit status.
std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (std::string r = exit_status_failure(step, out); !r.empty()) return r;
  if (const std::string error = marked_line(out, {"%"}); !error.empty()) return step.what + ": " + error;
  if (step.command != eos::kSessionsDetailCommand) return "";
  // Unreadable is a refusal too: apply stages only on a switch it knows holds no commit timer.
  const auto sessions = eos::read_sessions(out.out);
  if (!sessions) return "show configuration sessions detail: " + terminal_line(sessions.error());
  if (std::string r = eos::commit_timer_refusal(sessions->timer); !r.empty()) return r;
  const std::vector<std::string>& pending = sessions->pending_fabricctl;
  const std::string stale =
      "if no fabricctl apply is running, one stopped before its commit: drop it with "
      "`configure session NAME abort`";
  if (step.what == kLock) {
    if (pending.size() == 1) return "";
    if (pending.empty()) return std::string(kLock) + ": the session the steps before opened is not listed";
    return "another fabricctl apply is staging the switch (fabricctl sessions pending: " + eos::session_list(pending) +
           "); nothing was committed, and this transaction's session is aborted (" + stale + ")";
  }
  if (pending.empty()) return "";
  return "a fabricctl configuration session is pending on the switch, not committed (" + eos::session_list(pending) +
         "): another apply is staging it (" + stale + ")";
}

}  // namespace

Applier eos_applier() {
  Applier a;
  a.change_file = "session.cfg";
  a.transaction =
      "configure session, lock (no commit timer, no other fabricctl session), commit timer, commit after "
      "verify";
  a.change = change;
  a.steps = steps;
  a.check = check;
  a.failure = failure;
  return a;
}

}  // namespace fabricctl
