// The Connector of the real fleet: SSH (transport/ssh_session.h, libssh), one session per device.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "ops/device_session.h"

namespace fabricctl::ops {

/// Settings shared by every session of a run.
struct SshSettings {
  std::string known_hosts;  // "" = ~/.ssh/known_hosts
  bool accept_new_host_keys = false;
  std::chrono::milliseconds connect_timeout{10'000};  // TCP connect, key exchange and login
  std::chrono::milliseconds command_timeout{60'000};  // each command, from start to exit status
};

/// A connector that logs in over SSH with the inventory's mgmt settings.
std::unique_ptr<Connector> ssh_connector(const SshSettings& settings);

}  // namespace fabricctl::ops
