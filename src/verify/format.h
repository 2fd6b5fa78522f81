// Formatting state values for findings: short, stable, and the same in every check.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "state/desired.h"

namespace fabricctl {

/// Lossless priorities as "3" or "3,4"; "none" when empty.
std::string format_priorities(const std::array<bool, kPriorities>& set);
/// An optional value or "unknown".
std::string format_opt(const std::optional<int>& v);
/// Speed in Mb/s as "400G" / "2500M".
std::string format_mbps(int mbps);

}  // namespace fabricctl
