#include <algorithm>

#include "util/text.h"
#include "verify/check.h"

namespace fabricctl {

CheckContext::CheckContext(const FabricDesired& d, const FabricObserved& o, Tolerance t,
                           const std::set<std::string>* scope)
    : desired(d), observed(o), tolerance(t) {
  if (scope) {
    in_scope_.reserve(d.devices.size());
    for (const DeviceDesired& dev : d.devices) in_scope_.push_back(scope->count(dev.name) > 0);
  }
  for (const auto& [name, dev] : o.devices)
    for (const PortObserved& p : dev.ports) ports_.emplace(name + '\0' + p.name, &p);
  // Every desired port by "device\0port", so that finding a link's far end is one lookup, not a scan
  // of the peer's ports (a spine has thousands).
  std::unordered_map<std::string, std::pair<const DeviceDesired*, const PortDesired*>> desired_ports;
  devices_.reserve(d.devices.size());
  for (const DeviceDesired& dev : d.devices) devices_.emplace(dev.name, &dev);
  for (const DeviceDesired& dev : d.devices)
    for (const PortDesired& p : dev.ports) desired_ports.emplace(dev.name + '\0' + p.name, std::pair{&dev, &p});
  for (const DeviceDesired& dev : d.devices) {
    for (const PortDesired& p : dev.ports) {
      if (p.peer_device.empty()) continue;
      const auto it = desired_ports.find(p.peer_device + '\0' + p.peer_port);
      if (it == desired_ports.end()) continue;
      const DeviceDesired* peer = it->second.first;
      const PortDesired* pp = it->second.second;
      // Each link once: host end first; between switches, the lower device name first.
      // Natural order, as everywhere else: leaf9 before leaf10.
      const bool this_first = dev.role != peer->role   ? dev.role == Role::host
                              : dev.name != peer->name ? natural_less(dev.name, peer->name)
                                                       : natural_less(p.name, pp->name);
      if (this_first && (in_scope(dev) || in_scope(*peer))) links.push_back({&dev, &p, peer, pp});
    }
  }
  link_index_.reserve(links.size() * 2);
  for (size_t i = 0; i < links.size(); ++i) {
    link_index_.emplace(links[i].a, i);
    link_index_.emplace(links[i].b, i);
  }
}

const LinkEnds* CheckContext::link_of(const PortDesired& port) const {
  const auto it = link_index_.find(&port);
  return it == link_index_.end() ? nullptr : &links[it->second];
}

const DeviceDesired* CheckContext::desired_device(std::string_view name) const {
  const auto it = devices_.find(name);
  return it == devices_.end() ? nullptr : it->second;
}

LinkRef link_ref(const LinkEnds& l) { return {{l.a_device->name, l.a->name}, {l.b_device->name, l.b->name}}; }

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
