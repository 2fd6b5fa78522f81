// The seam between the fleet's operations and the devices: a Connector opens one DeviceSession per
// device, and the session runs commands on it, one at a time. libssh is one implementation
// (ssh_connector.h); the ops tests script replies, failures, hangs and slow devices with a fake
// (fake_fleet_test_support.h). Everything above the seam is the same for both.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "model/fabric.h"
#include "util/expected.h"

namespace fabricctl::ops {

/// What a command printed, and how it ended.
struct Reply {
  int exit_status = -1;
  std::string out;
  std::string err;
};

class DeviceSession {
 public:
  virtual ~DeviceSession() = default;
  /// Runs `command` (one string for the device's login shell or CLI, its values already checked and
  /// quoted) with `input` on its standard input, then end of file. Bounded in time and output size by
  /// the connector's settings: a command that exceeds either is stopped, and that is the error (which
  /// names the device).
  virtual Expected<Reply> run(const std::string& command, std::string_view input) = 0;
};

class Connector {
 public:
  virtual ~Connector() = default;
  /// Connects to the device `mgmt` names and logs in. The error names the device and what failed.
  /// Called from several threads at once (one per device).
  virtual Expected<std::unique_ptr<DeviceSession>> open(const DeviceMgmt& mgmt) = 0;
  /// Whether an error of open() is one a later try may not meet: the device refused or reset the
  /// connection (its sshd restarting, too many logins at once), not a wrong key or a timeout.
  [[nodiscard]] virtual bool worth_retrying(const std::string& /*error*/) const { return false; }
};

}  // namespace fabricctl::ops
