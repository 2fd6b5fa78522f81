// Why a login failed, the decision only: libssh's answer (its userauth return code, its error text) and
// how long the call took, as a message that says what happened. The SSH adapter (ssh_session.cpp) asks
// libssh and measures; the wording lives here, where it is tested without a network. A stall is not a
// refusal: a device that accepted the key and then went quiet must not read as one that refused it.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace fabricctl {

/// libssh's userauth outcomes, by meaning (SSH_AUTH_*).
enum class LoginOutcome { success, denied, partial, again, error };

struct LoginAnswer {
  LoginOutcome outcome = LoginOutcome::denied;
  std::chrono::milliseconds elapsed{0};  // how long the login call took
  std::chrono::milliseconds timeout{0};  // --connect-timeout
  std::string libssh_error;              // ssh_get_error() after the call, for `error`
};

/// What follows "login as USER with HOW": " refused", ": no answer within --connect-timeout N s", ...;
/// empty for success. `timeout_text` is the timeout as messages state it ("--connect-timeout 10 s").
std::string login_failure(const LoginAnswer& a, std::string_view timeout_text);

}  // namespace fabricctl
