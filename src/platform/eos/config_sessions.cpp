#include "platform/eos/config_sessions.h"

#include <cmath>
#include <cstdio>

#include "util/diag.h"
#include "util/json_reader.h"
#include "util/text.h"

namespace fabricctl::eos {
namespace {

using jsonr::Path;
using jsonr::Value;

// EOS keeps a few sessions (maxSavedSessions, maxOpenSessions: 1 and 5 by default); a few KB.
const jsonr::JsonLimits kLimits{size_t{4} << 20, 8};

/// A time EOS prints as a number of seconds (an integer or with a fraction), finite and not negative.
double seconds(Value v, const Path& path) {
  if (!v.is_number()) jsonr::fail(path, "expected a number of seconds, got " + jsonr::describe(v));
  const std::string text = v.number_text();
  double s = -1;
  if (std::sscanf(text.c_str(), "%lf", &s) != 1 || !std::isfinite(s) || s < 0 || s > 1e12)
    jsonr::fail(path, "\"" + text + "\" is not a number of seconds");
  return s;
}

/// When the timer expires, for the message. UNCONFIRMED: the base of commitBy / commitTimerExpireTime.
/// napalm compares them with `show version`'s uptime; the values in napalm issue #2166 are epoch
/// seconds (1739835851.8 beside completedTime 1739832190.8). A value past 2001 is read as UTC.
std::string expiry(const std::optional<double>& s) {
  if (!s) return "EOS does not say when it expires";
  if (const std::string at = utc_from_epoch(*s); !at.empty()) return "it expires at " + at;
  char buf[64];
  std::snprintf(buf, sizeof buf, "it expires at %.0f s (EOS's clock)", *s);
  return buf;
}

}  // namespace

Expected<SessionsState> read_sessions(std::string_view text) {
  return jsonr::read_json(text, kLimits, [](Value root) {
    jsonr::expect_object(root, Path(""));
    const Value sessions = jsonr::required(root, Path(""), "sessions");
    jsonr::expect_object(sessions, Path("sessions"));
    SessionsState state;
    std::vector<CommitTimerHolder>& out = state.timer;
    if (const auto name = jsonr::find(root, "commitTimerSessionName")) {  // EOS 4.32 and later
      const std::string_view n = jsonr::string_value(*name, Path("commitTimerSessionName"));
      const Value at = jsonr::required(root, Path(""), "commitTimerExpireTime");
      out.push_back({printable(n, 64), seconds(at, Path("commitTimerExpireTime"))});
    } else if (jsonr::find(root, "commitTimerExpireTime")) {
      jsonr::fail(Path("commitTimerExpireTime"), "present without commitTimerSessionName");
    }
    for (const auto& m : sessions.members()) {  // EOS 4.31 and before
      const std::string where = "sessions." + printable(m.key, 64);
      const Path path(where);
      jsonr::expect_object(m.value, path);
      const std::string state_at = where + ".state";
      const std::string_view session = jsonr::string_value(jsonr::required(m.value, path, "state"), Path(state_at));
      const std::string name = printable(m.key, 64);
      if (session == "pending" && m.key.starts_with("fabricctl-")) state.pending_fabricctl.push_back(name);
      if (session != "pendingCommitTimer") continue;
      if (!out.empty() && out.front().session == name) continue;  // named by both shapes
      std::optional<double> by;
      if (const auto v = jsonr::find(m.value, "commitBy")) {
        const std::string by_at = where + ".commitBy";
        by = seconds(*v, Path(by_at));
      }
      out.push_back({name, by});
    }
    return state;
  });
}

std::string session_list(const std::vector<std::string>& names) {
  std::vector<std::string> quoted;
  quoted.reserve(names.size());
  for (const std::string& n : names) quoted.push_back("\"" + n + "\"");
  return first_and_more(quoted);
}

std::string commit_timer_refusal(const std::vector<CommitTimerHolder>& holders) {
  if (holders.empty()) return {};
  const CommitTimerHolder& h = holders.front();
  std::string why = "configuration session \"" + h.session + "\" holds EOS's commit timer (" + expiry(h.expires) + ")";
  if (holders.size() > 1) why += " and " + std::to_string(holders.size() - 1) + " more session(s) do too";
  return why + "; nothing was sent: confirm it (configure session " + h.session +
         " commit), abort it (configure session " + h.session + " abort) or let it expire, then apply again";
}

}  // namespace fabricctl::eos
