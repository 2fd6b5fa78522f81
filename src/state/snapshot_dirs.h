// The snapshots of one fabric from several directories: the shards of a collect (`collect --shard K/N
// --out DIR_K`, docs/fleet.md), verified as one run (`verify --snapshots DIR_0 --snapshots DIR_1 ...`).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "state/snapshot.h"

namespace fabricctl {

/// Reads every expected device from the one directory of `dirs` that has an entry DIR/<device>.json,
/// as read_snapshot_dir reads it there (one directory: exactly read_snapshot_dir). A device with an
/// entry in none is unreadable ("no snapshot file <device>.json in A, B"); with entries in more than
/// one, unreadable too ("snapshot files in A and B: which is current cannot be told"): shards
/// that overlap, or a file a run before left behind, are never judged as the current state.
SnapshotSet read_snapshot_dirs(const std::vector<std::filesystem::path>& dirs,
                               const std::vector<std::string>& expected_devices,
                               const std::vector<std::string>& inventory_devices = {});

}  // namespace fabricctl
