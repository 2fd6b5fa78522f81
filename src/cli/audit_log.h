// The audit record of one apply: DIR/<transaction>.jsonl, one JSON object per line, appended and
// synced as each thing happens (who ran it, when, which plan; per device its before and after hashes
// and outcome), so that a record survives even an apply killed halfway. docs/apply.md describes it.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <mutex>
#include <string>

#include "util/expected.h"

namespace fabricctl {

class AuditLog {
 public:
  /// Creates DIR (mode 0700 when new) and DIR/<name>.jsonl (0600, exclusively: a name is used once).
  static Expected<AuditLog> open(const std::filesystem::path& dir, const std::string& name);
  AuditLog(AuditLog&&) noexcept;
  AuditLog& operator=(AuditLog&&) noexcept;
  ~AuditLog();

  /// Appends {"event": event, "at": <RFC 3339 UTC>, ...fields} and syncs it to disk. Thread-safe. A
  /// failed write is remembered (error()) and the apply reports it; it does not stop the apply halfway.
  void event(const std::string& event, nlohmann::ordered_json fields = nlohmann::ordered_json::object());

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// The first write that failed, or "".
  [[nodiscard]] std::string error() const;

 private:
  AuditLog(int fd, std::filesystem::path path);
  int fd_ = -1;
  std::filesystem::path path_;
  std::unique_ptr<std::mutex> mutex_;
  std::string error_;
};

/// Who runs this: "user (uid N) on host".
std::string audit_actor();

}  // namespace fabricctl
