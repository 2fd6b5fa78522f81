#include "transport/login_error.h"

#include <doctest/doctest.h>

using namespace fabricctl;
using std::chrono::milliseconds;

TEST_CASE("login failure: a refusal, a stall and a broken connection each say what they are") {
  const auto failure = [](LoginOutcome o, int elapsed_ms, std::string libssh = "") {
    return login_failure({o, milliseconds(elapsed_ms), milliseconds(10000), std::move(libssh)},
                         "--connect-timeout 10 s");
  };
  CHECK(failure(LoginOutcome::success, 5).empty());
  CHECK(failure(LoginOutcome::denied, 5) == " refused");
  CHECK(failure(LoginOutcome::again, 10000) == ": no answer within --connect-timeout 10 s");
  // The key accepted, then nothing until the timeout: libssh ends the call in an error. Not a refusal.
  CHECK(failure(LoginOutcome::error, 10003, "Timeout processing the packet") ==
        ": no answer within --connect-timeout 10 s (the device stopped answering)");
  CHECK(failure(LoginOutcome::error, 9600).starts_with(": no answer within"));
  // An error before the timeout: the connection broke; libssh's reason, made one printable line.
  CHECK(failure(LoginOutcome::error, 40, "Socket error: Connection reset by peer\x1b[2J") ==
        " failed: Socket error: Connection reset by peer[2J");  // the control character dropped
  CHECK(failure(LoginOutcome::error, 40) == " failed");
  CHECK(failure(LoginOutcome::partial, 40).starts_with(" accepted, but the device asks for another method too"));
}
