// Apply does not stage on an EOS switch while a configuration session holds its commit timer: the check
// step reads `show configuration sessions detail | json` before anything is sent, and its judgment names
// the session and when its timer expires. Unreadable output refuses too.
#include <doctest/doctest.h>

#include "fixtures.h"
#include "platform/platform.h"

using namespace fabricctl;

namespace {

std::vector<RemoteStep> check() {
  NativeChange c;
  c.text = c.payload = "interface Ethernet1\n   mtu 9100\n!\n";
  return eos_applier().check(test::example_switch(Platform::eos, {"Ethernet1"}), c, {});
}

std::string judged(const std::string& out, int status = 0) {
  const std::vector<RemoteStep> s = check();
  REQUIRE(s.size() == 1);
  return eos_applier().failure(s[0], {status, out, ""});
}

}  // namespace

TEST_CASE("eos pending timer: the check reads the sessions before stage, read-only") {
  const std::vector<RemoteStep> s = check();
  REQUIRE(s.size() == 1);
  CHECK(s[0].command == "show configuration sessions detail | json");
  CHECK(s[0].input.empty());
  // With no change too: a session whose timer runs is a transaction in flight, which plan must name.
  CHECK(eos_applier().check(test::example_switch(Platform::eos, {"Ethernet1"}), NativeChange{}, {}).size() == 1);
}

TEST_CASE("eos pending timer: another session's commit timer refuses the apply, naming it and its expiry") {
  // EOS 4.31 and before (napalm issue #2166).
  CHECK(judged(R"({"sessions": {"change-42": {"state": "pendingCommitTimer", "commitBy": 1739835851.8,
                  "completedTime": 1739832190.8, "commitUser": "adminuser", "description": "", "instances": {}}},
                  "maxSavedSessions": 1, "maxOpenSessions": 5})") ==
        "configuration session \"change-42\" holds EOS's commit timer (it expires at 2025-02-17T23:44:11Z); nothing "
        "was sent: confirm it (configure session change-42 commit), abort it (configure session change-42 abort) or "
        "let it expire, then apply again");
  // EOS 4.32 and later: the session reads "committed"; the holder is named at the top.
  CHECK(judged(R"({"sessions": {"change-42": {"state": "committed"}}, "commitTimerSessionName": "change-42",
                  "commitTimerExpireTime": 1739835851.8})")
            .starts_with("configuration session \"change-42\" holds EOS's commit timer"));
}

TEST_CASE("eos pending timer: open sessions without a timer do not stop apply") {
  CHECK(judged(R"({"sessions": {"other": {"state": "pending"}, "old": {"state": "completed"}},
                  "maxSavedSessions": 1, "maxOpenSessions": 5})") == "");
  CHECK(judged(R"({"sessions": {}})") == "");
}

TEST_CASE("eos pending timer: output apply cannot read is a refusal, never a go-ahead") {
  CHECK(judged("") ==
        "show configuration sessions detail: invalid JSON at line 1, column 1 (byte offset 0): "
        "syntax error while parsing value - unexpected end of input; expected '[', '{', or a literal");
  CHECK(judged(R"({"sessions": {"s": {}}})") ==
        "show configuration sessions detail: sessions.s: missing required key \"state\"");
  CHECK(judged("% Invalid input\n") ==
        "read the configuration sessions (none may hold a commit timer): % Invalid input");
  CHECK(
      judged("", 255).starts_with("read the configuration sessions (none may hold a commit timer): exited with "
                                  "status 255"));
}

TEST_CASE("eos pending timer: a pending fabricctl session is an apply staging the switch; another's is not") {
  CHECK(judged(R"({"sessions": {"fabricctl-20261206T210000-abcdef": {"state": "pending"},
                  "operator": {"state": "pending"}, "fabricctl-20261205T080000-000000": {"state": "completed"}}})") ==
        "a fabricctl configuration session is pending on the switch, not committed "
        "(\"fabricctl-20261206T210000-abcdef\"): another apply is staging it (if no fabricctl apply is running, one "
        "stopped before its commit: drop it with `configure session NAME abort`)");
}
