#include "ops/inventory_lock.h"

#include <fcntl.h>
#include <unistd.h>

#include "util/diag.h"
#include "util/escape.h"
#include "util/sha256.h"

namespace fabricctl::ops {

namespace fs = std::filesystem;

Expected<FileLock> lock_inventory(const fs::path& audit_dir, const fs::path& inventory, const std::string& now) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::absolute(inventory, ec), ec);
  const fs::path dir = audit_dir / ".locks";  // a dot: the directory lists records only
  fs::create_directories(dir, ec);
  if (ec) return unexpected("cannot create " + quote(dir.string()) + ": " + ec.message());
  const fs::path path = dir / (sha256_hex(real.string()) + ".lock");
  auto lock = lock_file(path, false);
  if (!lock && !lock.error().held) return unexpected(lock.error().message);
  if (!lock) {
    // Who holds it, as that run wrote it (untrusted text: one printable line).
    std::string who;
    char holder[256] = {};
    const int read_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (read_fd >= 0) {
      const ssize_t n = ::pread(read_fd, holder, sizeof holder - 1, 0);
      if (n > 0) who = terminal_line(std::string(holder, static_cast<size_t>(n)));
      ::close(read_fd);
    }
    return unexpected("another apply of " + quote(real.string()) + " is running" +
                      (who.empty() ? "" : " (" + who + ")") +
                      ": one apply of an inventory at a time; nothing was changed");
  }
  const std::string text = "pid " + std::to_string(::getpid()) + ", started " + now;
  if (::ftruncate(lock->fd(), 0) == 0) (void)!::pwrite(lock->fd(), text.data(), text.size(), 0);
  return std::move(*lock);
}

}  // namespace fabricctl::ops
