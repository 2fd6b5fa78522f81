// Reading devices live (through the Connector) or from raw outputs a collect saved: one session per
// device, `jobs` at once, every device that cannot be read recorded as a failure with its reason, the
// others kept. `collect` writes what was read; live `verify`, `plan` and `apply` judge it.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/fabric.h"
#include "ops/context.h"
#include "platform/platform.h"
#include "state/observed.h"

namespace fabricctl::ops {

/// Each device's raw outputs as its collector read them (plan and apply compute native changes
/// from them).
using RawByDevice = std::map<std::string, RawOutputs, std::less<>>;

struct CollectOptions {
  int jobs = 32;                                  // devices read at once
  std::optional<std::filesystem::path> from_raw;  // read RAWDIR/<device>/ instead of the devices
  std::optional<std::filesystem::path> raw_out;   // write what was read live under RAW_OUT/<device>/
  /// Run the counter commands too (CollectCommand::counter). Reading a device's state to verify, plan or
  /// apply it needs none of them, and leaving them out saves a command per counter table per device.
  bool counters = true;
};

/// Reads the devices of `fabric` named in `devices` (all when empty). Devices whose platform has no
/// collector, that cannot be reached, or whose output cannot be read are in the result's failures.
/// `raws`, when given, receives every device's raw outputs as read.
FabricObserved collect_devices(const Fabric& fabric, const std::vector<std::string>& devices,
                               const CollectOptions& options, Context& ctx, RawByDevice* raws = nullptr);

}  // namespace fabricctl::ops
