// EOS's configuration sessions, as `show configuration sessions detail | json` prints them: which session
// holds the switch's commit timer (a `configure session <n> commit timer` that is neither confirmed nor
// rolled back yet), so that apply refuses to stage while another one does (docs/transactions-eos.md).
//
// Two shapes, both from napalm-automation/napalm issue #2166 (real output, 2025-02-18):
//   EOS 4.31 and before  sessions.<name>.state "pendingCommitTimer", sessions.<name>.commitBy
//   EOS 4.32 and later   sessions.<name>.state "committed"; top-level commitTimerSessionName and
//                        commitTimerExpireTime, present only while a commit timer runs
// Device output is untrusted: read strictly, the first problem named by its JSON path.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::eos {

/// The command (its output is JSON) and the raw file apply reads it into.
inline constexpr std::string_view kSessionsDetailCommand = "show configuration sessions detail | json";

/// A session whose commit timer runs.
struct CommitTimerHolder {
  std::string session;            // as EOS names it, made printable (at most 64 bytes)
  std::optional<double> expires;  // commitBy / commitTimerExpireTime as EOS prints it (seconds)
};

/// What the sessions say for apply: who holds the commit timer, and which fabricctl sessions are pending
/// (opened and not yet committed or aborted: state "pending", ANTA asynceapi/config_session.py @68667e0e;
/// napalm's lock, eos.py _lock @ee70e634, refuses while another session is pending).
struct SessionsState {
  std::vector<CommitTimerHolder> timer;        // EOS allows one; more are all reported
  std::vector<std::string> pending_fabricctl;  // names beginning "fabricctl-", printable
};

/// The sessions of `text`. The error: `text` is not that command's JSON (no `sessions` object, a
/// session without a string `state`, a name or time of the wrong type), with the JSON path.
Expected<SessionsState> read_sessions(std::string_view text);

/// Why apply does not stage while `holders` (not empty) hold the commit timer: the session named, when
/// its timer expires, and what the operator can do. One line.
std::string commit_timer_refusal(const std::vector<CommitTimerHolder>& holders);

/// The pending fabricctl sessions for a message: "\"a\", \"b\"", the first three and how many more.
std::string session_list(const std::vector<std::string>& names);

}  // namespace fabricctl::eos
