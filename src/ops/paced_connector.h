// Connections to a fleet, paced: at most `connects_per_s` new connections a second however many
// devices run at once (-j up to the descriptor limit), so that a run does not SYN-flood its own
// management network, and a connection the device refuses (its sshd restarting, its control plane
// busy) tried again after a back-off instead of failed at once (docs/collect.md, "Thousands of
// devices"). Waiting is injected: the command line sleeps, a test moves a fake clock.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "ops/clock.h"
#include "ops/device_session.h"

namespace fabricctl::ops {

struct Pacing {
  double connects_per_s = 200;              // new connections a second, at most; 0: no limit
  int attempts = 3;                         // tries of a connection the device refuses
  std::chrono::milliseconds backoff{1000};  // before the second try; doubled before each next, +-25% by device
};

class PacedConnector final : public Connector {
 public:
  /// `wait` waits the given time, or less when the run is asked to stop (then false: no more tries).
  PacedConnector(Connector& inner, Pacing pacing, const Clock& clock,
                 std::function<bool(std::chrono::milliseconds)> wait)
      : inner_(inner), pacing_(pacing), clock_(clock), wait_(std::move(wait)) {}
  /// The same, owning `inner`.
  PacedConnector(std::unique_ptr<Connector> inner, Pacing pacing, const Clock& clock,
                 std::function<bool(std::chrono::milliseconds)> wait)
      : owned_(std::move(inner)), inner_(*owned_), pacing_(pacing), clock_(clock), wait_(std::move(wait)) {}

  Expected<std::unique_ptr<DeviceSession>> open(const DeviceMgmt& mgmt) override;
  [[nodiscard]] bool worth_retrying(const std::string& error) const override { return inner_.worth_retrying(error); }

 private:
  /// Waits for this connection's turn under the rate; false when the run was asked to stop.
  bool take_turn();

  std::unique_ptr<Connector> owned_;
  Connector& inner_;
  Pacing pacing_;
  const Clock& clock_;
  std::function<bool(std::chrono::milliseconds)> wait_;
  std::mutex mutex_;
  std::chrono::system_clock::time_point next_{};  // the earliest time the next connection may start
};

}  // namespace fabricctl::ops
