#include "state/observed.h"

#include <algorithm>

namespace fabricctl {

const PortObserved* DeviceObserved::port(std::string_view n) const {
  for (const PortObserved& p : ports)
    if (p.name == n) return &p;
  return nullptr;
}

DeviceObserved observed_from_desired(const DeviceDesired& d) {
  DeviceObserved o;
  o.name = d.name;
  o.platform = d.platform;
  o.source = "desired";
  const QosIntent& q = d.qos;
  for (const PortDesired& p : d.ports) {
    PortObserved po;
    po.name = p.name;
    po.mtu = p.mtu;
    po.speed_mbps = p.speed_mbps;
    po.oper_up = !p.peer_device.empty();
    po.trust = q.trust;
    po.dscp_to_priority = q.dscp_to_priority;
    po.lossless = q.lossless;
    po.priority_to_tc = q.priority_to_tc;
    po.tc = q.tc;
    if (d.role == Role::switch_) {
      po.ecn = q.ecn_enabled ? q.ecn : std::vector<EcnQueue>{};
      po.watchdog = q.watchdog;
    } else {
      DcqcnObserved dc;
      dc.rp_enabled = q.dcqcn_priorities();
      dc.np_enabled = dc.rp_enabled;
      dc.cnp_dscp = q.cnp_dscp;
      dc.cnp_priority = q.cnp_priority;
      // What the profile leaves to the firmware is unknown here: only the set parameters are reported.
      for (const auto& [name, value] : q.dcqcn.rp) dc.rp.emplace(name, value);
      dc.min_time_between_cnps = q.dcqcn.np_min_time_between_cnps;
      po.dcqcn = dc;
      RdmaObserved r;
      r.device = p.rdma_device;
      r.port = p.rdma_port;
      r.active = true;
      r.active_mtu = std::min(p.rdma_mtu, roce_mtu_for(p.mtu));
      // A ConnectX netdev with a link-local and one IPv4 address: RoCE v1 and v2 GIDs of each.
      r.gids = {{0, "RoCE v1", "fe80:0000:0000:0000:0000:0000:0000:0001"},
                {1, "RoCE v2", "fe80:0000:0000:0000:0000:0000:0000:0001"},
                {2, "RoCE v1", "0000:0000:0000:0000:0000:ffff:0a00:0001"},
                {3, "RoCE v2", "0000:0000:0000:0000:0000:ffff:0a00:0001"}};
      if (q.nccl_gid_index > 3)
        r.gids.push_back({q.nccl_gid_index, "RoCE v2", "fd00:0000:0000:0000:0000:0000:0000:0001"});
      r.cm_tos = q.roce_tos();
      r.tos_override = q.roce_tos();
      po.rdma = r;
    }
    if (!p.peer_device.empty()) po.lldp = LldpNeighbor{p.peer_device, p.peer_port};
    o.ports.push_back(std::move(po));
  }
  if (d.role == Role::host) {
    NcclObserved n;
    n.traffic_class = q.roce_tos();
    if (q.nccl_gid_index != kNcclGidAuto) n.gid_index = q.nccl_gid_index;
    o.nccl = n;
  }
  return o;
}

void FabricObserved::record_failure(DeviceFailure f) {
  unreadable.emplace(f.device, f.reason);
  const std::string device = f.device;
  failures.emplace(device, std::move(f));
}

const DeviceFailure* FabricObserved::failure(std::string_view device) const {
  const auto it = failures.find(device);
  return it == failures.end() ? nullptr : &it->second;
}

}  // namespace fabricctl
