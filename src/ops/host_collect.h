// `fabricctl host collect`: the host's own NIC state, read where it lives. Links (MTU, operational
// state) through rtnetlink in the namespace the command runs in; PFC, ETS and the DSCP app table through
// DCB netlink; DCQCN, RDMA ports and ToS through sysfs and configfs under a root prefix; NCCL's
// defaults from ROOT/etc/nccl.conf; LLDP from lldpd. The result is one snapshot (state/snapshot.h),
// which the controller reads over SSH and `verify` compares like any other device's.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ops/clock.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::ops {

struct HostCollectOptions {
  std::string device;                // the host's inventory name (default: its host name)
  std::vector<std::string> ports;    // netdevs to read; empty: every link but loopback
  std::filesystem::path root = "/";  // prefix of /sys and /etc (fixture trees)
  std::string lldp_socket;           // lldpd's control socket; "" for lldpcli's default
  std::filesystem::path dcb_from;    // read DCB replies from DIR/<netdev>.dcbnl instead of the kernel
};

/// The host's observed state. Per-port problems (an interface that is not there, a sysfs value of the
/// wrong shape, DCB not supported by the driver) make that port's entry in `unreadable_ports`; only a
/// failure to read the links at all is an error. Warnings (lldpd not running) go to `warnings`.
/// `clock` stamps collected_at.
Expected<DeviceObserved> collect_host(const HostCollectOptions& options, std::vector<std::string>& warnings,
                                      const Clock& clock = system_clock());

}  // namespace fabricctl::ops
