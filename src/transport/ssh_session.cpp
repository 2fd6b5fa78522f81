#include "transport/ssh_session.h"

#include <libssh/callbacks.h>
#include <libssh/libssh.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <utility>

#include "transport/host_key.h"
#include "transport/login_error.h"
#include "util/escape.h"

namespace fabricctl {

namespace {

/// OpenSSH's name of a host in known_hosts: the address, or "[address]:port" off port 22.
std::string known_hosts_name(const SshEndpoint& e) {
  return e.port == 22 ? e.address : "[" + e.address + "]:" + std::to_string(e.port);
}

/// "SHA256:<base64>" of a key, or "" when libssh cannot hash it.
std::string fingerprint_of(ssh_key key) {
  unsigned char* hash = nullptr;
  size_t len = 0;
  if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &len) != SSH_OK) return "";
  char* text = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, len);
  ssh_clean_pubkey_hash(&hash);
  if (text == nullptr) return "";
  std::string out = text;
  ssh_string_free_char(text);
  return out;
}

/// A timeout as messages state it, with the option that sets it: "--command-timeout 60 s". The
/// options take whole seconds; tests use fractions ("0.3 s").
std::string timeout_text(std::string_view option, std::chrono::milliseconds t) {
  const long long ms = t.count();
  std::string s = std::string(option) + " " + std::to_string(ms / 1000);
  if (ms % 1000 != 0) {
    std::string frac = std::to_string(1000 + ms % 1000).substr(1);  // 3 digits, leading zeros kept
    while (frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  return s + " s";
}

/// What libssh says about the session's last failure, when it is new: libssh never clears its error
/// text, so a text equal to `before` (read just before the call) belongs to an earlier failure, and
/// some calls fail without setting one (a reply that never came). `otherwise` says what happened then.
std::string libssh_reason(ssh_session s, const std::string& before, std::string otherwise) {
  const std::string said = ssh_get_error(s);
  if (said.empty() || said == before) return otherwise;
  return terminal_line(said);
}

struct KeyDeleter {
  void operator()(ssh_key k) const { ssh_key_free(k); }
};
using Key = std::unique_ptr<std::remove_pointer_t<ssh_key>, KeyDeleter>;

}  // namespace

struct SshSession::State {
  ssh_session session = nullptr;
  SshOptions options;
  bool recorded = false;
  ~State() {
    if (session != nullptr) {
      ssh_disconnect(session);
      ssh_free(session);
    }
  }
};

SshSession::SshSession(std::unique_ptr<State> state) : state_(std::move(state)) {}
SshSession::SshSession(SshSession&&) noexcept = default;
SshSession& SshSession::operator=(SshSession&&) noexcept = default;
SshSession::~SshSession() = default;
bool SshSession::recorded_host_key() const { return state_->recorded; }

std::string default_known_hosts() {
  const char* home = std::getenv("HOME");
  return home != nullptr && *home != '\0' ? std::string(home) + "/.ssh/known_hosts" : std::string();
}

namespace {

/// The keys `known_hosts` holds for `host` ("[addr]:port" or "addr"), hashed names included, as
/// "<type> key SHA256:...", joined with " and "; "" when none can be read.
std::string known_keys(const std::string& known_hosts, const std::string& host) {
  std::ifstream in(known_hosts);
  std::string line, out;
  for (int n = 0; n < 100000 && std::getline(in, line); ++n) {  // bounded: a known_hosts file is small
    ssh_knownhosts_entry* entry = nullptr;
    if (ssh_known_hosts_parse_line(host.c_str(), line.c_str(), &entry) == SSH_OK && entry != nullptr) {
      if (entry->publickey != nullptr)
        out += (out.empty() ? "" : " and ") + std::string(ssh_key_type_to_char(ssh_key_type(entry->publickey))) +
               " key " + fingerprint_of(entry->publickey);
      ssh_knownhosts_entry_free(entry);
    }
  }
  return out;
}

/// Verifies the host key of a connected session as decide_host_key() says; records it when told to.
/// Every error starts with `where` ("leaf1 ([192.0.2.1]:22)"), as decide_host_key()'s own do.
Expected<bool> verify_host_key(ssh_session s, const SshEndpoint& e, const SshOptions& o, const std::string& where) {
  ssh_key raw = nullptr;
  if (ssh_get_server_publickey(s, &raw) != SSH_OK)
    return unexpected(where + ": cannot read the host key: " + std::string(ssh_get_error(s)));
  const Key server(raw);
  HostKeyQuestion q;
  q.device = e.device;
  q.address = known_hosts_name(e);
  q.presented = {ssh_key_type_to_char(ssh_key_type(server.get())), fingerprint_of(server.get())};
  q.known_hosts_file = o.known_hosts;
  q.accept_new = o.accept_new_host_keys;
  if (!e.host_key.empty()) {
    q.pinned = e.host_key;
    if (e.host_key.rfind("SHA256:", 0) != 0) {
      // "<type> <base64>": the whole key, compared as a key.
      const size_t space = e.host_key.find(' ');
      ssh_key pinned = nullptr;
      const std::string type = e.host_key.substr(0, space);
      const std::string blob = space == std::string::npos ? "" : e.host_key.substr(space + 1);
      const bool imported =
          ssh_pki_import_pubkey_base64(blob.c_str(), ssh_key_type_from_name(type.c_str()), &pinned) == SSH_OK;
      const Key held(pinned);
      q.pinned_key_matches = imported && ssh_key_cmp(server.get(), held.get(), SSH_KEY_CMP_PUBLIC) == 0;
    }
  } else {
    switch (ssh_session_is_known_server(s)) {
      case SSH_KNOWN_HOSTS_OK: q.known = KnownHosts::match; break;
      case SSH_KNOWN_HOSTS_CHANGED: q.known = KnownHosts::changed; break;
      case SSH_KNOWN_HOSTS_OTHER: q.known = KnownHosts::other_type; break;
      case SSH_KNOWN_HOSTS_UNKNOWN:
      case SSH_KNOWN_HOSTS_NOT_FOUND: q.known = KnownHosts::unknown; break;
      case SSH_KNOWN_HOSTS_ERROR:
      default: return unexpected(where + ": cannot read " + o.known_hosts + ": " + std::string(ssh_get_error(s)));
    }
    if (q.known == KnownHosts::changed || q.known == KnownHosts::other_type)
      q.known_fingerprint = known_keys(o.known_hosts, q.address);
    if (q.known_fingerprint.empty()) q.known_fingerprint = "another key";
  }
  const HostKeyVerdict v = decide_host_key(q);
  if (!v.accept) return unexpected(v.error);
  if (v.record && ssh_session_update_known_hosts(s) != SSH_OK)
    return unexpected(where + ": cannot record the host key in " + o.known_hosts + ": " +
                      std::string(ssh_get_error(s)));
  return v.record;
}

Expected<bool> authenticate(ssh_session s, const SshEndpoint& e, const SshOptions& o) {
  int rc = SSH_AUTH_DENIED;
  std::string how;
  const auto started = std::chrono::steady_clock::now();
  if (!e.key_file.empty()) {
    how = "key " + e.key_file;
    ssh_key raw = nullptr;
    if (ssh_pki_import_privkey_file(e.key_file.c_str(), nullptr, nullptr, nullptr, &raw) != SSH_OK)
      return unexpected("cannot read the private key " + e.key_file +
                        " (a key with a passphrase needs the agent: mgmt.agent: true)");
    const Key key(raw);
    rc = ssh_userauth_publickey(s, nullptr, key.get());
  } else if (e.agent) {
    how = "ssh-agent";
    rc = ssh_userauth_agent(s, nullptr);
  } else if (!e.password_env.empty()) {
    how = "the password in $" + e.password_env;
    const char* password = std::getenv(e.password_env.c_str());
    if (password == nullptr)
      return unexpected("environment variable " + e.password_env + " (mgmt.password_env) is not set");
    rc = ssh_userauth_password(s, nullptr, password);
  } else {
    return unexpected("no way to log in: set mgmt.key, mgmt.agent or mgmt.password_env");
  }
  // Blocking calls return "again" when no answer came within the session's timeout, or an error when
  // it passed in the middle of the exchange (login_error.h).
  LoginAnswer answer;
  answer.outcome = rc == SSH_AUTH_SUCCESS   ? LoginOutcome::success
                   : rc == SSH_AUTH_PARTIAL ? LoginOutcome::partial
                   : rc == SSH_AUTH_AGAIN   ? LoginOutcome::again
                   : rc == SSH_AUTH_ERROR   ? LoginOutcome::error
                                            : LoginOutcome::denied;
  answer.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  answer.timeout = o.connect_timeout;
  if (rc == SSH_AUTH_ERROR) answer.libssh_error = ssh_get_error(s);
  if (const std::string why = login_failure(answer, timeout_text("--connect-timeout", o.connect_timeout)); !why.empty())
    return unexpected("login as " + e.user + " with " + how + why);
  return true;
}

}  // namespace

Expected<SshSession> SshSession::open(const SshEndpoint& e, const SshOptions& o) {
  auto state = std::make_unique<State>();
  state->options = o;
  state->session = ssh_new();
  if (state->session == nullptr) return unexpected(e.device + ": cannot create an SSH session");
  ssh_session s = state->session;
  const long timeout_us =
      static_cast<long>(std::chrono::duration_cast<std::chrono::microseconds>(o.connect_timeout).count());
  const long seconds = timeout_us / 1'000'000, micros = timeout_us % 1'000'000;
  const unsigned int port = static_cast<unsigned int>(e.port);
  const int no = 0;
  // Only what the inventory says: ~/.ssh/config is not read, so a run does what its inventory shows.
  if (ssh_options_set(s, SSH_OPTIONS_PROCESS_CONFIG, &no) != SSH_OK ||
      ssh_options_set(s, SSH_OPTIONS_HOST, e.address.c_str()) != SSH_OK ||
      ssh_options_set(s, SSH_OPTIONS_PORT, &port) != SSH_OK ||
      ssh_options_set(s, SSH_OPTIONS_USER, e.user.c_str()) != SSH_OK ||
      ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &seconds) != SSH_OK ||
      ssh_options_set(s, SSH_OPTIONS_TIMEOUT_USEC, &micros) != SSH_OK ||
      ssh_options_set(s, SSH_OPTIONS_KNOWNHOSTS, o.known_hosts.c_str()) != SSH_OK ||
      ssh_options_set(s, SSH_OPTIONS_GLOBAL_KNOWNHOSTS, "/etc/ssh/ssh_known_hosts") != SSH_OK)
    return unexpected(e.device + ": bad SSH settings: " + std::string(ssh_get_error(s)));
  const std::string where = e.device + " (" + known_hosts_name(e) + ")";
  const auto start = std::chrono::steady_clock::now();
  if (ssh_connect(s) != SSH_OK) {
    // libssh's text says "Timeout connecting to <address>" but not which timeout, or how long.
    const bool late = std::chrono::steady_clock::now() - start >= o.connect_timeout;
    return unexpected(where + ": cannot connect: " + libssh_reason(s, "", "the connection failed") +
                      (late ? " (" + timeout_text("--connect-timeout", o.connect_timeout) + ")" : ""));
  }
  auto recorded = verify_host_key(s, e, o, where);
  if (!recorded) return unexpected(recorded.error());
  state->recorded = *recorded;
  if (auto ok = authenticate(s, e, o); !ok) return unexpected(where + ": " + ok.error());
  return SshSession(std::move(state));
}

