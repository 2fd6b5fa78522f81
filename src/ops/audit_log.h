// The audit record of one apply: DIR/<transaction>.jsonl, one JSON object per line, appended and
// synced as each thing happens (who ran it, when, which plan; per device its before and after hashes
// and outcome), so that a record survives even an apply killed halfway. docs/apply.md describes it.
// It is the observer (observer.h) that keeps the events; phases it ignores.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>

#include "ops/clock.h"
#include "ops/observer.h"
#include "util/expected.h"

namespace fabricctl::ops {

class AuditLog final : public Observer {
 public:
  /// Creates DIR (mode 0700 when new) and DIR/<name>.jsonl (0600, exclusively: a name is used once),
  /// locked (flock) while this object lives: the apply that writes it is running.
  /// Each event is stamped with `clock`'s time.
  static Expected<AuditLog> open(const std::filesystem::path& dir, const std::string& name,
                                 const Clock& clock = system_clock());
  AuditLog(AuditLog&&) noexcept;
  AuditLog& operator=(AuditLog&&) noexcept;
  ~AuditLog() override;

  /// Appends {"event": event, "at": <RFC 3339 UTC>, ...fields} and syncs it to disk. Thread-safe. A
  /// failed write is remembered (error()) and the apply reports it; it does not stop the apply halfway.
  void event(std::string_view event, const nlohmann::ordered_json& fields) override;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  /// The first write that failed, or "".
  [[nodiscard]] std::string error() const;

 private:
  AuditLog(int fd, std::filesystem::path path, const Clock& clock);
  int fd_ = -1;
  std::filesystem::path path_;
  const Clock* clock_;
  std::unique_ptr<std::mutex> mutex_;
  std::string error_;
};

/// Who runs this: "user (uid N) on host".
std::string audit_actor();

}  // namespace fabricctl::ops
