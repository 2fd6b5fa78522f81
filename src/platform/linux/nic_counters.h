// A host NIC's counters in fabricctl's neutral names (state/observed.h PortObserved::counters), from
// what the kernel exposes for an mlx5 port: the driver's ethtool statistics (`ethtool -S`, read by
// transport/ethtool.h) and the RDMA port's hw_counters directory
// (/sys/class/infiniband/<dev>/ports/<n>/hw_counters/, one decimal file per counter). Pure: names and
// values in, neutral counters out. Names and meanings: the kernel's mlx5 counters documentation
// (Documentation/networking/device_drivers/ethernet/mellanox/mlx5/counters.rst), en_stats.c and
// drivers/infiniband/hw/mlx5/counters.c; docs/counters-reference.md lists them with their sources.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "util/statistic.h"

namespace fabricctl {

/// The neutral counters these statistics and RDMA hw_counters give. What a driver does not report is
/// absent (never 0): a veth has none of them, an mlx5 port without RoCE no RDMA ones. Statistics the
/// table does not name are left out. Per priority: "<neutral>_<p>" for p 0-7, from "rx_prio<p>_...".
std::map<std::string, uint64_t> nic_counters(const std::vector<Statistic>& ethtool,
                                             const std::map<std::string, uint64_t>& rdma_hw_counters);

}  // namespace fabricctl
