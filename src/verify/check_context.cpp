#include <algorithm>

#include "util/text.h"
#include "verify/check.h"

namespace fabricctl {

CheckContext::CheckContext(const FabricDesired& d, const FabricObserved& o, Tolerance t)
    : desired(d), observed(o), tolerance(t) {
  for (const auto& [name, dev] : o.devices)
    for (const PortObserved& p : dev.ports) ports_.emplace(name + '\0' + p.name, &p);
  std::map<std::string, const DeviceDesired*, std::less<>> by_name;
  for (const DeviceDesired& dev : d.devices) by_name.emplace(dev.name, &dev);
  for (const DeviceDesired& dev : d.devices) {
    for (const PortDesired& p : dev.ports) {
      if (p.peer_device.empty()) continue;
      const auto it = by_name.find(p.peer_device);
      if (it == by_name.end()) continue;
      const DeviceDesired* peer = it->second;
      const PortDesired* pp = nullptr;
      for (const PortDesired& q : peer->ports) {
        if (q.name == p.peer_port) {
          pp = &q;
          break;
        }
      }
      if (!pp) continue;
      // Each link once: host end first; between switches, the lower device name first.
      // Natural order, as everywhere else: leaf9 before leaf10.
      const bool this_first = dev.role != peer->role ? dev.role == Role::host
                              : dev.name != peer->name ? natural_less(dev.name, peer->name)
                                                       : natural_less(p.name, pp->name);
      if (this_first) links.push_back({&dev, &p, peer, pp});
    }
  }
}

const DeviceObserved* CheckContext::device(std::string_view name) const {
  const auto it = observed.devices.find(name);  // no allocation: called per port per check
  return it == observed.devices.end() ? nullptr : &it->second;
}

const PortObserved* CheckContext::port(std::string_view dev, std::string_view p) const {
  std::string key;
  key.reserve(dev.size() + 1 + p.size());
  key.append(dev).push_back('\0');
  key.append(p);
  const auto it = ports_.find(key);
  return it == ports_.end() ? nullptr : it->second;
}

}  // namespace fabricctl
