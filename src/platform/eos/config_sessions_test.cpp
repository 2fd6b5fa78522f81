#include "platform/eos/config_sessions.h"

#include <doctest/doctest.h>

#include <utility>

using namespace fabricctl;

namespace {

// napalm-automation/napalm issue #2166 (2025-02-18): `configure session troubleshooting commit timer ...`
// then `show configuration sessions detail | json` on EOS 4.31 and on 4.32 (real output; the 4.32 top-level
// keys' values are not shown there, so the ones below are of the documented names and types).
constexpr std::string_view k431 = R"({
    "sessions": {
        "troubleshooting": {
            "state": "pendingCommitTimer",
            "completedTime": 1739832190.8418295,
            "commitBy": 1739835851.8256721,
            "commitUser": "adminuser",
            "description": "",
            "instances": {}
        }
    },
    "maxSavedSessions": 1,
    "maxOpenSessions": 5,
    "mergeOnCommit": false,
    "saveToStartupConfigOnCommit": false
})";

constexpr std::string_view k432 = R"({
    "sessions": {
        "troubleshooting": {
            "state": "committed",
            "completedTime": 1739832020.1816368,
            "commitUser": "adminuser",
            "description": "",
            "instances": {}
        }
    },
    "maxSavedSessions": 1,
    "maxOpenSessions": 5,
    "mergeOnCommit": false,
    "saveToStartupConfigOnCommit": false,
    "commitTimerSessionName": "troubleshooting",
    "commitTimerExpireTime": 1739835851.8256721
})";

/// The sessions holding the commit timer, as read_sessions reads them.
Expected<std::vector<eos::CommitTimerHolder>> holders_of(std::string_view text) {
  auto state = eos::read_sessions(text);
  if (!state) return unexpected(state.error());
  return std::move(state->timer);
}

std::string holders_error(std::string_view text) {
  auto h = holders_of(text);
  REQUIRE_FALSE(h);
  return h.error();
}

}  // namespace

TEST_CASE("eos config sessions: the commit timer's session in EOS 4.31's shape and in 4.32's") {
  for (const std::string_view text : {k431, k432}) {
    auto h = holders_of(text);
    REQUIRE_MESSAGE(h, h.error());
    REQUIRE(h->size() == 1);
    CHECK(h->front().session == "troubleshooting");
    REQUIRE(h->front().expires);
    CHECK(*h->front().expires == doctest::Approx(1739835851.8256721));
    CHECK(eos::commit_timer_refusal(*h) ==
          "configuration session \"troubleshooting\" holds EOS's commit timer (it expires at 2025-02-17T23:44:11Z); "
          "nothing was sent: confirm it (configure session troubleshooting commit), abort it (configure session "
          "troubleshooting abort) or let it expire, then apply again");
  }
}

TEST_CASE("eos config sessions: pending, committed and aborted sessions hold no timer") {
  auto h = holders_of(
      R"({"sessions": {"a": {"state": "pending"}, "b": {"state": "completed"}, "c": {"state": "committed"}},
          "maxSavedSessions": 1, "maxOpenSessions": 5})");
  REQUIRE_MESSAGE(h, h.error());
  CHECK(h->empty());
  CHECK(eos::commit_timer_refusal(*h).empty());
  h = holders_of(R"({"sessions": {}})");
  REQUIRE_MESSAGE(h, h.error());
  CHECK(h->empty());
}

TEST_CASE("eos config sessions: the pending fabricctl sessions, by name; others' and finished ones not") {
  auto st = eos::read_sessions(
      R"({"sessions": {"fabricctl-a": {"state": "pending"}, "fabricctl-b": {"state": "completed"},
                       "fabricctl-c\u001b": {"state": "pending"}, "mine": {"state": "pending"},
                       "fabricctl-d": {"state": "pendingCommitTimer"}}})");
  REQUIRE_MESSAGE(st, st.error());
  CHECK(st->pending_fabricctl == std::vector<std::string>{"fabricctl-a", "fabricctl-c\\x1b"});
  CHECK(st->timer.size() == 1);
  CHECK(eos::session_list({"a", "b", "c", "d", "e"}) == "\"a\", \"b\", \"c\" and 2 more");
}

TEST_CASE("eos config sessions: every holder is reported, a time that is not epoch seconds as EOS gives it") {
  auto h = holders_of(
      R"({"sessions": {"x": {"state": "pendingCommitTimer", "commitBy": 5321},
                       "y": {"state": "pendingCommitTimer"}}})");
  REQUIRE_MESSAGE(h, h.error());
  REQUIRE(h->size() == 2);
  const std::string r = eos::commit_timer_refusal(*h);
  CHECK(
      r.starts_with("configuration session \"x\" holds EOS's commit timer (it expires at 5321 s (EOS's clock)) "
                    "and 1 more session(s) do too; nothing was sent"));
  CHECK(eos::commit_timer_refusal({{"y", std::nullopt}}).find("(EOS does not say when it expires)") !=
        std::string::npos);
}

TEST_CASE("eos config sessions: a hostile session name is quoted, never printed raw") {
  auto h = holders_of(R"({"sessions": {}, "commitTimerSessionName": "a\u001b[2Jb\nreload",
                                         "commitTimerExpireTime": 1})");
  REQUIRE_MESSAGE(h, h.error());
  REQUIRE(h->size() == 1);
  const std::string r = eos::commit_timer_refusal(*h);
  CHECK(r.find('\x1b') == std::string::npos);
  CHECK(r.find('\n') == std::string::npos);
}

TEST_CASE("eos config sessions: output that is not the command's JSON is an error with its path") {
  CHECK(holders_error("% Invalid input\n").starts_with("invalid JSON at line 1"));
  CHECK(holders_error("[]") == "expected an object, got an array");
  CHECK(holders_error(R"({"maxOpenSessions": 5})") == "missing required key \"sessions\"");
  CHECK(holders_error(R"({"sessions": []})") == "sessions: expected an object, got an array");
  CHECK(holders_error(R"({"sessions": {"s": {"completedTime": 1}}})") == "sessions.s: missing required key \"state\"");
  CHECK(holders_error(R"({"sessions": {"s": {"state": 3}}})") ==
        "sessions.s.state: expected a string, got a number \"3\"");
  CHECK(holders_error(R"({"sessions": {"s": {"state": "pendingCommitTimer", "commitBy": "soon"}}})") ==
        "sessions.s.commitBy: expected a number of seconds, got a string \"soon\"");
  CHECK(holders_error(R"({"sessions": {"s": {"state": "pendingCommitTimer", "commitBy": -1}}})") ==
        "sessions.s.commitBy: \"-1\" is not a number of seconds");
  CHECK(holders_error(R"({"sessions": {}, "commitTimerSessionName": "s"})") ==
        "missing required key \"commitTimerExpireTime\"");
  CHECK(holders_error(R"({"sessions": {}, "commitTimerExpireTime": 5})") ==
        "commitTimerExpireTime: present without commitTimerSessionName");
  CHECK(holders_error(R"({"sessions": {}, "commitTimerSessionName": 7, "commitTimerExpireTime": 5})") ==
        "commitTimerSessionName: expected a string, got a number \"7\"");
}
