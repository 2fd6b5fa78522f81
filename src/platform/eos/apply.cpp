// EOS write side: the lines of session.cfg the running-config does not hold yet (eos/session_lines.h),
// sent in a named configuration session and committed with EOS's commit timer (docs/transactions-eos.md):
//
//   stage     configure session <id>             one SSH exec: the session is opened, the lines go
//             <the change's lines>               into it, and EOS's CLI leaves it pending (nothing
//             end                                running changes yet)
//             show session-config named <id> diffs
//                                                the session against running, for the audit record
//             configure session <id> commit timer HH:MM:SS
//                                                running = the session; EOS reverts it by itself unless
//                                                the session is committed again before the timer ends
//   confirm   configure session <id> commit      the second commit: the timer stops, the change stays
//             copy running-config startup-config saved as the startup configuration
//   rollback  configure session <id> abort       a pending session is dropped; a session whose commit
//                                                timer runs is rolled back to the configuration before it
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

/// Before a change: no configuration session may hold EOS's commit timer, which is one per switch. Asked
/// with no change too: a session whose timer runs is a transaction in flight (a killed apply's), whose
/// change the switch holds until the timer rolls it back, so "nothing to change" would be wrong.
std::vector<RemoteStep> check(const DeviceDesired&, const NativeChange&, const TransactionId&) {
  return {
      {"read the configuration sessions (none may hold a commit timer)", std::string(eos::kSessionsDetailCommand), ""}};
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
  s.arms = s.stage.size();
  s.stage.push_back({"commit with EOS's commit timer armed for " + timer, session + " commit timer " + timer, ""});
  s.confirm.push_back({"confirm the session (stops the commit timer)", session + " commit", ""});
  s.confirm.push_back({"save running as the startup configuration", "copy running-config startup-config", ""});
  s.rollback.push_back({"abort the session (reverts a commit whose timer runs)", session + " abort", ""});
  return s;
}

/// EOS's CLI prints its errors as lines that begin with "%" ("% Invalid input", "% Incomplete command",
/// "% Ambiguous command", "% Error ..."); judged whatever the exit status.
std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (std::string r = exit_status_failure(step, out); !r.empty()) return r;
  if (const std::string error = marked_line(out, {"%"}); !error.empty()) return step.what + ": " + error;
  if (step.command != eos::kSessionsDetailCommand) return "";
  // Unreadable is a refusal too: apply stages only on a switch it knows holds no commit timer.
  const auto holders = eos::commit_timer_holders(out.out);
  if (!holders) return "show configuration sessions detail: " + terminal_line(holders.error());
  return eos::commit_timer_refusal(*holders);
}

}  // namespace

Applier eos_applier() {
  Applier a;
  a.change_file = "session.cfg";
  a.transaction = "configure session (no other commit timer), commit timer, commit after verify";
  a.change = change;
  a.steps = steps;
  a.check = check;
  a.failure = failure;
  return a;
}

}  // namespace fabricctl
