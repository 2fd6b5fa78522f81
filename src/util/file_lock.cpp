#include "util/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "util/file_io.h"

namespace fabricctl {

FileLock::FileLock(FileLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);
}

Expected<FileLock, LockFailure> lock_file(const std::filesystem::path& path, bool wait) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return unexpected(LockFailure{false, path.string() + ": cannot open: " + errno_text(errno)});
  FileLock lock(fd);
  if (::flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0) {
    const bool held = errno == EWOULDBLOCK;
    return unexpected(LockFailure{held, path.string() + ": cannot lock: " + errno_text(errno)});
  }
  return lock;
}

}  // namespace fabricctl
