// SshSession against a real OpenSSH sshd on 127.0.0.1 (tests/unit/sshd_fixture.h): commands and their
// output on one session, host keys (known, unknown, recorded on first use, changed, pinned), login
// refused, and the bounds (command time, output size, connect).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "shared_dir.h"
#include "sshd_fixture.h"
#include "text_lines.h"
#include "transport/ssh_session.h"

using namespace fabricctl;

namespace {

/// Skips (prints SKIP, passes) when sshd is not installed; fails instead in CI, which installs it.
bool have_sshd(const test::Sshd& sshd) { return sshd.skip_reason.empty() || test::unavailable(sshd.skip_reason); }

SshEndpoint endpoint(const test::Sshd& sshd) {
  SshEndpoint e;
  e.device = "leaf1";
  e.address = "127.0.0.1";
  e.port = sshd.port;
  e.user = sshd.user;
  e.key_file = sshd.dir + "/client";
  return e;
}

SshOptions options(const test::Sshd& sshd, const std::string& known_hosts_text) {
  SshOptions o;
  o.known_hosts = sshd.dir + "/known_hosts";
  std::ofstream(o.known_hosts) << known_hosts_text;
  o.connect_timeout = std::chrono::milliseconds(20000);
  o.command_timeout = std::chrono::milliseconds(20000);
  return o;
}

/// A session to `sshd` whose commands may take `command_timeout`.
SshSession session_with(const test::Sshd& sshd, std::chrono::milliseconds command_timeout) {
  SshOptions o = options(sshd, sshd.known_hosts_line());
  o.command_timeout = command_timeout;
  auto s = SshSession::open(endpoint(sshd), o);
  REQUIRE_MESSAGE(s, s.error());
  return std::move(*s);
}

/// `command` run with `input`, and how long it took.
std::pair<Expected<CommandOutput>, std::chrono::steady_clock::duration> timed_run(SshSession& session,
                                                                                  const std::string& command,
                                                                                  std::string_view input = {}) {
  const auto start = std::chrono::steady_clock::now();
  auto out = session.run(command, input);
  return {std::move(out), std::chrono::steady_clock::now() - start};
}

}  // namespace

// Every case needs something from outside the repository (tests/unit/shared_dir.h: suite "external").
TEST_SUITE_BEGIN("external");

TEST_CASE("ssh: commands run on one session: output, error output and exit status of each") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  auto session = SshSession::open(endpoint(sshd), options(sshd, sshd.known_hosts_line()));
  REQUIRE_MESSAGE(session, session.error() << "\n" << sshd.log());
  CHECK_FALSE(session->recorded_host_key());
  auto a = session->run("echo one; echo two >&2; exit 3");
  REQUIRE_MESSAGE(a, a.error());
  CHECK(a->out == "one\n");
  CHECK(a->err == "two\n");
  CHECK(a->exit_status == 3);
  // The same TCP connection serves every command: the client port sshd sees does not change.
  auto p1 = session->run("echo $SSH_CONNECTION");
  auto p2 = session->run("echo $SSH_CONNECTION");
  REQUIRE(p1);
  REQUIRE(p2);
  CHECK_FALSE(p1->out.empty());
  CHECK(p1->out == p2->out);
  // Output larger than one read and than the channel window.
  auto big = session->run("head -c 3000000 /dev/zero | tr '\\0' x");
  REQUIRE_MESSAGE(big, big.error());
  CHECK(big->out.size() == 3000000);
}

TEST_CASE("ssh: a command a signal ended says which signal, never \"status -1\"; the session goes on") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  SshSession session = session_with(sshd, std::chrono::milliseconds(20000));
  // The shell kills itself: OpenSSH's sshd sends exit-signal "KILL", and no exit status (RFC 4254 6.10).
  auto killed = session.run("echo started; kill -KILL $$");
  REQUIRE_FALSE(killed);
  CHECK(killed.error() == "`echo started; kill -KILL $$`: was killed by signal KILL");
  auto next = session.run("echo after");
  REQUIRE_MESSAGE(next, next.error());
  CHECK(next->out == "after\n");
}

TEST_CASE("ssh: a command's standard input is what was given, then end of file") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  auto session = SshSession::open(endpoint(sshd), options(sshd, sshd.known_hosts_line()));
  REQUIRE_MESSAGE(session, session.error() << "\n" << sshd.log());
  // Larger than the channel window, so the write has to wait for the reader.
  std::string input(3'000'000, 'y');
  input += "\nlast line\n";
  auto echoed = session->run("wc -c; echo done", input);
  REQUIRE_MESSAGE(echoed, echoed.error());
  CHECK(echoed->out == std::to_string(input.size()) + "\ndone\n");
  // Without input, a command that reads standard input sees its end at once instead of waiting.
  auto empty = session->run("cat; echo end");
  REQUIRE_MESSAGE(empty, empty.error());
  CHECK(empty->out == "end\n");
}

