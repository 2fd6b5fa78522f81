// `ethtool -S IF` as ethtool prints it (ethtool.c do_gnicstats/dump_stats: "NIC statistics:", then one
// "     NAME: VALUE" line per statistic, VALUE a u64 in decimal), read back into statistics: the saved
// answer of a stand-in NIC (an mlx5 port captured on a real host; the lab, whose NICs are veths) or of
// an offline replay, read where the kernel's would be (ops/host_nic.h). Untrusted input: every line is
// checked and an error names its line.
#pragma once

#include <string_view>
#include <vector>

#include "util/expected.h"
#include "util/statistic.h"

namespace fabricctl::linux_host {

/// The statistics of `ethtool -S` output, in its order. Error ("line N: ..."): no "NIC statistics:"
/// header, a line without "NAME: VALUE", a name that ETHTOOL_GSTRINGS could not hold (empty, over 31
/// bytes, unprintable), a value that is not a decimal u64, or more than kMaxStatistics lines.
Expected<std::vector<Statistic>> parse_ethtool_statistics(std::string_view text);

}  // namespace fabricctl::linux_host
