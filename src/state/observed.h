// Observed state: what a device reports about itself, in the same vendor-neutral shape and units
// as the desired state (state/desired.h). Platform collectors fill it; snapshots store it; checks
// compare it. Every field is optional: a collector that could not read something leaves it empty,
// and checks report "missing data" instead of guessing.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "state/desired.h"
#include "state/device_failure.h"

namespace fabricctl {

/// DCQCN as seen on a NIC: which priorities have the reaction and notification points enabled, the
/// CNP marking it sends, and the parameters the collector read (firmware units, as in Dcqcn).
struct DcqcnObserved {
  std::array<bool, kPriorities> rp_enabled{};
  std::array<bool, kPriorities> np_enabled{};
  std::optional<int> cnp_dscp;
  std::optional<int> cnp_priority;
  std::map<std::string, int, std::less<>> rp;  // reaction-point parameters by kDcqcnRpParams name
  std::optional<int> min_time_between_cnps;    // notification point, microseconds
};

/// One GID table entry of an RDMA port.
struct GidObserved {
  int index = 0;
  std::string type;  // "RoCE v2", "RoCE v1", "IB"
  std::string gid;   // textual GID
};

/// RDMA state of a host NIC port (rdma-core: ibv_query_port / ibv_query_gid_table).
struct RdmaObserved {
  std::string device;  // e.g. mlx5_0
  int port = 1;
  std::optional<bool> active;     // port state ACTIVE
  std::optional<int> active_mtu;  // bytes: 256..4096
  std::vector<GidObserved> gids;
  /// ToS byte (DSCP << 2 | ECN bits) of connections made through rdma_cm (its default_roce_tos).
  std::optional<int> cm_tos;
  /// A driver-wide ToS every queue pair of the port takes, whoever made it (MLNX_OFED's traffic class
  /// override); kNoTosOverride when none is set.
  std::optional<int> tos_override;
};

constexpr int kNoTosOverride = -1;

/// NCCL's defaults on a host (its system-wide configuration file). Empty optionals: the file does not
/// set the value, so NCCL uses its own default (traffic class 0; GID chosen by NCCL).
struct NcclObserved {
  std::optional<int> traffic_class;  // ToS byte of NCCL's RoCE traffic
  std::optional<int> gid_index;
};

/// The LLDP neighbour seen on a port.
struct LldpNeighbor {
  std::string system_name;
  std::string port_id;
};

/// One port as observed. Empty optionals mean "not collected".
struct PortObserved {
  std::string name;
  std::optional<int> mtu;  // L3 MTU, bytes
  std::optional<int> speed_mbps;
  std::optional<bool> oper_up;
  std::optional<Trust> trust;
  std::optional<std::array<int, kDscpValues>> dscp_to_priority;
  std::optional<std::array<bool, kPriorities>> lossless;  // PFC enabled per priority
  std::optional<std::array<int, kPriorities>> priority_to_tc;
  std::optional<std::array<TcSchedule, kTrafficClasses>> tc;
  std::optional<std::vector<EcnQueue>> ecn;  // queues with ECN marking on, sorted by tc
  std::optional<DcqcnObserved> dcqcn;        // host NICs
  std::optional<Watchdog> watchdog;          // switch ports; enabled=false when off
  std::optional<RdmaObserved> rdma;          // host NICs
  std::optional<LldpNeighbor> lldp;
  /// Counters, monotonically increasing since an unknown time: judged as deltas against a
  /// baseline, never against zero. Neutral names (docs/snapshots.md#counters), e.g. pfc_rx_pause_<p>,
  /// pfc_tx_pause_<p>, fcs_errors, cnp_sent, watchdog_storms_<q>, ecn_marked_<q>; absent when not reported.
  std::map<std::string, uint64_t> counters;
};

/// Counters by port, as a platform's reader returns them before they join their ports: port -> neutral
/// name -> value.
using PortCounters = std::map<std::string, std::map<std::string, uint64_t>, std::less<>>;

/// One device's observed state, as one snapshot file holds it.
struct DeviceObserved {
  std::string name;
  std::optional<Platform> platform;
  std::string collected_at;  // RFC 3339 UTC, as the collector wrote it
  std::string source;        // what produced it: "fabricctl collect", "fixture", ...
  std::vector<PortObserved> ports;
  std::optional<NcclObserved> nccl;  // hosts; absent: not collected
  /// Ports whose state could not be read (a bad name or a bad value), with why: one bad port makes that
  /// port unreadable, not the whole device. Keys are the names as written, made printable.
  std::map<std::string, std::string, std::less<>> unreadable_ports;

  [[nodiscard]] const PortObserved* port(std::string_view name) const;
  /// Why the port of that name could not be read, or nullptr.
  [[nodiscard]] const std::string* port_unreadable(std::string_view port_name) const {
    const auto it = unreadable_ports.find(port_name);
    return it == unreadable_ports.end() ? nullptr : &it->second;
  }
};

/// The observed state of a fabric: devices by name; a device absent here had no readable state.
struct FabricObserved {
  std::map<std::string, DeviceObserved, std::less<>> devices;  // transparent: look up by string_view
  /// Devices whose state could not be obtained, by name (shown in reports; exit code 3). Add with
  /// record_failure(), which keeps `unreadable` in step.
  std::map<std::string, DeviceFailure, std::less<>> failures;
  /// device -> failures[device].reason. Kept for readers that predate `failures` (the verify
  /// engine and checks); remove once they read `failures`.
  std::map<std::string, std::string> unreadable;

  /// Records that `f.device` could not be read (the first failure of a device wins).
  void record_failure(DeviceFailure f);
  /// The failure of `device`, or nullptr.
  [[nodiscard]] const DeviceFailure* failure(std::string_view device) const;
};

/// The observed state a device would report if it matched its desired state exactly. Used to
/// build test fixtures and as a starting point when hand-writing snapshots.
DeviceObserved observed_from_desired(const DeviceDesired& device);

}  // namespace fabricctl
