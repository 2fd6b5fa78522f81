#include "transport/login_error.h"

#include "util/escape.h"

namespace fabricctl {

std::string login_failure(const LoginAnswer& a, std::string_view timeout_text) {
  std::string stalled = ": no answer within " + std::string(timeout_text);
  switch (a.outcome) {
    case LoginOutcome::success: return "";
    case LoginOutcome::denied: return " refused";
    // The device took the key (or password) and asks for more: keyboard-interactive or a second factor.
    case LoginOutcome::partial:
      return " accepted, but the device asks for another method too (keyboard-interactive or a second factor), "
             "which fabricctl does not answer";
    case LoginOutcome::again: return stalled;
    case LoginOutcome::error:
      // libssh's blocking call ends in an error, not "again", when the session's timeout passes in the
      // middle of the exchange (after the key was accepted, before the signature's answer): a stall.
      // (19/20 of it: libssh's poll may end a little before the clock reads the whole timeout)
      if (a.timeout.count() > 0 && a.elapsed * 20 >= a.timeout * 19) return stalled + " (the device stopped answering)";
      return " failed" + (a.libssh_error.empty() ? std::string() : ": " + terminal_line(a.libssh_error));
  }
  return " refused";
}

}  // namespace fabricctl
