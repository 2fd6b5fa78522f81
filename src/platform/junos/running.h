// Juniper Junos adapter, read side: `show configuration class-of-service | display set` and `show
// configuration interfaces | display set`, the inverse of what config.set writes (config.cpp). A port's
// state is found by following names: its class-of-service bindings (by its own name or a wildcard such as
// `et-*`) name a classifier, a congestion notification profile and a scheduler map, which name forwarding
// classes, schedulers and drop profiles. Device output is untrusted: sizes and line lengths are bounded,
// a malformed statement fabricctl reads is an error naming it and quoting the bad value; a bad statement
// a port's bindings lead to makes that port unreadable, not the switch.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/junos/config.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::junos {

/// What of `text` may be saved and is read: `set class-of-service ...` statements and the `set interfaces
/// IF mtu N` ones (an allowlist: descriptions, addresses and anything Junos adds later are dropped), and
/// the `deactivate` lines of those hierarchies.
std::string keep_configuration(std::string_view text);

/// The statements in effect, without `set ` (a statement under a `deactivate`d path is not). The error:
/// over 32 MiB or 1,000,000 lines, a line over 4096 bytes, a NUL byte, or a kept line that is neither
/// `set` nor `deactivate` (a prompt line such as `{master:0}` and blank lines are skipped). The paths
/// `deactivate` names go to `deactivated` when it is given.
Expected<Statements> read_statements(std::string_view output, std::vector<std::string>* deactivated = nullptr);

struct RunningPorts {
  std::map<std::string, PortObserved, std::less<>> ports;      // by name, front-panel ports only
  std::map<std::string, std::string, std::less<>> unreadable;  // port (made printable) -> why
};

/// The configured state of each port the statements name and of each port of `also` (Junos's defaults
/// for one without statements): trust and the DSCP map (its classifier), PFC (its congestion
/// notification profile and the forwarding classes), the watchdog, queue scheduling and ECN (its
/// scheduler map), and its MTU (the media MTU − 14; Junos's default media MTU 1514 without a statement).
RunningPorts ports_from_statements(const Statements& statements, const std::vector<std::string>& also = {});

/// Front-panel port names: et-/xe-/ge-FPC/PIC/PORT, breakouts with :N.
bool front_panel_port(std::string_view name);

/// The buffer, bytes, a fabricctl drop profile's fill levels are percents of: its name states it
/// (FABRICCTL-ECN3-15000K: 15000 KiB); nothing for any other name.
std::optional<uint64_t> ecn_buffer_of(std::string_view drop_profile);

}  // namespace fabricctl::junos
