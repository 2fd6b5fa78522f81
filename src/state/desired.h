// Desired state: the vendor-neutral intent for one device and its ports, after profiles, groups and
// overrides are resolved. Renderers read only this; verify compares observed state of the same shape.
//
// Units are normalized here and nowhere else: bytes, percent, milliseconds, microseconds where the NIC
// counts in them, Mb/s, metres, and L3 (IP) MTU in bytes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "state/platform_id.h"

namespace fabricctl {

enum class Role { host, switch_ };
enum class Trust { dscp, pcp };
enum class WatchdogAction { drop, forward, alert };

std::string_view to_string(Role r);
std::string_view to_string(Trust t);
std::string_view to_string(WatchdogAction a);

constexpr int kPriorities = 8;      // IEEE 802.1p priorities 0-7
constexpr int kTrafficClasses = 8;  // egress traffic classes (queues) 0-7
constexpr int kDscpValues = 64;     // DSCP 0-63
constexpr int kEct0 = 2;            // ECN field ECT(0) (RFC 3168): the low two bits of the ToS byte

/// Egress scheduling of one traffic class (ETS, IEEE 802.1Qaz).
struct TcSchedule {
  bool used = false;      // some priority maps to this TC
  bool strict = false;    // strict priority; otherwise ETS with bandwidth_pct
  int bandwidth_pct = 0;  // share of the ETS bandwidth, percent; 0 for strict
};

/// ECN marking (WRED in ECN mode) on one egress traffic class of a switch port.
struct EcnQueue {
  int tc = 0;
  uint64_t min_bytes = 0;   // start marking at this queue depth, bytes
  uint64_t max_bytes = 0;   // mark with max probability at this depth, bytes
  int probability_pct = 0;  // marking probability at max_bytes, percent 0-100
};

/// The DCQCN reaction-point parameters, named as mlx5 exposes them (ecn/roce_rp/<name>, MLNX_OFED), in
/// mlx5's order. Values in the firmware's units: rates Mb/s, times microseconds, bytes.
inline constexpr std::array<std::string_view, 16> kDcqcnRpParams = {"clamp_tgt_rate",
                                                                    "clamp_tgt_rate_after_time_inc",
                                                                    "rpg_time_reset",
                                                                    "rpg_byte_reset",
                                                                    "rpg_threshold",
                                                                    "rpg_max_rate",
                                                                    "rpg_ai_rate",
                                                                    "rpg_hai_rate",
                                                                    "rpg_gd",
                                                                    "rpg_min_dec_fac",
                                                                    "rpg_min_rate",
                                                                    "rate_to_set_on_first_cnp",
                                                                    "dce_tcp_g",
                                                                    "dce_tcp_rtt",
                                                                    "rate_reduce_monitor_period",
                                                                    "initial_alpha_value"};

/// DCQCN on a host NIC. The reaction- and notification-point parameters are those the profile sets,
/// named as mlx5 exposes them (ecn/roce_rp/*, ecn/roce_np/*), in the firmware's units (rates Mb/s, times
/// microseconds). A parameter the profile leaves unset keeps the NIC firmware's value: fabricctl neither
/// writes nor judges it (the firmware's defaults differ by NIC generation and firmware release).
struct Dcqcn {
  bool enabled = false;
  std::vector<std::pair<std::string, int>> rp;  // set reaction-point parameters, in mlx5's order
  std::optional<int> np_min_time_between_cnps;  // microseconds
};

/// NCCL's GID index setting that leaves the choice to NCCL (2.21 and later pick a RoCE v2 GID).
constexpr int kNcclGidAuto = -1;

/// PFC watchdog: detects a queue paused for too long (a pause storm or deadlock) and acts on it.
struct Watchdog {
  bool enabled = false;
  int poll_interval_ms = 100;
  int detection_ms = 200;
  int restoration_ms = 200;
  WatchdogAction action = WatchdogAction::drop;
  /// False where the device restores PFC on its own (NVUE: one poll interval after the pause frames
  /// stop): restoration_ms is then not held against it. Set from the platform's traits by the model.
  bool restoration_configurable = true;
};

/// Device-wide QoS intent: classification, PFC, ETS, ECN, DCQCN and watchdog.
/// Where `fabricctl health` makes a rate a finding on a device (the profile's `health:` section;
/// docs/health.md gives each default's reason).
struct HealthLimits {
  int64_t pauses_per_s = 1000;         // PFC pause frames on one lossless priority of one link, per second
  int pause_time_percent = 10;         // of the interval a link spends paused (where pause time is counted)
  int64_t retransmissions_per_s = 10;  // RoCE sequence errors, NAK-implied and timeout retransmissions
  int baseline_factor = 10;            // a counter this many times its baseline rate (health --baseline)
};

struct QosIntent {
  Trust trust = Trust::dscp;
  std::array<int, kDscpValues> dscp_to_priority{};  // every DSCP has a priority (0 unless mapped)
  std::array<bool, kPriorities> lossless{};         // PFC enabled per priority
  int roce_dscp = 26;
  int roce_priority = 3;
  int cnp_dscp = 48;
  int cnp_priority = 6;
  std::array<int, kPriorities> priority_to_tc{};  // egress traffic class of each priority
  std::array<TcSchedule, kTrafficClasses> tc{};
  bool ecn_enabled = false;
  std::vector<EcnQueue> ecn;  // sorted by tc; empty when ecn_enabled is false
  Dcqcn dcqcn;
  Watchdog watchdog;
  /// The GID index NCCL's RoCE traffic uses, or kNcclGidAuto (the default): no NCCL_IB_GID_INDEX, so
  /// NCCL picks a RoCE v2 GID of the port's address family itself (NCCL_IB_GID_INDEX defaults to -1,
  /// NCCL_IB_ROCE_VERSION_NUM to 2). A fixed index is right only for one address layout (3: the RoCE v2
  /// GID of a ConnectX netdev with one IPv4 address); a profile pins it with nccl.gid_index.
  int nccl_gid_index = kNcclGidAuto;
  HealthLimits health;  // not QoS the device runs: how its counters are judged

