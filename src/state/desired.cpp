#include "state/desired.h"

#include <string>

namespace fabricctl {

std::string_view to_string(Role r) { return r == Role::host ? "host" : "switch"; }

const std::vector<std::string_view>& platform_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const PlatformName& p : kPlatformNames) v.push_back(p.name);
    return v;
  }();
  return names;
}

std::string_view platform_choices() {
  static const std::string text = [] {
    std::string s;
    for (size_t i = 0; i < kPlatformNames.size(); ++i) {
      if (i) s += i + 1 == kPlatformNames.size() ? " or " : ", ";
      s += kPlatformNames[i].name;
    }
    return s;
  }();
  return text;
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

const EcnQueue* QosIntent::ecn_queue(int traffic_class) const {
  if (!ecn_enabled) return nullptr;
  for (const EcnQueue& e : ecn)
    if (e.tc == traffic_class) return &e;
  return nullptr;
}

}  // namespace fabricctl