TEST_CASE("ssh: an unknown host key is refused, or recorded with --accept-new-host-keys and known after") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  SshOptions o = options(sshd, "");
  auto refused = SshSession::open(endpoint(sshd), o);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().find("leaf1 ([127.0.0.1]:" + std::to_string(sshd.port) +
                             "): unknown host key (ssh-ed25519 key SHA256:") == 0);
  CHECK(refused.error().find("--accept-new-host-keys") != std::string::npos);
  CHECK(test::file_text(o.known_hosts).empty());
  CHECK(sshd.log().find("Accepted publickey") == std::string::npos);  // nothing was sent: no login

  o.accept_new_host_keys = true;
  auto first = SshSession::open(endpoint(sshd), o);
  REQUIRE_MESSAGE(first, first.error());
  CHECK(first->recorded_host_key());
  CHECK(test::file_text(o.known_hosts).find(sshd.host_public_key()) != std::string::npos);

  o.accept_new_host_keys = false;
  auto again = SshSession::open(endpoint(sshd), o);
  REQUIRE_MESSAGE(again, again.error());
  CHECK_FALSE(again->recorded_host_key());
}

TEST_CASE("ssh: a changed host key is always refused, naming both keys") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  for (const bool accept_new : {false, true}) {
    SshOptions o = options(sshd, sshd.changed_known_hosts_line());
    o.accept_new_host_keys = accept_new;
    auto s = SshSession::open(endpoint(sshd), o);
    REQUIRE_FALSE(s);
    CAPTURE(s.error());
    CHECK(s.error().find("HOST KEY CHANGED") != std::string::npos);
    CHECK(s.error().find("leaf1") == 0);
    // Both fingerprints: the known one and the presented one differ, and both are there.
    const size_t first = s.error().find("SHA256:"), second = s.error().find("SHA256:", first + 1);
    REQUIRE(second != std::string::npos);
    CHECK(s.error().substr(first, 50) != s.error().substr(second, 50));
    CHECK(test::file_text(o.known_hosts) == sshd.changed_known_hosts_line());  // never overwritten
  }
  CHECK(sshd.log().find("Accepted publickey") == std::string::npos);
}

TEST_CASE("ssh: a pinned host key decides alone: the right one connects, another is refused") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  SshEndpoint e = endpoint(sshd);
  e.host_key = sshd.host_public_key();  // the whole key; known_hosts is empty
  auto whole = SshSession::open(e, options(sshd, ""));
  REQUIRE_MESSAGE(whole, whole.error());
  // Its fingerprint, as ssh-keygen prints it, pins it too.
  auto fp = run_command({"ssh-keygen", "-l", "-E", "sha256", "-f", sshd.dir + "/host.pub"});
  REQUIRE(fp);
  const std::string fingerprint =
      fp->substr(fp->find("SHA256:"), fp->find(' ', fp->find("SHA256:")) - fp->find("SHA256:"));
  e.host_key = fingerprint;
  CHECK(SshSession::open(e, options(sshd, "")));
  e.host_key = "SHA256:" + std::string(43, 'A');
  auto wrong = SshSession::open(e, options(sshd, sshd.known_hosts_line()));  // known_hosts would accept it
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().find("host key does not match mgmt.host_key") != std::string::npos);
  CHECK(wrong.error().find(fingerprint) != std::string::npos);
}

TEST_CASE("ssh: a refused login, a missing password variable and a closed port are errors naming the device") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  SshEndpoint e = endpoint(sshd);
  e.key_file = sshd.dir + "/other-host";  // a key sshd does not accept
  auto refused = SshSession::open(e, options(sshd, sshd.known_hosts_line()));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().find("leaf1 ([127.0.0.1]:") == 0);
  CHECK(refused.error().find("login as " + sshd.user + " with key") != std::string::npos);

  e.key_file.clear();
  e.password_env = "FABRICCTL_TEST_NO_SUCH_PASSWORD";
  unsetenv("FABRICCTL_TEST_NO_SUCH_PASSWORD");
  auto no_password = SshSession::open(e, options(sshd, sshd.known_hosts_line()));
  REQUIRE_FALSE(no_password);
  CHECK(
      no_password.error().find("environment variable FABRICCTL_TEST_NO_SUCH_PASSWORD (mgmt.password_env) is not set") !=
      std::string::npos);
  // A password sshd refuses (password logins are off) is never in the message.
  setenv("FABRICCTL_TEST_PASSWORD", "s3cret-Pa55", 1);
  e.password_env = "FABRICCTL_TEST_PASSWORD";
  auto bad = SshSession::open(e, options(sshd, sshd.known_hosts_line()));
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("s3cret") == std::string::npos);
  CHECK(sshd.log().find("s3cret") == std::string::npos);
  unsetenv("FABRICCTL_TEST_PASSWORD");

  SshEndpoint closed = endpoint(sshd);
  closed.port = 1;  // nothing listens on 127.0.0.1:1
  auto c = SshSession::open(closed, options(sshd, ""));
  REQUIRE_FALSE(c);
  CHECK(c.error().find("leaf1 ([127.0.0.1]:1): cannot connect") == 0);
  // Refused: a later try may find the port open (ops/paced_connector.h tries again); a login, not.
  CHECK(connection_refused(c.error()));
  CHECK_FALSE(connection_refused(refused.error()));
  CHECK_FALSE(connection_refused(no_password.error()));
}

