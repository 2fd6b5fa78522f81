// SONiC adapter, render side: the RoCE QoS slice of CONFIG_DB for one switch, built as data.
// config_db.json is its dump; config_db.patch.json is the difference from a base document
// (config_db_patch.h).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "state/desired.h"

namespace fabricctl::sonic {

/// The CONFIG_DB tables fabricctl owns for `device`, in config_db.json form: TABLE, then KEY, then
/// field: "value", every value a string in SONiC units. Tables in a fixed order (maps, then what
/// uses them, PORT last); ports in natural order (Ethernet2 before Ethernet10), as SONiC lists them.
nlohmann::ordered_json config_db(const DeviceDesired& device);

/// The same tables with `port`'s entries only (and the switch-wide ones): what a fix of that port
/// writes, without building the whole switch's document.
nlohmann::ordered_json config_db(const DeviceDesired& device, const PortDesired& port);

/// The device's ports in natural order (Ethernet2 before Ethernet10), the order SONiC tools print.
std::vector<const PortDesired*> natural_ports(const DeviceDesired& device);

/// Whether the switch computes lossless headroom itself: SONiC's dynamic buffer model (Mellanox,
/// Barefoot), where DeviceDesired::hardware has no cable-length table.
inline bool dynamic_buffers(const DeviceDesired& d) { return d.hardware.headroom_cable_rows_m.empty(); }

/// A CONFIG_DB document (or patch) as fabricctl writes it: 4-space indentation, ": " after keys,
/// members in document order, one final newline. Invalid UTF-8 becomes U+FFFD instead of throwing.
std::string dump_config_db(const nlohmann::ordered_json& doc);

}  // namespace fabricctl::sonic
