// Snapshots: one device's observed state as a versioned JSON file (docs/snapshots.md).
//
// `fabricctl verify --snapshots DIR` reads DIR/<device>.json for every device of the inventory.
// Snapshot files are written by fleets of hosts (DaemonSets, systemd timers, Ansible) and copied
// around, so the reader treats them as untrusted input: size-limited before parsing, duplicate keys
// rejected, every value type- and range-checked, every name checked against a strict character set,
// every count bounded. Errors name the JSON path and quote the bad value. Unknown keys are skipped
// with a warning, so that collectors which write a newer key can be rolled out before the readers.
//
// The writer is deterministic: the same DeviceObserved always gives the same bytes (fixed key
// order, ports in natural order, ASCII only), so snapshots can be committed and diffed as baselines.
#pragma once

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl {

/// The schema this fabricctl writes and reads. A file naming another schema (another major
/// version) is rejected with a message naming both.
inline constexpr std::string_view kSnapshotSchema = "fabricctl.snapshot/v1";

/// A snapshot's `collected_at`: RFC 3339 in UTC (YYYY-MM-DDTHH:MM:SS[.fraction]Z) with a real calendar
/// date; nullopt for anything else.
std::optional<std::chrono::system_clock::time_point> parse_utc_time(std::string_view s);

/// Limits on untrusted snapshot input.
inline constexpr size_t kMaxSnapshotBytes = size_t{16} * 1024 * 1024;  // text size, checked before parsing
inline constexpr size_t kMaxSnapshotPorts = 4096;                      // entries of "ports"
inline constexpr size_t kMaxPortCounters = 1024;                       // entries of one port's "counters"
inline constexpr size_t kMaxRdmaGids = 256;                            // entries of one port's "rdma.gids"
// Names (device, port, counter, RDMA device): character sets and kMaxNameLength in util/names.h,
// shared with the inventory.

/// Unknown keys worded per file, and per run of read_snapshot_dir (the rest are only counted).
inline constexpr size_t kMaxUnknownKeysShown = 20;

/// Keys of one snapshot that this reader does not know (a newer collector's, or a typo): skipped,
/// with the rest of the device read. `count` is all of them; `shown` words the first
/// kMaxUnknownKeysShown in document order, as the path of their object and the key:
/// `ports.Ethernet0: unknown key "mtuu" ignored; did you mean "mtu"?` (no path at the top level).
struct UnknownKeys {
  size_t count = 0;
  std::vector<std::string> shown;
};

/// Serializes one device's observed state as snapshot text: JSON indented by 2 spaces (arrays of
/// plain values on one line), keys in the documented order, ports in natural order
/// (Ethernet2 before Ethernet10), non-ASCII characters escaped, and a trailing newline.
/// Empty optionals and empty strings are omitted ("not collected"). Deterministic: equal input
/// gives byte-identical output. It does not validate; parse_snapshot(write_snapshot(d)) fails for
/// a DeviceObserved that breaks the format's rules (names, ranges), and write_snapshot_dir checks
/// exactly that before writing.
std::string write_snapshot(const DeviceObserved& device);

/// Parses and validates snapshot text (untrusted). The error is one lowercase line that starts with
/// the JSON path of the problem and quotes the bad value, e.g.
/// `ports.Ethernet0.mtu: "70000" is out of range 1-65535`. Rejects, with the first problem found:
/// text over kMaxSnapshotBytes (before parsing); invalid JSON (with line, column and byte offset);
/// nesting deeper than 16 levels; duplicate keys; a missing or different "schema"; values of the
/// wrong type or out of range; names outside their character set; lists over their limits. Keys it
/// does not know, at any level, are skipped and, when the text reads, reported in `*unknown`.
/// Ports come back in natural order, ECN queues and GIDs sorted.
/// For every valid `d`, write_snapshot(parse(write_snapshot(d))) == write_snapshot(d).
Expected<DeviceObserved> parse_snapshot(std::string_view text, UnknownKeys* unknown = nullptr);

/// Observed state read from a snapshot directory.
struct SnapshotSet {
  /// Devices whose snapshot read; the others are in observed.failures (stage "snapshot") with the reason.
  FabricObserved observed;
  /// Things that did not stop any device from being read: unknown keys (file, path and key, at most
  /// kMaxUnknownKeysShown lines and one for the rest), snapshot files of devices that are not in the
  /// inventory (one warning for all of them, with their count and the first few names in natural
  /// order), a directory that could not be listed.
  std::vector<std::string> warnings;
};

/// Reads DIR/<device>.json for every expected device (the inventory's device names). Never throws
/// for bad input; every problem lands in the result, as a DeviceFailure of stage "snapshot" whose
/// reason is (written unreadable[device] below):
///  - no file                          → unreadable[device] = "no snapshot file <path>"
///  - a symbolic link (even to a good file), a directory, a FIFO, ... → unreadable, not followed
///  - unreadable, too large, invalid   → unreadable[device] = "<path>: <message>"
///  - "device" differs from the file name → unreadable[device] = "<path>: device ... does not match ..."
///  - DIR/<name>.json whose name is neither expected nor in `inventory_devices` → one warning for
///    all of them: "ignoring <path>: device not in the inventory" for one file, "ignoring N snapshot
///    files in DIR of devices not in the inventory: a.json, b.json, c.json, d.json, e.json, ... (N-5
///    more)" for more (files not ending in .json and hidden files are ignored silently, and so are
///    inventory devices the run does not need, e.g. outside --limit).
/// Checking that DIR exists is the caller's job (a usage error); here a missing DIR makes every
/// device unreadable and adds a warning.
SnapshotSet read_snapshot_dir(const std::filesystem::path& dir, const std::vector<std::string>& expected_devices,
                              const std::vector<std::string>& inventory_devices = {});

/// Why the state of device `name` would not read back as a snapshot (the check write_snapshot_dir makes:
/// a bad name, a value out of range, a port twice), as one lowercase message; empty when it would.
/// Collect judges every device by it, so that one device's bad value is that device's failure, never
/// the run's (docs/collect.md).
std::string snapshot_problem(const std::string& name, const DeviceObserved& device);

/// Writes DIR/<device>.json for every device of `observed` (creating DIR if needed; unreadable
/// devices are skipped, other files in DIR are left alone). Every snapshot is rendered and read
/// back through parse_snapshot before anything is written, so a DeviceObserved that would not read
/// back (bad name, out-of-range value, duplicate port) writes nothing. Each file is written to a
/// temporary file in DIR and renamed into place, so readers never see half a file; one syncfs at
/// the end makes them durable, unless `sync` is false (the caller syncs DIR itself: a staged output's
/// commit does, and a second syncfs flushes whatever else the file system holds dirty).
/// The error is one lowercase message.
Expected<void> write_snapshot_dir(const FabricObserved& observed, const std::filesystem::path& dir, bool sync = true);

}  // namespace fabricctl