TEST_CASE("ssh: a command that runs too long or prints too much is stopped, and the session goes on") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  // Time first, on a session with a short command time: sleep 5 is stopped after 1 s (which covers
  // opening the channel and starting the command too: a loaded machine needs some of it).
  SshSession quick = session_with(sshd, std::chrono::milliseconds(1000));
  const auto [slow, took] = timed_run(quick, "sleep 5");
  REQUIRE_FALSE(slow);
  // The command, not the device (callers name it), and which timeout, in the option's unit.
  CHECK(slow.error() == "`sleep 5`: did not finish within --command-timeout 1 s; stopped");
  CHECK(took < std::chrono::seconds(4));
  // A long command is shown cut, on one line.
  auto long_one = quick.run("sleep 5 # a comment\n\tthat goes on " + std::string(200, 'x'));
  REQUIRE_FALSE(long_one);
  CHECK(long_one.error() == "`sleep 5 # a comment  that goes on " + std::string(86, 'x') +
                                "...`: did not finish within --command-timeout 1 s; stopped");
  // Size, on a session with time enough (a slow machine, a sanitizer build): 1 MB against 100 kB.
  SshOptions o = options(sshd, sshd.known_hosts_line());
  o.max_output_bytes = 100000;
  auto session = SshSession::open(endpoint(sshd), o);
  REQUIRE_MESSAGE(session, session.error());
  auto loud = session->run("head -c 1000000 /dev/zero");
  REQUIRE_FALSE(loud);
  CHECK(loud.error() == "`head -c 1000000 /dev/zero`: printed more than 100000 bytes; stopped");
  auto after = session->run("echo still here");
  REQUIRE_MESSAGE(after, after.error());
  CHECK(after->out == "still here\n");
}

TEST_CASE("ssh: a command that does not read its input is stopped at the command timeout, naming it") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  // 2.5 s: a fraction of a second in the message.
  SshSession session = session_with(sshd, std::chrono::milliseconds(2500));
  // More than the channel window and the pipe behind it hold: the write waits for a reader.
  const auto [stuck, took] = timed_run(session, "sleep 60", std::string(8'000'000, 'y'));
  REQUIRE_FALSE(stuck);
  CHECK(stuck.error() ==
        "`sleep 60`: did not finish within --command-timeout 2.5 s (it did not read all of its input); stopped");
  CHECK(took < std::chrono::seconds(6));
}

TEST_CASE("ssh: when the device closes the connection, every later command says so, never an empty reason") {
  test::Sshd sshd;
  if (!have_sshd(sshd)) return;
  auto session = SshSession::open(endpoint(sshd), options(sshd, sshd.known_hosts_line()));
  REQUIRE_MESSAGE(session, session.error());
  // The command's parent is sshd's process for this connection: the connection goes with it.
  auto killed = session->run("kill -TERM $PPID; sleep 5");
  REQUIRE_FALSE(killed);
  // libssh's own words, whichever call saw the connection go ("waiting for its output failed:
  // Socket error: disconnected" with libssh 0.10).
  const std::string prefix = "`kill -TERM $PPID; sleep 5`: ";
  CHECK(killed.error().rfind(prefix, 0) == 0);
  CHECK(killed.error().size() > prefix.size() + 10);
  // libssh's text for the next command would be the one it gave for this failure, which is not news.
  auto next = session->run("echo after");
  REQUIRE_FALSE(next);
  CHECK(next.error() == "`echo after`: cannot open a channel: the connection to the device is closed");
}

TEST_CASE("ssh: a device that accepts the connection and never answers is a connect timeout, in seconds") {
  // A socket that listens and never speaks SSH: the kernel completes the TCP handshake.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(listen(fd, 4) == 0);
  socklen_t len = sizeof a;
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  SshEndpoint e;
  e.device = "leaf1";
  e.address = "127.0.0.1";
  e.port = ntohs(a.sin_port);
  e.user = "nobody";
  e.agent = true;
  SshOptions o;
  o.known_hosts = "/dev/null";  // never reached: the key exchange does not start
  o.connect_timeout = std::chrono::milliseconds(300);
  const auto start = std::chrono::steady_clock::now();
  auto s = SshSession::open(e, o);
  const auto took = std::chrono::steady_clock::now() - start;
  close(fd);
  REQUIRE_FALSE(s);
  CHECK(s.error() == "leaf1 ([127.0.0.1]:" + std::to_string(e.port) +
                         "): cannot connect: Timeout connecting to 127.0.0.1 (--connect-timeout 0.3 s)");
  CHECK(took < std::chrono::seconds(3));
  CHECK_FALSE(connection_refused(s.error()));  // a device that took the connection and then went silent
}

TEST_SUITE_END();
