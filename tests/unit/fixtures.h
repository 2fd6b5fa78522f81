// Hand-built desired state for adapter tests: the roce-lossless intent (PFC on 3, DSCP 26 -> 3,
// CNP DSCP 48 -> 6 strict, ECN on TC3 150 KiB / 1500 KiB / 20 %, DCQCN on, watchdog 200 ms drop).
#pragma once

#include "state/desired.h"

namespace fabricctl::test {

inline QosIntent roce_lossless_qos() {
  QosIntent q;
  q.trust = Trust::dscp;
  q.dscp_to_priority.fill(0);
  q.dscp_to_priority[26] = 3;
  q.dscp_to_priority[48] = 6;
  q.lossless[3] = true;
  q.roce_dscp = 26;
  q.roce_priority = 3;
  q.cnp_dscp = 48;
  q.cnp_priority = 6;
  q.priority_to_tc = {0, 0, 0, 3, 0, 0, 6, 0};
  q.tc[0] = {true, false, 50};
  q.tc[3] = {true, false, 50};
  q.tc[6] = {true, true, 0};
  q.ecn_enabled = true;
  q.ecn = {{3, 153600, 1536000, 20}};
  q.dcqcn.enabled = true;
  q.watchdog = {true, 100, 200, 200, WatchdogAction::drop};
  return q;
}

inline DeviceDesired example_switch(Platform platform, std::vector<std::string> port_names) {
  DeviceDesired d;
  d.name = "leaf1";
  d.role = Role::switch_;
  d.platform = platform;
  d.profile = "roce-lossless";
  d.qos = roce_lossless_qos();
  // What resolve gives a SONiC switch by default: the traditional buffer model and its usual table.
  if (platform == Platform::sonic) d.hardware.headroom_cable_rows_m = {5, 40, 300};
  // A Junos switch sets ECN as percents of a queue buffer the inventory states (15000 KiB: 1% is 150 KiB).
  if (platform == Platform::junos) d.hardware.ecn_buffer_bytes = uint64_t{15000} * 1024;
  int i = 0;
  for (const auto& n : port_names) {
    PortDesired p;
    p.name = n;
    p.mtu = 9100;
    p.speed_mbps = 400000;
    p.cable_length_m = 5;
    p.headroom_bytes = 150528;
    p.peer_device = "host" + std::to_string(++i);
    p.peer_port = "eth0";
    d.ports.push_back(p);
  }
  return d;
}

inline DeviceDesired example_host() {
  DeviceDesired d;
  d.name = "host1";
  d.role = Role::host;
  d.platform = Platform::linux_host;
  d.profile = "roce-lossless";
  d.qos = roce_lossless_qos();
  for (int i = 0; i < 2; ++i) {
    PortDesired p;
    p.name = "ens" + std::to_string(i + 1) + "f0np0";
    p.mtu = 9000;
    p.speed_mbps = 400000;
    p.cable_length_m = 3;
    p.headroom_bytes = 150528;
    p.peer_device = "leaf" + std::to_string(i + 1);
    p.peer_port = "Ethernet0";
    p.rdma_device = "mlx5_" + std::to_string(i);
    p.rdma_mtu = 4096;
    p.rail = i;
    d.ports.push_back(p);
  }
  return d;
}

}  // namespace fabricctl::test
