// An exclusive lock on a lock file (flock), held while the FileLock lives and dropped by the kernel
// however the process ends (a crash or SIGKILL included), so a lock file never needs cleaning up: it is
// created once and reused.
#pragma once

#include <filesystem>
#include <string>

#include "util/expected.h"

namespace fabricctl {

class FileLock {
 public:
  explicit FileLock(int fd) : fd_(fd) {}
  FileLock(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  FileLock& operator=(FileLock&&) = delete;
  ~FileLock();
  /// The lock file, open read-write: a holder may write who it is into it.
  [[nodiscard]] int fd() const { return fd_; }

 private:
  int fd_;
};

/// Why a lock was not taken: `held` when another holder has it (only without waiting); `message` is
/// one lowercase line naming the file.
struct LockFailure {
  bool held = false;
  std::string message;
};

/// Opens `path` (created 0600 if missing, never through a symbolic link) and locks it exclusively:
/// waiting for another holder to let go with `wait`, else failing at once with `held`.
Expected<FileLock, LockFailure> lock_file(const std::filesystem::path& path, bool wait);

}  // namespace fabricctl
