// One named count as a driver reports it, before any platform gives it a meaning: what the kernel's
// ethtool statistics are (transport/ethtool.h reads them, platform/linux/nic_counters.h names them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fabricctl {

/// The most statistics one netdev may report: mlx5 reports some 1,500 with every channel's; a count
/// beyond this is an answer not to trust, not a bigger buffer to allocate.
inline constexpr size_t kMaxStatistics = 16384;

/// A driver's name for a count ("rx_prio3_pause") and its value.
struct Statistic {
  std::string name;
  uint64_t value = 0;
  bool operator==(const Statistic&) const = default;
};

}  // namespace fabricctl