  [[nodiscard]] std::vector<int> lossless_priorities() const;
  /// The ECN marking of `traffic_class`, or nullptr when that class does not mark: none is listed for
  /// it, or ECN is off (a DCQCN-only profile: NIC reaction, no switch marking).
  [[nodiscard]] const EcnQueue* ecn_queue(int traffic_class) const;
  /// The ToS byte hosts send RoCE with: the RoCE DSCP in the upper six bits, and ECT(0) (RFC 3168) in
  /// the ECN bits when DCQCN is on, so that switches mark instead of drop (DSCP 26: 106, or 104).
  [[nodiscard]] int roce_tos() const { return (roce_dscp << 2) | (dcqcn.enabled ? kEct0 : 0); }
  /// Priorities whose DCQCN reaction and notification points are on: the lossless ones, when
  /// DCQCN is enabled; none otherwise.
  [[nodiscard]] std::array<bool, kPriorities> dcqcn_priorities() const;
};

/// The RoCE path MTU a netdev MTU carries: the largest IB MTU (256-4096) that fits in mtu - 96
/// bytes of RoCE v2 headers (Ethernet FCS excluded, IP/UDP/BTH/ICRC included); 0 if none fits.
int roce_mtu_for(int netdev_mtu);

/// One port (switch interface or host NIC netdev) and what the fabric expects of it.
struct PortDesired {
  std::string name;
  int mtu = 0;                    // L3 MTU, bytes
  std::optional<int> speed_mbps;  // expected speed, Mb/s
  int cable_length_m = 0;         // for PFC headroom, metres
  uint32_t headroom_bytes = 0;    // derived PFC xoff headroom per lossless priority, bytes
  std::string peer_device;        // the other end of its link; empty when not cabled
  std::string peer_port;
  // Host NICs only.
  std::string rdma_device;  // e.g. mlx5_0
  int rdma_port = 1;
  int rdma_mtu = 0;  // RoCE path MTU, bytes (256-4096)
  std::optional<int> rail;
};

/// One device and its ports, in natural port order.
/// The facts of a switch's hardware that its configuration depends on, in neutral terms. The inventory
/// states them in the platform's words (docs/inventory.md, "Switch hardware"); unset, they take the
/// documented defaults.
struct SwitchHardware {
  /// PFC headroom looked up by cable length in a table (SONiC's traditional buffer model: the SKU's
  /// pg_profile_lookup.ini): the lengths it has rows for, metres, ascending. A port's length is rounded
  /// up to the next row; a longer one gets no lossless headroom at all. Empty: the switch computes
  /// headroom from the exact length (SONiC's dynamic model, and the other platforms).
  std::vector<int> headroom_cable_rows_m;
  /// Virtual output queues (Broadcom DNX: Jericho), whose egress queues EOS calls tx-queue; otherwise
  /// separate unicast and multicast queues per port (Broadcom Strata: Trident, Tomahawk: uc-tx-queue).
  bool voq = false;
  /// The release of the switch's NOS as the inventory states it, where its command syntax depends on it
  /// (NVUE: "5.15"); empty when the inventory states none (the platform's default).
  std::string nos_release;
  /// The buffer a queue's ECN fill level is a percent of, where the platform sets thresholds so
  /// (PlatformTraits::ecn_in_buffer_percent: Junos), bytes; 0 when the inventory states none.
  uint64_t ecn_buffer_bytes = 0;

  /// The table row a cable of `length_m` metres is sized by: the shortest row at least that long, or
  /// nullopt when every row is shorter. With no table, the length itself.
  [[nodiscard]] std::optional<int> headroom_row(int length_m) const {
    if (headroom_cable_rows_m.empty()) return length_m;
    for (int row : headroom_cable_rows_m)
      if (row >= length_m) return row;
    return std::nullopt;
  }
};

struct DeviceDesired {
  std::string name;
  Role role = Role::switch_;
  Platform platform = Platform::sonic;
  std::string profile;
  std::vector<std::string> groups;
  std::optional<int> rail;
  QosIntent qos;
  SwitchHardware hardware;  // switches only
  std::vector<PortDesired> ports;
};

/// The resolved fabric, devices sorted by name.
struct FabricDesired {
  std::vector<DeviceDesired> devices;
};

}  // namespace fabricctl
