// Cisco NX-OS adapter, read side: the QoS lines of `show running-config` (text: NX-OS has no JSON form of
// it), the inverse of what config.cfg writes (config.cpp). Classification, no-drop classes and queuing
// are policies that ports and `system qos` attach by name, so a port's state is found by following
// those names. Device output is untrusted: sizes and line lengths are bounded, a malformed line
// fabricctl reads is an error naming it and quoting the bad value; a bad line of one port, or of the
// classification policy it attaches, makes the ports it concerns unreadable, and a bad line of what
// every port shares (the global watchdog lines, the attached network-qos and queuing policies) the
// whole device.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "platform/nxos/config.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::nxos {

/// The blocks of `text`, indentation read as nesting (two spaces a level); `!` comments, blank lines and
/// the `version` line are dropped. The error: over 32 MiB or 1,000,000 lines, a line over 4096 bytes, a
/// NUL byte, a line indented deeper than one level below the line above it, or not by two spaces.
Expected<Config> parse_config(std::string_view text);

/// What of `text` may be saved: the blocks fabricctl reads (an allowlist: the QoS class maps and
/// policies, `system qos`, each interface with only its MTU, PFC and service-policy lines, the global
/// `priority-flow-control` lines). Usernames, secrets, keys and communities, and any line NX-OS adds
/// later, are dropped; a kept line naming a key, secret or password is dropped as well.
std::string keep_running_config(std::string_view text);

/// The output of `show running-config` as fabricctl reads it: checked for size and NUL bytes whole, then
/// kept (keep_running_config) and parsed (parse_config).
Expected<Config> read_running_config(std::string_view output);

struct RunningPorts {
  std::map<std::string, PortObserved, std::less<>> ports;      // by name, Ethernet ports only
  std::map<std::string, std::string, std::less<>> unreadable;  // port (made printable) -> why
};

/// The configured state of every Ethernet port the configuration has a block for, and of each port of
/// `also` as NX-OS's defaults leave a port without one: trust and the DSCP map (its classification
/// policy), PFC, the watchdog, queue scheduling and ECN (the system policies), and its configured MTU
/// (NX-OS's default 1500 without a line). The error: a line every port shares is malformed.
Expected<RunningPorts> ports_from_config(const Config& config, const std::vector<std::string>& also = {});

}  // namespace fabricctl::nxos
