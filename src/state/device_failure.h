// A device whose state could not be obtained: which device, at which stage, and why. One record per
// device reaches every report and makes verify exit 3 ("could not see everything"), so a device
// that failed can never pass for a device that is fine.
#pragma once

#include <string>
#include <string_view>

namespace fabricctl {

/// Where obtaining a device's state failed. Snapshots today; live collection and apply add stages.
enum class FailureStage {
  snapshot,  // reading or parsing DIR/<device>.json
  connect,   // reaching the device (transport)
  collect,   // running the commands or reads that return its state
  parse,     // understanding what the device answered
  apply,     // changing its configuration
};

/// "snapshot", "connect", "collect", "parse", "apply".
std::string_view to_string(FailureStage stage);

/// One device that failed, with why.
struct DeviceFailure {
  std::string device;
  FailureStage stage = FailureStage::snapshot;
  std::string reason;  // one lowercase line, e.g. "DIR/leaf2.json: is a FIFO, not a regular file"

  friend bool operator==(const DeviceFailure&, const DeviceFailure&) = default;
};

}  // namespace fabricctl
