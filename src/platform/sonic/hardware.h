// SONiC's words for the hardware facts an inventory states of a SONiC switch (its `sonic:` mapping;
// docs/inventory.md "Switch hardware"): the buffer model of DEVICE_METADATA|localhost, and the cable
// lengths the SKU's pg_profile_lookup.ini has rows for.
#pragma once

#include <array>
#include <string_view>
#include <vector>

namespace fabricctl::sonic {

/// The traditional model (every ASIC vendor but Mellanox and Barefoot): buffermgrd looks the lossless
/// PG's headroom up by (port speed, CABLE_LENGTH) in pg_profile_lookup.ini, exactly; a pair with no
/// row gets no lossless PG ("No PG profile configured for speed ... and cable length ...").
inline constexpr std::string_view kTraditionalBuffers = "traditional";
/// The dynamic model (Mellanox and Barefoot builds): buffermgrd computes the headroom from the exact
/// cable length, speed and MTU.
inline constexpr std::string_view kDynamicBuffers = "dynamic";

inline const std::vector<std::string_view>& buffer_models() {
  static const std::vector<std::string_view> models = {kTraditionalBuffers, kDynamicBuffers};
  return models;
}

/// The cable lengths most SKUs' pg_profile_lookup.ini has rows for (5m, 40m, 300m: 167 of the 285
/// tables in sonic-buildimage); others add 1m, 2m, 30m, 100m or 2000m, and none has 3m or 10m.
inline constexpr std::array<int, 3> kDefaultCableRowsM = {5, 40, 300};

}  // namespace fabricctl::sonic
