#include "ops/paced_connector.h"

#include <algorithm>

#include "util/sha256.h"

namespace fabricctl::ops {

namespace {

/// The back-off before try `attempt` (2, 3, ...) of `device`: `first` doubled for each try after the
/// second, spread by the device's name over 75%-125% so that devices refused together do not all
/// come back together (the same name gets the same spread on every run: a run can be replayed).
std::chrono::milliseconds backoff(std::chrono::milliseconds first, int attempt, const std::string& device) {
  const std::string h = sha256_hex(device);
  const int spread = static_cast<int>(std::stoul(h.substr(0, 4), nullptr, 16) % 51) - 25;  // -25..25 %
  const auto base = first * (int64_t{1} << std::min(attempt - 2, 16));
  return base + base * spread / 100;
}

}  // namespace

bool PacedConnector::take_turn() {
  if (pacing_.connects_per_s <= 0) return true;
  const auto interval = std::chrono::duration_cast<std::chrono::system_clock::duration>(
      std::chrono::duration<double>(1.0 / pacing_.connects_per_s));
  std::chrono::system_clock::time_point turn;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto now = clock_.now();
    turn = std::max(now, next_);
    next_ = turn + interval;
  }
  const auto now = clock_.now();
  if (turn <= now) return true;
  return wait_(std::chrono::ceil<std::chrono::milliseconds>(turn - now));
}

Expected<std::unique_ptr<DeviceSession>> PacedConnector::open(const DeviceMgmt& mgmt) {
  const int attempts = std::max(1, pacing_.attempts);
  for (int attempt = 1;; ++attempt) {
    if (!take_turn()) return unexpected(mgmt.device + ": not connected: fabricctl was asked to stop");
    auto session = inner_.open(mgmt);
    if (session || attempt == attempts || !inner_.worth_retrying(session.error())) {
      if (!session && attempt > 1)
        return unexpected(session.error() + " (" + std::to_string(attempt) + " tries, the last " +
                          std::to_string(backoff(pacing_.backoff, attempt, mgmt.device).count()) +
                          " ms after the one before)");
      return session;
    }
    if (!wait_(backoff(pacing_.backoff, attempt + 1, mgmt.device)))
      return unexpected(session.error() + " (not tried again: fabricctl was asked to stop)");
  }
}

}  // namespace fabricctl::ops
