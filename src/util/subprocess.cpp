#include "util/subprocess.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "util/escape.h"

extern char** environ;

namespace fabricctl {

Expected<std::string> run_command(const std::vector<std::string>& argv, size_t max_output) {
  if (argv.empty()) return unexpected("run_command: no program");
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return unexpected(argv[0] + ": cannot create a pipe: " + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  if (spawned != 0) {
    ::close(fds[0]);
    return unexpected(argv[0] + ": cannot run: " + std::strerror(spawned));
  }
  std::string out;
  char buf[65536];
  while (true) {
    const ssize_t n = ::read(fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const size_t room = max_output - std::min(max_output, out.size());
    out.append(buf, std::min(room, static_cast<size_t>(n)));
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return out;
  std::string first = out.substr(0, out.find('\n'));
  const std::string how = WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                                            : "was killed by signal " + std::to_string(WTERMSIG(status));
  return unexpected(argv[0] + " " + how + (first.empty() ? "" : ": " + terminal_line(first)));
}

}  // namespace fabricctl
