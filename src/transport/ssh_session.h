// SSH to a device (libssh): one session per device, reused for every command it runs; host keys
// verified before anything is sent (host_key.h); bounded connect and command times and output size.
// The thin adapter over libssh: every decision that can be made without a network lives in pure code
// (host_key.cpp, the platform collectors' command lists), and is tested there.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "util/expected.h"

namespace fabricctl {

/// Where and how to log in, from the inventory's mgmt settings (model/fabric.h DeviceMgmt). Exactly
/// one way to authenticate is set.
struct SshEndpoint {
  std::string device;  // for messages
  std::string address;
  int port = 22;
  std::string user;
  std::string key_file;      // a private key without passphrase (use the agent for others)
  bool agent = false;        // ssh-agent, through SSH_AUTH_SOCK
  std::string password_env;  // the name of the environment variable holding the password
  std::string host_key;      // mgmt.host_key: pinned "SHA256:..." or "<type> <base64>"; empty: known_hosts
};

/// Settings shared by every session of a run.
struct SshOptions {
  std::string known_hosts;  // the file host keys are checked against and recorded in
  bool accept_new_host_keys = false;
  std::chrono::milliseconds connect_timeout{10'000};  // TCP connect, key exchange and login (--connect-timeout)
  std::chrono::milliseconds command_timeout{60'000};  // each command, from opening its channel to its exit
                                                      // status (--command-timeout)
  size_t max_output_bytes = size_t{64} << 20;         // stdout and stderr of one command together
};

/// What a command printed, and how it ended.
struct CommandOutput {
  int exit_status = -1;
  std::string out;
  std::string err;
};

/// Whether an error of SshSession::open says the device refused or reset the TCP connection (its sshd
/// not listening yet, a listen queue full): a later try may connect. Not a timeout, a host key or a
/// login: those a later try meets again.
bool connection_refused(std::string_view error);

class SshSession {
 public:
  /// Connects, verifies the host key and logs in. The error names the device and what failed; a
  /// password never appears in it.
  static Expected<SshSession> open(const SshEndpoint& endpoint, const SshOptions& options);

  SshSession(SshSession&&) noexcept;
  SshSession& operator=(SshSession&&) noexcept;
  ~SshSession();

  /// Runs `command` (one string for the device's login shell or CLI: its values already checked and
  /// quoted by the caller) on a new channel of this session. A command that outlives
  /// command_timeout or prints more than max_output_bytes is stopped, and that is the error.
  /// Errors name the command (one line, cut) and what happened, with libssh's reason or, when it
  /// gives none, what is known ("`nv config detach`: cannot open a channel: the connection to the
  /// device is closed"); not the device, which every caller names with the step.
  Expected<CommandOutput> run(const std::string& command);
  /// The same, with `input` written to the command's standard input, then end of file (a patch file
  /// for `config apply-patch /dev/stdin`, a host's desired state for `fabricctl host apply`).
  Expected<CommandOutput> run(const std::string& command, std::string_view input);

  /// True when open() recorded the device's key in known_hosts (first use with
  /// --accept-new-host-keys).
  [[nodiscard]] bool recorded_host_key() const;

 private:
  struct State;
  explicit SshSession(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

/// The user's known_hosts file: $HOME/.ssh/known_hosts ("" without HOME).
std::string default_known_hosts();

}  // namespace fabricctl
