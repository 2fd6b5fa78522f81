// An apply's audit record read back (docs/apply.md "Audit records"): what `apply --resume` continues
// and `apply --undo` reverses. Read strictly: a line that is not one of the events fabricctl writes is
// an error naming the line, never a guess.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "util/expected.h"

namespace fabricctl::ops {

/// Where a device of the record got to.
enum class RecordedState {
  planned,          // in the plan; nothing sent (not started, or its check refused)
  staging,          // stage began: its revert timer may be armed
  staged,           // staged, neither confirmed nor rolled back
  confirmed,        // verified and confirmed: the change is kept
  rolled_back,      // rolled back by fabricctl
  rollback_failed,  // its rollback failed: the revert timer is what is left
};

struct RecordedDevice {
  std::string name;
  std::string status;         // the plan's: "change", "no change" or "failed"
  std::string before_sha256;  // its configuration when the plan was made
  std::string after_sha256;   // when confirmed: the configuration it was left with
  RecordedState state = RecordedState::planned;
  std::chrono::system_clock::time_point last_at{};  // its last event
};

struct RecordedApply {
  std::filesystem::path path;  // where it was read from (load_apply_record)
  std::string transaction;
  std::string inventory;
  // The start event's options, as given then.
  int canary = 0;
  std::string batch;  // "" for none
  std::string by;
  int health_gate_s = 0;
  int max_failures = 0;
  int confirm_timeout_s = 300;
  std::vector<RecordedDevice> devices;              // the plan's, in its order
  std::unordered_map<std::string, size_t> by_name;  // devices' index: a record may hold 100k devices
  std::optional<int> exit;                          // the end event's; none: the apply never ended (killed, lost)

  [[nodiscard]] const RecordedDevice* find(const std::string& name) const;
  [[nodiscard]] size_t count(RecordedState s) const;
};

/// Reads a record's text; `name` prefixes errors ("NAME:LINE: message").
Expected<RecordedApply> read_apply_record(std::string_view text, const std::string& name);
/// Reads DIR/<transaction>.jsonl, or the file `arg` names (a path with a '/' or ending in .jsonl).
Expected<RecordedApply> load_apply_record(const std::string& arg, const std::filesystem::path& audit_dir);

/// Whether the apply that writes `path` is still running: it holds a lock on its record until it ends.
bool record_in_use(const std::filesystem::path& path);

/// The devices whose own revert timer may still fire at `now`: a stage began and neither a confirm nor
/// a good rollback followed, and the timer's `confirm_timeout_s` has not passed since their last event
/// (the timer was armed before it). One line each: "leaf3: staged by TX and never confirmed: its revert
/// timer fires by 2026-12-06T06:05:00Z".
std::vector<std::string> pending_reverts(const RecordedApply& r, std::chrono::system_clock::time_point now);

}  // namespace fabricctl::ops
