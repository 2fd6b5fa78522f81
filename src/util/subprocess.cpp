#include "util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/escape.h"

extern char** environ;

namespace fabricctl {

namespace {

/// Appends to `to` what `fd` has now, keeping at most `max` bytes; false at its end (or an error).
bool drain(int fd, std::string& to, size_t max) {
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    to.append(buf, std::min(max - std::min(max, to.size()), static_cast<size_t>(n)));
    return true;
  }
}

}  // namespace

Expected<std::string> run_command(const std::vector<std::string>& argv, size_t max_output, std::string* errors) {
  if (argv.empty()) return unexpected("run_command: no program");
  int fds[2], err_fds[2] = {-1, -1};
  if (::pipe2(fds, O_CLOEXEC) != 0) return unexpected(argv[0] + ": cannot create a pipe: " + std::strerror(errno));
  if (errors != nullptr && ::pipe2(err_fds, O_CLOEXEC) != 0) {
    const int e = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return unexpected(argv[0] + ": cannot create a pipe: " + std::strerror(e));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errors != nullptr ? err_fds[1] : fds[1], STDERR_FILENO);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (errors != nullptr) ::close(err_fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    if (errors != nullptr) ::close(err_fds[0]);
    return unexpected(argv[0] + ": cannot run: " + std::strerror(spawned));
  }
  std::string out, err;
  // Both pipes at once: a tool that fills one while fabricctl waits on the other would never finish.
  pollfd open[2] = {{fds[0], POLLIN, 0}, {errors != nullptr ? err_fds[0] : -1, POLLIN, 0}};
  while (open[0].fd >= 0 || open[1].fd >= 0) {
    if (::poll(open, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i)
      if (open[i].fd >= 0 && (open[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0 &&
          !drain(open[i].fd, i == 0 ? out : err, max_output)) {
        ::close(open[i].fd);
        open[i].fd = -1;
      }
  }
  for (const pollfd& p : open)
    if (p.fd >= 0) ::close(p.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (errors != nullptr) *errors = err;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return out;
  const std::string& said = err.find_first_not_of(" \t\r\n") != std::string::npos ? err : out;
  std::string first = said.substr(0, said.find('\n'));
  const std::string how = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                            : "was killed by signal " + std::to_string(WTERMSIG(status));
  return unexpected(argv[0] + " " + how + (first.empty() ? "" : ": " + terminal_line(first)));
}

}  // namespace fabricctl
