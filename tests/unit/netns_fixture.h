// A network namespace with one veth pair, made by a test for itself and removed when it goes out of scope
// (even when a REQUIRE throws), and a way to run code inside it. Needs root; without root (or without
// `ip`) it skips with "SKIP: <reason>", and fails instead when CI is set (CI runs as root).
#pragma once

#include <doctest/doctest.h>

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include "shared_dir.h"
#include "util/subprocess.h"

namespace fabricctl::test {

class Netns {
 public:
  /// Namespace "fctl-<tag>-<pid>" holding veth `a` (peer `b`), both down: DCB answers without a link.
  explicit Netns(const std::string& tag) : name_("fctl-" + tag + "-" + std::to_string(::getpid())) {
    if (::geteuid() != 0) {
      skip_reason_ = "network namespace tests need root";
      return;
    }
    remove_orphans();
    (void)run_command({"ip", "netns", "del", name_});  // a leftover of a killed run of the same pid
    if (auto r = run_command({"ip", "netns", "add", name_}); !r) {
      skip_reason_ = "cannot create a network namespace: " + r.error();
      return;
    }
    created_ = true;
    if (auto r = run_command({"ip", "-n", name_, "link", "add", "name", a, "type", "veth", "peer", "name", b}); !r)
      skip_reason_ = "cannot create a veth pair: " + r.error();
  }
  ~Netns() {
    if (created_) (void)run_command({"ip", "netns", "del", name_});
  }
  Netns(const Netns&) = delete;
  Netns& operator=(const Netns&) = delete;

  const std::string& name() const { return name_; }

  /// Deletes the namespaces of test runs that were killed before their destructor ran: "fctl-<tag>-<pid>"
  /// whose process is gone. A live run's namespaces, another test run's and this one's among them, are
  /// left alone.
  static void remove_orphans() {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/run/netns", ec)) {
      const std::string n = entry.path().filename().string();
      const size_t dash = n.rfind('-');
      if (!n.starts_with("fctl-") || dash == std::string::npos || dash + 1 == n.size()) continue;
      const std::string pid_text = n.substr(dash + 1);
      if (pid_text.find_first_not_of("0123456789") != std::string::npos || pid_text.size() > 9) continue;
      const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
      if (pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) (void)run_command({"ip", "netns", "del", n});
    }
  }

  /// True when the namespace is there; otherwise prints the SKIP line (or fails under CI).
  bool available() const { return skip_reason_.empty() || unavailable(skip_reason_); }

  /// Runs `f` in a forked child that entered the namespace (setns on /run/netns/NAME) and returns what it
  /// returned; "setns: ..." when it could not enter. The child never returns into the test runner.
  std::string run_inside(const std::function<std::string()>& f) const {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::close(fds[0]);
      std::string out;
      const int ns = ::open(("/run/netns/" + name_).c_str(), O_RDONLY | O_CLOEXEC);
      if (ns < 0 || ::setns(ns, CLONE_NEWNET) != 0) {
        out = std::string("setns: ") + std::strerror(errno);
      } else {
        try {
          out = f();
        } catch (const std::exception& e) {
          out = std::string("exception: ") + e.what();
        }
      }
      for (size_t done = 0; done < out.size();) {
        const ssize_t n = ::write(fds[1], out.data() + done, out.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
      }
      ::_exit(0);
    }
    ::close(fds[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof(buf))) > 0;) out.append(buf, static_cast<size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), "the child in the namespace did not exit cleanly");
    return out;
  }

  const std::string a = "fctl0";
  const std::string b = "fctl1";

 private:
  std::string name_;
  std::string skip_reason_;
  bool created_ = false;
};

}  // namespace fabricctl::test
