// What a Linux host's NIC state looks like through its file trees (sysfs, configfs, /etc), read under a
// root prefix so that the same code reads a live host ("/") and a fixture tree (the lab's hosts, tests):
//   ROOT/sys/class/net/IF/speed                           link speed, Mb/s (-1 or absent: unknown)
//   ROOT/sys/class/net/IF/ecn/roce_{rp,np}/enable/0..7    mlx5 DCQCN reaction / notification point (MLNX_OFED)
//   ROOT/sys/class/net/IF/ecn/roce_np/{cnp_dscp,cnp_802p_prio,min_time_between_cnps}
//   ROOT/sys/class/net/IF/ecn/roce_rp/<kDcqcnRpParams>    firmware units (rates Mb/s, times microseconds)
//   ROOT/sys/class/infiniband/DEV/ports/N/{state,active_mtu,gids/I,gid_attrs/types/I,gid_attrs/ndevs/I}
//   ROOT/sys/kernel/config/rdma_cm/DEV/ports/N/default_roce_tos
//   ROOT/sys/class/infiniband/DEV/tc/N/traffic_class      MLNX_OFED's ToS override ("Global tclass=106")
//   ROOT/sys/class/infiniband/DEV/ports/N/hw_counters/NAME the RDMA port's counters, one decimal each
//   ROOT/etc/nccl.conf                                     NCCL's defaults
// A file that is absent leaves its field "not collected"; a file that holds something else than its
// documented shape makes the port unreadable, with the path and the value quoted: device output is
// untrusted input.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::linux_host {

/// The RDMA device and port whose GIDs belong to `netdev` (gid_attrs/ndevs), or the netdev's own
/// ROOT/sys/class/net/IF/device/infiniband/DEV with port 1; nullopt when the netdev has none.
std::optional<std::pair<std::string, int>> rdma_port_of(const std::filesystem::path& root, std::string_view netdev);

/// The hw_counters of `netdev`'s RDMA port, name -> value; empty when it has no RDMA port or no such
/// directory. Files whose names are not counter names are skipped, and so is "lifespan" (a setting);
/// a value that is not a decimal u64 is an error naming the file.
Expected<std::map<std::string, uint64_t>> read_rdma_hw_counters(const std::filesystem::path& root,
                                                                std::string_view netdev);

/// Fills the sysfs side of `port` (speed, DCQCN, RDMA): port.name is the netdev. An error names the
/// file and quotes its content.
Expected<void> read_port_files(const std::filesystem::path& root, PortObserved& port);

/// The value that, written to the attribute named `file` (its last path component), brings back what it
/// showed as `shown`: what the kernel stores, which is not always what it shows (MLNX_OFED traffic_class:
/// "Global tclass=106" is stored as "106", nothing as "-1"; traffic_class.h). Error: a traffic_class with
/// per-address rules (they cannot be replayed) or one that is not what the driver shows.
Expected<std::string> value_to_restore(std::string_view file, std::string_view shown);

/// NCCL_IB_TC and NCCL_IB_GID_INDEX of ROOT/etc/nccl.conf; an absent file is an empty NcclObserved
/// (NCCL's own defaults).
Expected<NcclObserved> read_nccl_conf(const std::filesystem::path& root);

}  // namespace fabricctl::linux_host