bool connection_refused(std::string_view error) {
  // libssh reports a failed connect as the socket error's text (strerror), which open() puts after
  // "cannot connect: ".
  for (const int e : {ECONNREFUSED, ECONNRESET})
    if (error.ends_with(std::string(": cannot connect: ") + std::strerror(e))) return true;
  return false;
}

Expected<CommandOutput> SshSession::run(const std::string& command) { return run(command, {}); }

namespace {

/// Longest command shown in a message, in bytes: enough to tell an `nv set` line from another.
constexpr size_t kShownCommandBytes = 120;

/// A command as messages name it: one printable line between backticks, cut (at a character
/// boundary) after kShownCommandBytes. It may carry values (names, addresses), never a secret:
/// passwords go to libssh, not into commands.
std::string shown(const std::string& command) {
  std::string line = terminal_line(command);
  if (line.size() > kShownCommandBytes) {
    size_t cut = kShownCommandBytes;
    while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
    line.resize(cut);
    line += "...";
  }
  return "`" + line + "`";
}

/// Bounds libssh's next blocking call (opening the channel, starting the command, writing its
/// input, reading its exit status) by what is left until `deadline`: the session's timeout is what
/// libssh waits for each. False when nothing is left (the call then gets 1 ms).
bool bound_by(ssh_session s, std::chrono::steady_clock::time_point deadline) {
  const auto left =
      std::chrono::duration_cast<std::chrono::microseconds>(deadline - std::chrono::steady_clock::now()).count();
  // At least 1 ms: libssh reads a timeout of 0 as none at all.
  const long total = std::max<long>(static_cast<long>(left), 1000);
  const long seconds = total / 1'000'000, micros = total % 1'000'000;
  ssh_options_set(s, SSH_OPTIONS_TIMEOUT, &seconds);
  ssh_options_set(s, SSH_OPTIONS_TIMEOUT_USEC, &micros);
  return left > 0;
}

/// The exit-signal a server sends instead of an exit status for a command a signal ended (RFC 4254
/// 6.10): the signal's name without "SIG", whether it dumped core, and its message. Device text.
struct ExitSignal {
  std::string name;
  bool core = false;
  std::string message;

