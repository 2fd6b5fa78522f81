#include "util/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <system_error>
#include <utility>

#include "util/diag.h"
#include "util/text.h"

namespace fabricctl {
namespace {

namespace fs = std::filesystem;

std::string kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

/// Owns a file descriptor; closes it on scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

FileError file_error(FileError::Kind k, std::string message, uint64_t size = 0) {
  return {k, std::move(message), size};
}

// Temporary names are unique per process and per call, so two threads writing the same target
// never share one temporary file.
std::atomic<uint64_t> g_temp_counter{0};

}  // namespace

std::string errno_text(int e) {
  std::string m = std::error_code(e, std::generic_category()).message();
  if (!m.empty()) m[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[0])));
  return m;
}

std::string display_path(const fs::path& p) {
  const std::string s = p.string();
  return printable_ascii(s) ? s : quote(s);
}

Expected<std::string, FileError> read_regular_file(const fs::path& path, const ReadOptions& options) {
  using K = FileError::Kind;
  const std::string shown = display_path(path);
  const std::string no_links =
      shown + ": is a symbolic link; " + std::string(options.what) + "s are not read through links";
  auto too_large = [&](uint64_t size) {
    return unexpected(file_error(K::too_large,
                                 shown + ": is " + std::to_string(size) + " bytes, more than the limit of " +
                                     std::to_string(options.max_bytes) + " bytes",
                                 size));
  };
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR)
      return unexpected(file_error(K::missing, "no " + std::string(options.what) + " " + shown));
    return unexpected(file_error(K::io, shown + ": cannot read: " + errno_text(e)));
  }
  if (S_ISLNK(st.st_mode)) return unexpected(file_error(K::symlink, no_links));
  if (!S_ISREG(st.st_mode))
    return unexpected(file_error(K::not_regular, shown + ": is " + kind(st.st_mode) + ", not a regular file"));
  // Open without following a link swapped in since lstat; O_NONBLOCK so that a FIFO swapped in
  // cannot block the open; then check again what was opened.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    const int e = errno;
    if (e == ELOOP) return unexpected(file_error(K::symlink, no_links));
    if (e == ENOENT) return unexpected(file_error(K::missing, "no " + std::string(options.what) + " " + shown));
    return unexpected(file_error(K::io, shown + ": cannot read: " + errno_text(e)));
  }
  if (::fstat(fd.get(), &st) != 0) return unexpected(file_error(K::io, shown + ": cannot read: " + errno_text(errno)));
  if (!S_ISREG(st.st_mode))
    return unexpected(file_error(K::not_regular, shown + ": is " + kind(st.st_mode) + ", not a regular file"));
  if (static_cast<uint64_t>(st.st_size) > options.max_bytes) return too_large(static_cast<uint64_t>(st.st_size));
  std::string text;
  text.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  while (text.size() <= options.max_bytes) {  // the file may grow while it is read
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return unexpected(file_error(K::io, shown + ": cannot read: " + errno_text(errno)));
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  if (text.size() > options.max_bytes) return too_large(text.size());
  return text;
}

namespace {

/// Writes all of `content` to the new file `fd` (at `path`), then the options' sync or writeback
/// hint, then closes it; on failure the file is closed and removed, and the error names `shown`.
Expected<void> fill_new_file(Fd fd, const fs::path& path, const fs::path& shown, std::string_view content,
                             const WriteOptions& options) {
  auto abandon = [&](int e) {
    if (fd.get() >= 0) ::close(fd.release());
    ::unlink(path.c_str());
    return unexpected(display_path(shown) + ": cannot write: " + errno_text(e));
  };
  for (size_t done = 0; done < content.size();) {
    const ssize_t n = ::write(fd.get(), content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return abandon(errno);
    }
    done += static_cast<size_t>(n);
  }
  if (options.sync && ::fsync(fd.get()) != 0) return abandon(errno);
  // Only a hint: a file system without it (EINVAL, ENOSYS) writes the data at the final sync instead.
  if (!options.sync && options.start_writeback) ::sync_file_range(fd.get(), 0, 0, SYNC_FILE_RANGE_WRITE);
  if (::close(fd.release()) != 0) return abandon(errno);
  return {};
}

constexpr int kCreateFlags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;

}  // namespace

Expected<void> write_file_atomic(const fs::path& target, std::string_view content, const WriteOptions& options) {
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  static const std::string pid = std::to_string(::getpid());
  const std::string stem = "." + target.filename().string() + "." + pid + ".";
  fs::path tmp;
  int raw = -1;
  // O_EXCL: never reuse (or write through) a file someone else put there; a leftover from a crashed
  // run with the same pid only costs another name.
  for (int attempt = 0; attempt < 100 && raw < 0; ++attempt) {
    tmp = dir / (stem + std::to_string(g_temp_counter.fetch_add(1)) + ".tmp");
    raw = ::open(tmp.c_str(), kCreateFlags, options.mode);
    if (raw < 0 && errno != EEXIST) break;
  }
  if (raw < 0) return unexpected(display_path(target) + ": cannot create: " + errno_text(errno));
  if (auto filled = fill_new_file(Fd(raw), tmp, target, content, options); !filled) return filled;
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return unexpected(display_path(target) + ": cannot write: " + errno_text(e));
  }
  if (options.sync) {
    // Make the rename itself durable; a directory that cannot be opened or synced (some network
    // file systems) does not undo a write that has already happened.
    Fd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (d.get() >= 0) ::fsync(d.get());
  }
  return {};
}

Expected<void> write_new_file(const fs::path& path, std::string_view content, const WriteOptions& options) {
  const int raw = ::open(path.c_str(), kCreateFlags, options.mode);
  if (raw < 0) return unexpected(display_path(path) + ": cannot create: " + errno_text(errno));
  return fill_new_file(Fd(raw), path, path, content, options);
}

Expected<void> sync_filesystem(const fs::path& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0 || ::syncfs(fd.get()) != 0)
    return unexpected(display_path(path) + ": cannot sync: " + errno_text(errno));
  return {};
}

}  // namespace fabricctl
