#include <algorithm>
#include <unordered_map>

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
  // Each desired port's observed state, found once by name here so that checks index it.
  observed_devices_.reserve(d.devices.size());
  port_offset_.reserve(d.devices.size());
  std::unordered_map<std::string_view, const PortObserved*> by_name;
  for (const DeviceDesired& dev : d.devices) {
    port_offset_.push_back(observed_ports_.size());
    const DeviceObserved* od = device(dev.name);
    observed_devices_.push_back(od);
    if (!od) {
      observed_ports_.resize(observed_ports_.size() + dev.ports.size(), nullptr);
      continue;
    }
    by_name.clear();
    for (const PortObserved& p : od->ports) by_name.emplace(p.name, &p);
    for (const PortDesired& p : dev.ports) {
      const auto it = by_name.find(p.name);
      observed_ports_.push_back(it == by_name.end() ? nullptr : it->second);
    }
  }
  // Every desired port by "device\0port", so that finding a link's far end is one lookup, not a scan
  // of the peer's ports (a spine has thousands).
  struct PairHash {
    size_t operator()(const std::pair<std::string_view, std::string_view>& k) const {
      const size_t h = std::hash<std::string_view>{}(k.first);
      return h ^ (std::hash<std::string_view>{}(k.second) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
    }
  };
  std::unordered_map<std::pair<std::string_view, std::string_view>, std::pair<const DeviceDesired*, const PortDesired*>,
                     PairHash>
      desired_ports;
  desired_ports.reserve(observed_ports_.size());
  devices_.reserve(d.devices.size());
  for (const DeviceDesired& dev : d.devices) devices_.emplace(dev.name, &dev);
  for (const DeviceDesired& dev : d.devices)
    for (const PortDesired& p : dev.ports)
      desired_ports.emplace(std::pair<std::string_view, std::string_view>(dev.name, p.name), std::pair{&dev, &p});
  for (const DeviceDesired& dev : d.devices) {
    for (const PortDesired& p : dev.ports) {
      if (p.peer_device.empty()) continue;
      const auto it = desired_ports.find(std::pair<std::string_view, std::string_view>(p.peer_device, p.peer_port));
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

}  // namespace fabricctl
