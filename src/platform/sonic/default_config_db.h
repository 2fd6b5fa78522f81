// The CONFIG_DB a SONiC switch has before fabricctl touches it, as far as the tables fabricctl writes
// are concerned: the base of the offline config_db.patch.json.
#pragma once

#include <nlohmann/json.hpp>

#include "state/desired.h"

namespace fabricctl::sonic {

/// SONiC's default QoS tables for a switch with `device`'s ports. Offline, fabricctl diffs against
/// this; at apply time the switch's running CONFIG_DB takes its place.
/// Values SONiC derives from the SKU, the preset or the topology (PORT fields from port_config.ini,
/// CABLE_LENGTH by neighbour role, PFC_WD by default_pfcwd_status) are not known offline: their
/// entries are present with no fields, so the offline patch writes every field fabricctl owns there.
nlohmann::ordered_json default_config_db(const DeviceDesired& device);

}  // namespace fabricctl::sonic
