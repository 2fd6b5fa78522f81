// One SSH session per device for a whole operation (docs/apply.md, "Sessions"): apply's check,
// stage, the reads of its verify, confirm and rollback reach a device through one connection, not
// one each, where a connection costs the device a key exchange, a login and sshd's forks (some 50 ms
// of its CPU). A session idle longer than `max_idle` is not used again (a switch's sshd may close idle
// clients; a command must never be the first to find out), nor one whose command failed (the
// connection may be gone): the next use opens a new one. At most one command runs on a session at a
// time; a second user of the same device at once gets a session of its own.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "ops/clock.h"
#include "ops/device_session.h"

namespace fabricctl::ops {

class SessionPool final : public Connector {
 public:
  SessionPool(Connector& inner, const Clock& clock, std::chrono::seconds max_idle = std::chrono::seconds(60))
      : inner_(inner), clock_(clock), max_idle_(max_idle) {}
  ~SessionPool() override;
  SessionPool(const SessionPool&) = delete;
  SessionPool& operator=(const SessionPool&) = delete;

  /// The device's kept session when it is free and fresh, else a new one (kept when given back).
  Expected<std::unique_ptr<DeviceSession>> open(const DeviceMgmt& mgmt) override;
  [[nodiscard]] bool worth_retrying(const std::string& error) const override { return inner_.worth_retrying(error); }
  /// Closes the device's kept session: its operation is over (bounds the descriptors a run holds).
  void release(const std::string& device);

 private:
  struct Kept {
    std::unique_ptr<DeviceSession> session;
    bool in_use = false;
    bool broken = false;  // a command on it failed: not used again
    std::chrono::system_clock::time_point last_used{};
  };
  class Lease;
  void give_back(const std::string& device, DeviceSession* session, bool broken);

  Connector& inner_;
  const Clock& clock_;
  std::chrono::seconds max_idle_;
  std::mutex mutex_;
  std::map<std::string, Kept> kept_;  // by device
};

}  // namespace fabricctl::ops
