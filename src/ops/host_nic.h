// A host's NIC port as the host itself reads it: its link (MTU, operational state) from rtnetlink,
// DCQCN, RDMA and ToS from sysfs and configfs under a root prefix, PFC, ETS and the DSCP app table
// from DCB netlink (or from a saved reply: the lab's stand-in NIC, an offline replay), and its counters
// from the driver's ethtool statistics and the RDMA port's hw_counters (platform/linux/nic_counters.h). The one reader
// `host collect` and `host apply` share, so that what apply changes is judged on what collect shows.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "ops/dcb_query.h"
#include "platform/linux/dcb_state.h"
#include "state/observed.h"
#include "transport/rtnl_link.h"
#include "util/expected.h"

namespace fabricctl::ops {

/// Where the host's state is read.
struct NicSource {
  std::filesystem::path root = "/";  // prefix of /sys and /etc (fixture trees)
  // The stand-in NIC's saved kernel answers, instead of the kernel's: DCB replies as DIR/<netdev>.dcbnl
  // hex dumps, and `ethtool -S` output as DIR/<netdev>.ethtool where there is one.
  std::filesystem::path dcb_from;
  bool counters = true;  // read the counters too (collect); apply, which never judges them, does not
};

struct NicPort {
  PortObserved port;
  std::optional<DcbState> dcb;  // the DCB state as read; nullopt: the driver has no DCB (EOPNOTSUPP)
};

/// The saved DCB reply of `netdev` (DIR/<netdev>.dcbnl). Errors name the file.
Expected<DcbState> read_saved_dcb(const std::filesystem::path& dcb_from, const std::string& netdev);

/// The port whose link is `link`. Error: why it cannot be read, "DCB: ..." when DCB is why.
Expected<NicPort> read_nic_port(const NicSource& source, const LinkState& link);

}  // namespace fabricctl::ops
