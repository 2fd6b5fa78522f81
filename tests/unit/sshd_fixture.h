// A real OpenSSH sshd on 127.0.0.1, for the transport tests: its own host key, a client key it
// accepts for the user running the tests, a free port, and a log. Started in the constructor, killed
// and waited for in the destructor; its directory is removed. When sshd or ssh-keygen is not
// installed, `skip_reason` says so and nothing runs (tests print "SKIP: ..."; CI requires sshd).
#pragma once

#include <doctest/doctest.h>

#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "util/subprocess.h"

extern char** environ;

namespace fabricctl::test {

/// Starts `argv` (an absolute path first) as the leader of a process group of its own, so that
/// `kill(-pid, ...)` reaches what it starts too; its pid.
inline pid_t spawn_group(std::vector<std::string> argv) {
  std::vector<char*> args;
  for (std::string& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0], nullptr, &attr, args.data(), environ);
  posix_spawnattr_destroy(&attr);
  REQUIRE_MESSAGE(rc == 0, "cannot start " << argv[0]);
  return pid;
}

class Sshd {
 public:
  /// `force_command`: what sshd runs for every login instead of the client's command (which the
  /// forced one finds in SSH_ORIGINAL_COMMAND): a NOS emulator in front of its state. "" for none.
  explicit Sshd(const std::string& force_command = {}) {
    if (access("/usr/sbin/sshd", X_OK) != 0) {
      skip_reason = "sshd is not installed (Debian openssh-server; scripts/install-deps installs it)";
      return;
    }
    char tmpl[] = "/tmp/fabricctl-sshd-XXXXXX";
    dir = mkdtemp(tmpl);
    for (const char* key : {"host", "client", "other-host"})
      REQUIRE(run_command({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", key, "-f", dir + "/" + key}));
    std::filesystem::copy_file(dir + "/client.pub", dir + "/authorized_keys");
    user = getpwuid(getuid())->pw_name;
    port = free_port();
    std::ofstream(dir + "/sshd_config") << "Port " << port << "\nListenAddress 127.0.0.1\nHostKey " << dir
                                        << "/host\nPidFile " << dir << "/sshd.pid\nAuthorizedKeysFile " << dir
                                        << "/authorized_keys\nStrictModes no\nUsePAM no\nPasswordAuthentication no\n"
                                           "KbdInteractiveAuthentication no\nPermitRootLogin prohibit-password\n"
                                           "LogLevel VERBOSE\nMaxSessions 16\nSetEnv SHLVL=1\n"
                                        << (force_command.empty() ? "" : "ForceCommand " + force_command + "\n");
    // SetEnv SHLVL=1: sshd runs every command through the user's shell, and Debian's bash (built with
    // SSH_SOURCE_BASHRC) then reads ~/.bashrc unless SHLVL says the shell is nested. The tester's rc
    // files are no part of a switch's CLI, and cost a second per command where .bashrc runs `pyenv init`.
    if (getuid() == 0) std::filesystem::create_directories("/run/sshd");  // privilege separation
    const std::string config = dir + "/sshd_config", log = dir + "/sshd.log";
    // In a process group of its own, so that teardown reaches the per-connection processes too.
    pid = spawn_group({"/usr/sbin/sshd", "-D", "-r", "-f", config, "-E", log});
    // Ready when it accepts a connection: at most 5 s.
    for (int i = 0; i < 100 && !accepts(port); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    REQUIRE_MESSAGE(accepts(port), "sshd did not start: " << this->log());
  }
  ~Sshd() {
    if (pid > 0) {
      kill(-pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
    if (!dir.empty()) std::filesystem::remove_all(dir);
  }
  Sshd(const Sshd&) = delete;
  Sshd& operator=(const Sshd&) = delete;

  /// The public key of the host key, as "<type> <base64>", and as known_hosts wants it.
  [[nodiscard]] std::string host_public_key() const { return first_two_words(dir + "/host.pub"); }
  [[nodiscard]] std::string known_hosts_line() const {
    return "[127.0.0.1]:" + std::to_string(port) + " " + host_public_key() + "\n";
  }
  /// The other key's line: what known_hosts says when the device's key changed.
  [[nodiscard]] std::string changed_known_hosts_line() const {
    return "[127.0.0.1]:" + std::to_string(port) + " " + first_two_words(dir + "/other-host.pub") + "\n";
  }
  [[nodiscard]] std::string log() const {
    std::ifstream in(dir + "/sshd.log");
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string skip_reason;
  std::string dir;
  std::string user;
  int port = 0;
  pid_t pid = -1;

 private:
  static std::string first_two_words(const std::string& path) {
    std::ifstream in(path);
    std::string type, blob;
    in >> type >> blob;
    return type + " " + blob;
  }
  static int free_port() {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    socklen_t len = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    close(fd);
    return ntohs(a.sin_port);
  }
  static bool accepts(int port) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    close(fd);
    return ok;
  }
};

}  // namespace fabricctl::test
