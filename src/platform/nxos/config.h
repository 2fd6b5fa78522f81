// Cisco NX-OS: a device's QoS configuration as blocks of CLI lines, the form both `show running-config`
// prints and `configure terminal` takes. One function builds the desired blocks (config.cpp); render
// prints them as config.cfg and plan compares them with the running blocks (change.cpp), so the two
// cannot disagree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "state/desired.h"

namespace fabricctl::nxos {

/// One line of configuration and the lines indented under it (two spaces a level in NX-OS's layout): a
/// policy-map holds classes, a class holds its settings.
struct ConfigBlock {
  std::string line;
  std::vector<ConfigBlock> children;

  bool operator==(const ConfigBlock&) const = default;
};
using Config = std::vector<ConfigBlock>;

// The names of what fabricctl owns on a switch: its policies and class maps. NX-OS takes letters,
// digits, '-' and '_' in these names (Cisco's examples; its limit of 40 characters is far away).
inline constexpr std::string_view kQosPolicy = "FABRICCTL-QOS";        // policy-map type qos
inline constexpr std::string_view kNetworkQosPolicy = "FABRICCTL-NQ";  // policy-map type network-qos
inline constexpr std::string_view kQueuingPolicy = "FABRICCTL-OUT";    // policy-map type queuing
inline constexpr std::string_view kClassMapPrefix = "FABRICCTL-TC";    // class-map type qos, + the qos-group
inline constexpr int kNetworkQosMtu = 9216;  // the no-drop classes' buffer carving: Cisco's RoCE value

/// The system-defined classes of qos-group `tc` in the 8-queue model (docs/reference-nxos.md A.1):
/// c-8q-nq1..7 and c-out-8q-q1..7, with `-default` for qos-group 0.
std::string network_qos_class(int tc);
std::string queuing_class(int tc);

/// The configuration fabricctl wants on the device, in the order NX-OS prints it and must create it
/// (a class map before the policy that names it, a policy before `system qos` attaches it).
Config desired_config(const DeviceDesired& device);

/// Blocks as NX-OS prints them: two spaces per level, one line each.
std::string config_text(const Config& config);

}  // namespace fabricctl::nxos
