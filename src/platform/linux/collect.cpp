// Linux host collection: the controller runs `fabricctl host collect` on the host over SSH (the host
// reads its own netlink, sysfs and lldpd; ops/host_collect.cpp) and takes the snapshot it prints. The
// command names the host's values, its fabricctl and its ports: each is checked again here and
// single-quoted, so nothing in the inventory can reach the host's shell as syntax.

#include "platform/platform.h"
#include "state/snapshot.h"
#include "util/escape.h"
#include "util/names.h"

namespace fabricctl {
namespace {

constexpr std::string_view kHostCollect = "host-collect.json";

std::string command_line(const CollectCommand&, const DeviceDesired& d, std::string_view fabricctl) {
  // The inventory checked these already; a value that fails here is a bug, and must not run.
  if (!valid_program_path(fabricctl) || !valid_device_name(d.name)) return "false";
  std::string line = shell_quote(fabricctl) + " host collect --device " + shell_quote(d.name);
  for (const PortDesired& p : d.ports) {
    if (!valid_port_name(p.name) || p.name[0] == '-') return "false";
    line += " --port " + shell_quote(p.name);
  }
  return line;
}

Expected<DeviceObserved> observe(std::string_view device, const RawOutputs& raw) {
  const auto it = raw.find(kHostCollect);
  if (it == raw.end()) return unexpected("no " + std::string(kHostCollect) + " was collected");
  auto d = parse_snapshot(it->second);
  if (!d) return unexpected("fabricctl host collect printed no snapshot: " + d.error());
  if (d->name != device)
    return unexpected("fabricctl host collect answered for device \"" + terminal_line(d->name) + "\", not " +
                      std::string(device));
  if (d->platform != Platform::linux_host) return unexpected("fabricctl host collect answered for a non-Linux device");
  return d;
}

}  // namespace

Collector linux_collector() {
  return {{required_command(kHostCollect, "fabricctl host collect")}, observe, command_line, false};
}

}  // namespace fabricctl
