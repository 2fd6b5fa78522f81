#include <algorithm>
#include <unordered_map>

#include "util/parallel.h"
#include "util/text.h"
#include "verify/check.h"

namespace fabricctl {

CheckContext::CheckContext(const FabricDesired& d, const FabricObserved& o, Tolerance t,
                           const std::set<std::string>* scope, FixText phrase)
    : desired(d), observed(o), tolerance(t), fix_text(phrase) {
  if (scope) {
    in_scope_.reserve(d.devices.size());
    for (const DeviceDesired& dev : d.devices) in_scope_.push_back(scope->count(dev.name) > 0);
  }
  // Each desired port's observed state, found once here so that checks index it. Both sides are
  // in natural order (resolve and the snapshot reader sort them), so one merge pass finds nearly
  // every port; a port it misses (absent, or sides in another order) is looked up by name.
  observed_devices_.reserve(d.devices.size());
  port_offset_.reserve(d.devices.size());
  for (const DeviceDesired& dev : d.devices) {
    port_offset_.push_back(observed_ports_.size());
    observed_devices_.push_back(device(dev.name));
    observed_ports_.resize(observed_ports_.size() + dev.ports.size(), nullptr);
  }
  // Devices are independent: paired on all cores, each writing only its own slots.
  parallel_for(d.devices.size(), worker_count(d.devices.size(), 8, 256), [&](size_t, size_t i) {
    const DeviceObserved* od = observed_devices_[i];
    if (!od) return;
    const DeviceDesired& dev = d.devices[i];
    std::unordered_map<std::string_view, const PortObserved*> by_name;
    size_t next = 0;
    for (size_t k = 0; k < dev.ports.size(); ++k) {
      const PortDesired& p = dev.ports[k];
      const PortObserved*& slot = observed_ports_[port_offset_[i] + k];
      while (next < od->ports.size() && natural_less(od->ports[next].name, p.name)) ++next;
      if (next < od->ports.size() && od->ports[next].name == p.name) {
        slot = &od->ports[next];
        continue;
      }
      if (by_name.empty())
        for (const PortObserved& op : od->ports) by_name.emplace(op.name, &op);
      const auto it = by_name.find(p.name);
      if (it != by_name.end()) slot = it->second;
    }
  });
  devices_.reserve(d.devices.size());
  for (const DeviceDesired& dev : d.devices) devices_.emplace(dev.name, &dev);
  for (const DeviceDesired& dev : d.devices) {
    for (const PortDesired& p : dev.ports) {
      if (p.peer_device.empty()) continue;
      const DeviceDesired* peer = desired_device(p.peer_device);
      const PortDesired* pp = peer ? desired_port(*peer, p.peer_port) : nullptr;
      if (!pp) continue;
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

const PortDesired* CheckContext::desired_port(const DeviceDesired& d, std::string_view name) {
  // Ports are in natural order (resolve sorts them): a binary search, then a scan for a device
  // built in another order (tests).
  const auto it = std::lower_bound(d.ports.begin(), d.ports.end(), name,
                                   [](const PortDesired& p, std::string_view n) { return natural_less(p.name, n); });
  if (it != d.ports.end() && it->name == name) return &*it;
  const auto found = std::find_if(d.ports.begin(), d.ports.end(), [&](const PortDesired& p) { return p.name == name; });
  return found == d.ports.end() ? nullptr : &*found;
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
