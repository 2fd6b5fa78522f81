// What the platforms' collectors share when they turn raw outputs into a device's observed state: the
// output of one command's file, and counters from a file a raw directory may lack (one collected before
// fabricctl read those counters has none: no counters, never zeros).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "platform/platform.h"
#include "platform/port_table.h"
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

/// The output kept as `file`, or nullptr when it was not collected.
const std::string* raw_file(const RawOutputs& raw, std::string_view file);

/// A counter command and the reader of its output, written once for the collector's command table
/// (collect_command) and its observe() (add_counters).
struct CounterSource {
  std::string_view file, command;
  Expected<PortCounters> (*read)(std::string_view);  // the device's output: counters by port
};
/// The same for a command NVUE-style switches have per port only: "{port}" in `file` and `command`
/// (CollectCommand::per_port), `read` reading one port's output.
struct PortCounterSource {
  std::string_view file, command;
  Expected<std::map<std::string, uint64_t>> (*read)(std::string_view);
};

/// The same for a reader that tells, port by port, what it could not read (NX-OS, Junos): a bad row makes
/// its port unreadable, never the device. Its errors name the command.
struct PortTableSource {
  std::string_view file, command;
  Expected<PortTable<PortObserved>> (*read)(std::string_view);
};

CollectCommand collect_command(const CounterSource& source);
CollectCommand collect_command(const PortCounterSource& source);
CollectCommand collect_command(const PortTableSource& source);

/// Adds to `into` what the source's reader finds in its output, when `raw` has it (a raw directory from
/// before fabricctl read those counters has none: no counters, never zeros). The error names the
/// command without its output filter (" | json") and, per port, with the port's name.
Expected<void> add_counters(const RawOutputs& raw, const CounterSource& source, PortCounters& into);
Expected<void> add_counters(const RawOutputs& raw, const PortCounterSource& source, PortCounters& into);
/// Adds the counters of each port the reader read to `into`'s port, and the ports it could not read to
/// `into.unreadable`.
Expected<void> add_counters(const RawOutputs& raw, const PortTableSource& source, PortTable<PortObserved>& into);

}  // namespace fabricctl
