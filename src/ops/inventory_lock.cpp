#include "ops/inventory_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

#include "util/diag.h"
#include "util/escape.h"
#include "util/file_io.h"
#include "util/sha256.h"

namespace fabricctl::ops {

namespace fs = std::filesystem;

InventoryLock::~InventoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

Expected<std::unique_ptr<InventoryLock>> lock_inventory(const fs::path& audit_dir, const fs::path& inventory,
                                                        const std::string& now) {
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(fs::absolute(inventory, ec), ec);
  const fs::path dir = audit_dir / ".locks";  // a dot: the directory lists records only
  fs::create_directories(dir, ec);
  if (ec) return unexpected("cannot create " + quote(dir.string()) + ": " + ec.message());
  const fs::path path = dir / (sha256_hex(real.string()) + ".lock");
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return unexpected(quote(path.string()) + ": cannot open: " + errno_text(errno));
  auto lock = std::make_unique<InventoryLock>(fd);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) return unexpected(quote(path.string()) + ": cannot lock: " + errno_text(errno));
    char holder[256] = {};
    const ssize_t n = ::pread(fd, holder, sizeof holder - 1, 0);
    const std::string who = n > 0 ? terminal_line(std::string(holder, static_cast<size_t>(n))) : "";
    return unexpected("another apply of " + quote(real.string()) + " is running" +
                      (who.empty() ? "" : " (" + who + ")") +
                      ": one apply of an inventory at a time; nothing was changed");
  }
  // Who holds it, for the message of the next run; a lock file whose holder is gone is simply taken.
  const std::string text = "pid " + std::to_string(::getpid()) + ", started " + now;
  if (::ftruncate(fd, 0) == 0) (void)!::pwrite(fd, text.data(), text.size(), 0);
  return lock;
}

}  // namespace fabricctl::ops
