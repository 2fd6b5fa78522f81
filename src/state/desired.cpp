#include "state/desired.h"

namespace fabricctl {

std::string_view to_string(Role r) { return r == Role::host ? "host" : "switch"; }

std::string_view to_string(Platform p) {
  switch (p) {
    case Platform::sonic: return "sonic";
    case Platform::eos: return "eos";
    case Platform::nvue: return "nvue";
    case Platform::linux_host: return "linux";
  }
  return "?";
}

std::string_view to_string(Trust t) { return t == Trust::dscp ? "dscp" : "pcp"; }

std::string_view to_string(WatchdogAction a) {
  switch (a) {
    case WatchdogAction::drop: return "drop";
    case WatchdogAction::forward: return "forward";
    case WatchdogAction::alert: return "alert";
  }
  return "?";
}

int roce_mtu_for(int netdev_mtu) {
  for (int m = 4096; m >= 256; m /= 2)
    if (m <= netdev_mtu - 96) return m;
  return 0;
}

std::array<bool, kPriorities> QosIntent::dcqcn_priorities() const {
  std::array<bool, kPriorities> on{};
  if (dcqcn.enabled) on = lossless;
  return on;
}

std::vector<int> QosIntent::lossless_priorities() const {
  std::vector<int> out;
  for (int p = 0; p < kPriorities; ++p)
    if (lossless[static_cast<size_t>(p)]) out.push_back(p);
  return out;
}

}  // namespace fabricctl
