// One apply of an inventory at a time on a controller: two runs that change the same devices at once
// undo each other (one's rollback rejecting the other's pending change, docs/apply.md). The lock is an
// flock on AUDIT_DIR/.locks/<sha256 of the inventory's real path>.lock, held while the apply runs and
// dropped by the kernel however it ends (a crash or SIGKILL included), so it never needs cleaning up.
// It guards one controller (one audit directory); a device's own transaction lock guards the rest
// (docs/apply.md).
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "util/expected.h"

namespace fabricctl::ops {

class InventoryLock {
 public:
  explicit InventoryLock(int fd) : fd_(fd) {}
  ~InventoryLock();
  InventoryLock(const InventoryLock&) = delete;
  InventoryLock& operator=(const InventoryLock&) = delete;

 private:
  int fd_;
};

/// Takes the lock on applying `inventory` (a file or directory), without waiting. Held by another run:
/// "another apply of INV is running (pid N, started T): one apply of an inventory at a time; nothing was
/// changed". The holder's pid and start time are written into the lock file for that message.
Expected<std::unique_ptr<InventoryLock>> lock_inventory(const std::filesystem::path& audit_dir,
                                                        const std::filesystem::path& inventory, const std::string& now);

}  // namespace fabricctl::ops
