// Time, injected: what the operations stamp (a snapshot's collected_at, the audit record's "at", a
// transaction's name) comes from a Clock, so that a test can fix it.
#pragma once

#include <chrono>
#include <string>

namespace fabricctl::ops {

class Clock {
 public:
  virtual ~Clock() = default;
  [[nodiscard]] virtual std::chrono::system_clock::time_point now() const = 0;
};

/// The system's wall clock.
const Clock& system_clock();

/// `t` as RFC 3339 UTC to the second ("2026-12-03T06:00:00Z").
std::string utc_text(std::chrono::system_clock::time_point t);
/// `t` in RFC 3339 UTC with milliseconds ("2026-12-03T06:00:00.250Z"): when a device was read, for
/// rates between two readings a few seconds apart.
std::string utc_text_ms(std::chrono::system_clock::time_point t);
/// `t` as the compact UTC stamp of a transaction name ("20261203T060000").
std::string utc_stamp(std::chrono::system_clock::time_point t);

}  // namespace fabricctl::ops
