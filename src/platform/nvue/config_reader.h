// NVUE adapter, read side: the applied configuration (`nv config show -o json`) as the vendor-neutral
// observed state of the switch ports, the inverse of context.cpp + commands.nvue.
//
// Shape. Documented: NVUE's configuration is one tree whose paths are the words of `nv set` ("nv set
// qos pfc default-global switch-priority 3" is qos.pfc.default-global.switch-priority.3), and `nv config
// show` prints the applied revision in the format of /etc/nvue.d/startup.yaml (NVUE-CLI.md). Assumed
// (NVIDIA shows no JSON of it): `-o json` prints startup.yaml's list, [{"header": {...}}, {"set": TREE}],
// and a bare TREE (what GET /nvue_v1/ returns) is read the same; leaves are JSON integers where NVUE's
// type is a number (as `link.mtu` in NVIDIA's REST examples); a key set without a value (a PFC switch
// priority, a port's pfc-watchdog) is an empty object. Documented for 5.15: a comma list or range in an
// `nv set` (`swp1-32`) stays one key unless `nv config show --expand`; the reader expands such keys
// (nvue/ranges.h) whatever the release, so an expanded and an unexpanded tree read alike.
//
// Meaning. The tree holds only what was set; everything else is NVUE's default, which the reader
// supplies (config_reader.cpp says which defaults are documented and which assumed). With RoCE mode
// (`qos roce`), the classes, PFC, ETS and ECN are RoCE mode's and only trust and the DSCP map are read
// from default-global (the adjustments NVIDIA documents; nvue/context.cpp writes nothing else there).
//
// Device output is untrusted: strict parsing, the bad value quoted with its path. A bad device-wide
// QoS value is an error for the device (every port uses it); a bad interface entry makes only that port
// unreadable.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::nvue {

/// What the configuration says of the ports. Fields it does not hold (oper state, speed, LLDP) are left
/// empty for the other commands to fill.
struct ConfigPorts {
  /// What a switch port the configuration does not name has: the device-wide QoS, NVUE's default MTU,
  /// the watchdog off. Its name is empty.
  PortObserved defaults;
  std::vector<PortObserved> ports;                // the swp interfaces of the tree, natural order
  std::map<std::string, std::string> unreadable;  // port (made printable) -> why
};

/// The ports of `text`. The error: `text` is not an NVUE configuration, or its device-wide QoS is bad.
Expected<ConfigPorts> ports_from_config(std::string_view text);

}  // namespace fabricctl::nvue
