// What a change to the intent does, in the intent's own terms: for a review, "ECN tc3 probability
// 20 -> 30 on rail0-3, spine2: 40 ports" says more than 40 hunks of native configuration. Computed
// from the desired state of two versions of the fabric, in the vendor-neutral vocabulary of the
// snapshot format (docs/snapshots.md), so that it reads the same for every platform.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "state/desired.h"

namespace fabricctl {

/// One value that differs, on one device or port.
struct IntentChange {
  std::string device;
  std::string port;    // "" for a device-level value, or a whole device added or removed
  std::string key;     // e.g. "ecn[tc=3].probability_pct", "mtu"; "" when the device or port itself comes or goes
  std::string before;  // the value as JSON text; "" when absent (added)
  std::string after;   // "" when absent (removed)
};

/// Every difference from `base` to `head`, devices and ports in natural order, keys in snapshot order.
std::vector<IntentChange> intent_changes(const FabricDesired& base, const FabricDesired& head);

/// Changes that are the same (key, before, after) on several devices or ports, told once.
struct ChangeGroup {
  std::string key, before, after;
  bool ports = false;                // port-level (counted in `count` ports) or device-level
  std::vector<std::string> devices;  // natural order
  size_t count = 0;                  // ports, or devices
};

/// Groups `changes` in order of first appearance.
std::vector<ChangeGroup> group_changes(const std::vector<IntentChange>& changes);

/// Device names with runs of consecutive numbers folded: leaf1, leaf2, leaf3, spine2 -> "leaf1-3, spine2".
std::string fold_names(const std::vector<std::string>& names);

/// One line for a group: "ecn[tc=3].probability_pct 20 -> 30 on leaf1-3, spine2: 40 ports",
/// "+ port leaf9:Ethernet0", "- device leaf4".
std::string describe(const ChangeGroup& g);

}  // namespace fabricctl
