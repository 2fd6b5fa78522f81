// The CONFIG_DB a SONiC switch has before fabricctl touches it, as far as the tables fabricctl writes
// are concerned: the base of the offline config_db.patch.json.
#pragma once

#include <nlohmann/json.hpp>

#include "state/desired.h"

namespace fabricctl::sonic {

/// SONiC's default QoS and buffer tables for a switch with `device`'s ports, each port with a
/// neighbour: what `config load_minigraph` (qos_config.j2, buffers_config.j2, `pfcwd start_default`)
/// leaves, on the buffer model of device.hardware. Offline, fabricctl diffs against this, and tests
/// apply every artifact to it; at apply time the switch's running CONFIG_DB takes its place.
/// Values SONiC derives from the SKU, the preset or the topology (PORT fields from port_config.ini,
/// CABLE_LENGTH by neighbour role) are not known offline: their entries are present with no fields,
/// so the offline patch writes every field fabricctl owns there.
nlohmann::ordered_json default_config_db(const DeviceDesired& device);

}  // namespace fabricctl::sonic
