// A fix: one setting of one device or port to bring to its desired value, in neutral terms. Checks say
// what is wrong and return a Fix; the device's platform adapter phrases it as commands that can be pasted
// and run (platform/<p>/fix.cpp), with the same vocabulary and unit conversions its renderer uses. The
// desired values come from the DeviceDesired the fix points at, so a fix can never ask for a value the
// rendered configuration would not also set.
#pragma once

#include <vector>

#include "state/desired.h"

namespace fabricctl {

/// The settings a fix can name. One per compared field of the observed state.
enum class Setting {
  mtu,           // port L3 MTU
  speed,         // port speed (a check of optics and cabling; not always a setting)
  link_up,       // port admin/oper state
  trust,         // DSCP or PCP trust
  dscp_map,      // DSCP -> priority; keys: the DSCPs that differ
  pfc,           // lossless priorities; keys: the priorities whose PFC state differs
  ets,           // priority -> TC map and TC scheduling
  ecn,           // ECN marking of egress queues; keys: the traffic classes that differ
  watchdog,      // PFC watchdog
  dcqcn,         // NIC DCQCN reaction/notification points; keys: the priorities that differ
  dcqcn_params,  // NIC DCQCN parameters the profile sets; keys: kDcqcnRpParams indexes, kDcqcnNpGapKey
  cnp,           // the DSCP and priority of the CNPs a NIC sends
  cabling,       // a cable to move (show the neighbour to confirm)
  rdma_gid,      // RoCE v2 GID: an IP address on the netdev
  rdma_port,     // RDMA port state
  roce_tos,      // the ToS byte of a NIC port's RoCE traffic (rdma_cm's default and the driver's override)
  nccl_tc,       // the traffic class NCCL's defaults give its RoCE traffic (device-wide)
  nccl_gid,      // the GID index NCCL's defaults select (device-wide)
};

/// The key of Setting::dcqcn_params for the notification point's minimum CNP spacing.
constexpr int kDcqcnNpGapKey = static_cast<int>(kDcqcnRpParams.size());

struct Fix {
  Setting setting = Setting::mtu;
  const DeviceDesired* device = nullptr;
  const PortDesired* port = nullptr;  // nullptr for a device-wide setting
  std::vector<int> keys;              // what differs, per Setting; empty: the whole setting

  /// Whether the fix covers `key` (a DSCP, priority or traffic class): every key when `keys` is empty.
  [[nodiscard]] bool covers(int key) const {
    if (keys.empty()) return true;
    for (int k : keys)
      if (k == key) return true;
    return false;
  }
};

}  // namespace fabricctl