  static void on_signal(ssh_session, ssh_channel, const char* signal, int core, const char* errmsg, const char*,
                        void* self) {
    auto* s = static_cast<ExitSignal*>(self);
    s->name = signal != nullptr ? signal : "";
    s->core = core != 0;
    s->message = errmsg != nullptr ? errmsg : "";
  }
  /// "was killed by signal KILL (core dumped): <message>", untrusted text cut to a printable line.
  [[nodiscard]] std::string text() const {
    std::string t = "was killed by signal " + terminal_line(name.substr(0, 32));
    if (core) t += " (core dumped)";
    if (const std::string m = terminal_line(message.substr(0, 200)); !m.empty()) t += ": " + m;
    return t;
  }
};

/// What to say when libssh gives no reason: whether the connection or the channel is gone.
std::string lost(ssh_session s, ssh_channel c, std::string_view otherwise) {
  if (ssh_is_connected(s) == 0) return "the connection to the device is closed";
  if (c != nullptr && ssh_channel_is_closed(c) != 0) return "the device closed the channel";
  return std::string(otherwise);
}

}  // namespace

Expected<CommandOutput> SshSession::run(const std::string& command, std::string_view input) {
  ssh_session s = state_->session;
  const SshOptions& o = state_->options;
  // One deadline for the whole command, from opening its channel to its exit status: libssh's
  // blocking calls would otherwise each wait the session's timeout (--connect-timeout).
  const auto deadline = std::chrono::steady_clock::now() + o.command_timeout;
  const std::string cmd = shown(command);
  // Callers name the device (and the step); every message here names the command and what
  // happened to it, and never ends without a reason.
  auto failed = [&](const std::string& what) { return unexpected(cmd + ": " + what); };
  auto timed_out = [&](std::string_view where) {
    return failed("did not finish within " + timeout_text("--command-timeout", o.command_timeout) + std::string(where) +
                  "; stopped");
  };
  std::string before = ssh_get_error(s);
  ExitSignal signal;  // before the channel's guard: the channel's callbacks point at it
  ssh_channel_callbacks_struct callbacks{};
  ssh_channel channel = ssh_channel_new(s);
  if (channel == nullptr)
    return failed("cannot open a channel: " +
                  libssh_reason(s, before, lost(s, nullptr, "libssh has no session for it")));
  callbacks.userdata = &signal;
  callbacks.channel_exit_signal_function = &ExitSignal::on_signal;
  ssh_callbacks_init(&callbacks);
  ssh_set_channel_callbacks(channel, &callbacks);
  // The callbacks go first: libssh keeps a channel it frees before the device closed it, and calls its
  // callbacks when the device's close comes, during a later command, when `signal` is long gone.
  struct ChannelGuard {
    ssh_channel c;
    ssh_channel_callbacks cb;
    ~ChannelGuard() {
      ssh_remove_channel_callbacks(c, cb);
      ssh_channel_close(c);
      ssh_channel_free(c);
    }
  } guard{channel, &callbacks};
  if (!bound_by(s, deadline)) return timed_out(" (no channel opened)");
  if (const int rc = ssh_channel_open_session(channel); rc != SSH_OK) {
    if (rc == SSH_AGAIN) return timed_out(" (the device opened no channel)");
    return failed("cannot open a channel: " +
                  libssh_reason(s, before, lost(s, channel, "the device refused to open a channel")));
  }
  before = ssh_get_error(s);
  if (!bound_by(s, deadline)) return timed_out(" (not started)");
  if (const int rc = ssh_channel_request_exec(channel, command.c_str()); rc != SSH_OK) {
    if (rc == SSH_AGAIN) return timed_out(" (the device did not start it)");
    return failed("cannot start it: " + libssh_reason(s, before, lost(s, channel, "the device refused to run it")));
  }
  // Standard input first, then end of file, so a command that reads it (or waits on it) goes on. A
  // blocking write: the channel's window bounds what is in flight, and inputs are at most a few MB.
  while (!input.empty()) {
    if (!bound_by(s, deadline)) return timed_out(" (it did not read all of its input)");
    before = ssh_get_error(s);
    const uint32_t chunk = static_cast<uint32_t>(std::min<size_t>(input.size(), 32768));
    const int n = ssh_channel_write(channel, input.data(), chunk);
    if (n <= 0) {
      // 0 with the channel still open: its window stayed shut until the timeout, so the command
      // is not reading. libssh also returns 0 when the connection broke meanwhile.
      const bool gone = ssh_is_connected(s) == 0 || ssh_channel_is_closed(channel) != 0;
      if (n == 0 && !gone) return timed_out(" (it did not read all of its input)");
      return failed("writing its input failed: " + libssh_reason(s, before, lost(s, channel, "libssh gave no reason")));
    }
    input.remove_prefix(static_cast<size_t>(n));
  }
  bound_by(s, deadline);
  ssh_channel_send_eof(channel);
  CommandOutput out;
  char buf[16384];
  for (;;) {
    bool any = false;
    for (const int is_stderr : {0, 1}) {
      before = ssh_get_error(s);
      const int n = ssh_channel_read_nonblocking(channel, buf, sizeof buf, is_stderr);
      if (n == SSH_ERROR)
        return failed("reading its output failed: " +
                      libssh_reason(s, before, lost(s, channel, "libssh gave no reason")));
      if (n > 0) {
        (is_stderr ? out.err : out.out).append(buf, static_cast<size_t>(n));
        any = true;
      }
    }
    if (out.out.size() + out.err.size() > o.max_output_bytes)
      return failed("printed more than " + std::to_string(o.max_output_bytes) + " bytes; stopped");
    if (!any && ssh_channel_is_eof(channel) != 0) break;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return timed_out("");
    if (!any) {
      // Wait for data, at most until the deadline and never long, so the deadline is kept.
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
      const int wait = static_cast<int>(left < 100 ? left : 100);
      before = ssh_get_error(s);
      if (ssh_channel_poll_timeout(channel, wait, 0) == SSH_ERROR)
        return failed("waiting for its output failed: " +
                      libssh_reason(s, before, lost(s, channel, "libssh gave no reason")));
    }
  }
  // The exit status comes with or just after end of file; waiting for it is bounded too.
  const bool left = bound_by(s, deadline);
  out.exit_status = ssh_channel_get_exit_status(channel);
  if (out.exit_status != -1) return out;
  // None: a signal ended it, the deadline came first, or the device sends none (then -1 stays, and
  // messages say "ended without an exit status", platform/transaction.h).
  if (!signal.name.empty()) return failed(signal.text());
  if (!left || std::chrono::steady_clock::now() >= deadline) return timed_out(" (no exit status came)");
  return out;
}

}  // namespace fabricctl
