// What the model knows of a platform: its limits and vocabularies, as data. Each platform states them in
// its adapter row (platform/<p>/adapter.cpp). No JSON, render or transaction type is here: this is the
// one header of platform/ the model includes (tests/tools/check-layers holds it to that).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "state/desired.h"
#include "state/platform_id.h"

namespace fabricctl {

/// The value of a platform's inventory key, as read: a word or a list of integers.
using HardwareValue = std::variant<std::string, std::vector<int>>;
/// The values a device's platform mapping holds after layering (defaults, its groups, the device), by key.
using HardwareValues = std::map<std::string, HardwareValue, std::less<>>;

/// A key of the platform's own inventory mapping, the one named after the platform (`sonic:`, `eos:`;
/// docs/inventory.md "Switch hardware"): what it accepts.
struct InventoryKey {
  std::string_view name{};
  /// A word, one of these. Empty: a non-empty list of integers instead, each within [min, max], which
  /// the reader sorts ascending.
  std::vector<std::string_view> choices{};
  int min = 0;
  int max = 0;
  /// What the list is, in the error for an empty one ("the cable lengths of the SKU's buffer table").
  std::string_view list_what{};
  /// With no choices: one integer within [min, max], not a list (read as a list of one).
  bool single = false;
};

struct PlatformTraits {
  Platform platform{};  // its name and label: kPlatformNames (state/platform_id.h)
  Role role{};          // the only role a device of this platform can have
  int mtu_min = 0;      // L3 MTU range the platform accepts, bytes
  int mtu_max = 0;
  std::string_view port_pattern{};  // ECMAScript regex a port name must match (checked before use)
  std::string_view port_example{};  // shown in the error when a name does not match
  /// For `fabricctl design`: the name of the index-th (0-based) front-panel port (a host: NIC) as the
  /// platform numbers them on its common hardware; nullptr where it has no one rule.
  std::string (*nth_port)(int index) = nullptr;
  /// For `fabricctl design`, hosts: the RDMA device of the index-th NIC port; nullptr on switches.
  std::string (*nth_rdma_device)(int index) = nullptr;
  std::vector<WatchdogAction> watchdog_actions{};  // actions the platform can be configured with
  /// Trust modes the adapter can render so that every artifact configures the same device.
  std::vector<Trust> trust_modes{};
  /// Whether the PFC watchdog's restoration time can be set (Watchdog::restoration_configurable).
  bool watchdog_restoration_settable = true;
  /// The NOS queues a packet by its priority: it classifies straight into a class that is both the
  /// egress queue and, where lossless, the priority its PFC pauses (NX-OS's qos-group). A priority that
  /// carries traffic, or is lossless, must then go to the traffic class of its own number.
  bool priority_is_queue = false;
  /// ECN thresholds are set in units of this many bytes (NX-OS: kbytes); a threshold must be a
  /// whole number of them.
  int ecn_unit_bytes = 1;
  /// The watchdog's detection and restoration times are set as multiples of its poll interval (NX-OS:
  /// `shutdown-multiplier`, `auto-restore multiplier`): each must be a whole multiple of it.
  bool watchdog_in_poll_intervals = false;
  /// ECN thresholds are set as a percent of the queue's buffer (Junos: a drop profile's fill levels):
  /// the device's hardware states that buffer (SwitchHardware::ecn_buffer_bytes), and each threshold
  /// must be a whole percent of it, at most all of it.
  bool ecn_in_buffer_percent = false;
  /// The most poll intervals the detection and restoration times may span (their multipliers' ranges;
  /// 0: no limit beyond the model's own).
  int watchdog_max_detection_polls = 0;
  int watchdog_max_restoration_polls = 0;
  /// The keys of the platform's inventory mapping; none: the inventory has no such mapping.
  std::vector<InventoryKey> inventory_keys{};
  /// The neutral hardware facts of a device from its mapping's values (a key not given is absent: the
  /// platform's default applies). nullptr when the platform has no keys.
  void (*hardware)(const HardwareValues& given, SwitchHardware& out) = nullptr;
  /// For a switch that looks headroom up in a table (SwitchHardware::headroom_cable_rows_m): what to
  /// change, in the platform's inventory words, when a cable is longer than every row.
  std::string_view headroom_table_fix{};

  /// As written in the inventory: sonic, eos, nvue, linux, nxos.
  [[nodiscard]] std::string_view name() const { return to_string(platform); }
};

/// The traits of one platform.
const PlatformTraits& traits(Platform p);
/// Looks traits up by the platform's inventory name; nullptr if unknown.
const PlatformTraits* find_traits(std::string_view name);
/// Every platform's traits, in the stable order of platforms().
const std::vector<const PlatformTraits*>& all_traits();

}  // namespace fabricctl
