#include "verify/format.h"

#include <vector>

#include "util/text.h"

namespace fabricctl {

std::string format_priorities(const std::array<bool, kPriorities>& set) {
  std::vector<std::string> parts;
  for (int p = 0; p < kPriorities; ++p)
    if (set[static_cast<size_t>(p)]) parts.push_back(std::to_string(p));
  return parts.empty() ? "none" : join(parts, ",");
}

std::string format_opt(const std::optional<int>& v) { return v ? std::to_string(*v) : "unknown"; }

std::string format_mbps(int mbps) {
  return mbps % 1000 == 0 ? std::to_string(mbps / 1000) + "G" : std::to_string(mbps) + "M";
}

}  // namespace fabricctl
