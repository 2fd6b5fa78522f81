// A netdev's driver statistics from the local kernel, as `ethtool -S` reads them: the SIOCETHTOOL
// ioctl (linux/ethtool.h; net/ethtool/ioctl.c) with ETHTOOL_GSSET_INFO for the number of ETH_SS_STATS
// strings, ETHTOOL_GSTRINGS for their names and ETHTOOL_GSTATS for the u64 values, in the calling
// thread's network namespace. The thin adapter under the host's counter reading
// (platform/linux/nic_counters.h), which knows what the names mean; this knows none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"
#include "util/statistic.h"

namespace fabricctl {

/// The names of ETHTOOL_GSTRINGS' reply: `count` slots of ETH_GSTRING_LEN (32) bytes, each a name
/// NUL-terminated within its slot (the kernel's ethtool_puts/sprintf truncate to 31 bytes). Untrusted
/// input: a slot without a NUL, an empty or unprintable name, or `strings` shorter than count slots is
/// an error naming the slot.
Expected<std::vector<std::string>> decode_stat_names(std::span<const uint8_t> strings, size_t count);

/// `ifname`'s statistics in the driver's order. Error: a name the kernel would refuse, no such device,
/// a driver without statistics (EOPNOTSUPP), a count above kMaxStatistics, or a count that changed
/// between the three requests (a driver reconfigured meanwhile: read again); each says which.
Expected<std::vector<Statistic>> read_ethtool_stats(std::string_view ifname);

}  // namespace fabricctl
