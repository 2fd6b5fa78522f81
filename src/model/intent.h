// Turning a stack of profile layers into checked, complete intent.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "model/profile.h"
#include "state/desired.h"

namespace fabricctl {

/// A complete profile after `extends` and overrides, with where its MTUs were set (for errors that
/// are found later, per device and per link).
struct Intent {
  QosIntent qos;
  int mtu_host = 0;
  int mtu_switch = 0;
  int mtu_rdma = 0;
  int cable_length_m = 0;
  Loc mtu_host_loc, mtu_switch_loc, mtu_rdma_loc, watchdog_action_loc, cable_length_loc, trust_loc;
  Loc priority_to_tc_loc, watchdog_detection_loc, watchdog_restoration_loc;  // for limits a platform puts on them
  std::array<Loc, kTrafficClasses> ecn_loc{};  // each traffic class's ECN entry (its min_bytes)
};

/// Checks a merged layer against the domain rules and builds the intent. `owner` is where a
/// missing required key is reported (the profile file), `owner_name` names it ("profile \"x\"").
std::optional<Intent> make_intent(const ProfileLayer& merged, const Loc& owner, const std::string& owner_name,
                                  Diags& diags);

}  // namespace fabricctl
