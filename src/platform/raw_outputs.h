// What the platforms' collectors share when they turn raw outputs into a device's observed state: the
// output of one command's file, and counters from a file a raw directory may lack (one collected before
// fabricctl read those counters has none: no counters, never zeros).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "platform/platform.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl {

/// One run of a collect command on a device: the raw file its output goes to, and its command line.
struct CommandRun {
  std::string file;
  std::string line;
};

/// The runs of `command` on `device`: one, or one per port of the device's inventory for a per-port
/// command. `fabricctl` is the path of fabricctl on the device (a host's collector runs it).
std::vector<CommandRun> command_runs(const Collector& collector, const CollectCommand& command,
                                     const DeviceDesired& device, std::string_view fabricctl);

/// The outputs of a per-port command (`file` with its "{port}") in `raw`, by port name as the file
/// names it ('_' for '/'); nothing when it was not collected.
std::vector<std::pair<std::string, const std::string*>> per_port_files(const RawOutputs& raw, std::string_view file);

/// The output kept as `file`, or nullptr when it was not collected.
const std::string* raw_file(const RawOutputs& raw, std::string_view file);

/// Adds to `into` what `read` finds in `file`, when `raw` has it; the error names `command`.
Expected<void> add_counters(const RawOutputs& raw, std::string_view file, std::string_view command,
                            Expected<PortCounters> (*read)(std::string_view), PortCounters& into);

}  // namespace fabricctl
