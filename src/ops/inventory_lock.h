// One apply of an inventory at a time on a controller: two runs that change the same devices at once
// undo each other (one's rollback rejecting the other's pending change, docs/apply.md). The lock is an
// flock on AUDIT_DIR/.locks/<sha256 of the inventory's real path>.lock (util/file_lock.h), held while the
// apply runs. It guards one controller (one audit directory); a device's own transaction state guards
// the rest (docs/apply.md).
#pragma once

#include <filesystem>
#include <string>

#include "util/expected.h"
#include "util/file_lock.h"

namespace fabricctl::ops {

/// Takes the lock on applying `inventory` (a file or directory), without waiting. Held by another run:
/// "another apply of INV is running (pid N, started T): one apply of an inventory at a time; nothing was
/// changed". The holder's pid and start time `now` are written into the lock file for that message.
Expected<FileLock> lock_inventory(const std::filesystem::path& audit_dir, const std::filesystem::path& inventory,
                                  const std::string& now);

}  // namespace fabricctl::ops
