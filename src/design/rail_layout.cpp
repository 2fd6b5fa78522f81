#include "design/rail_layout.h"

#include <arpa/inet.h>

#include <array>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "model/name_rules.h"
#include "platform/traits.h"

namespace fabricctl::design {

namespace {

/// `first` plus `n`, as an address of the same family; nullopt past the family's last address.
std::optional<std::string> nth_address(const std::string& first, int64_t n) {
  std::array<unsigned char, 16> bytes{};
  const bool v4 = ::inet_pton(AF_INET, first.c_str(), bytes.data()) == 1;
  if (!v4 && ::inet_pton(AF_INET6, first.c_str(), bytes.data()) != 1) return std::nullopt;
  const size_t size = v4 ? 4 : 16;
  uint64_t carry = static_cast<uint64_t>(n);
  for (size_t i = size; i-- > 0 && carry > 0;) {
    carry += bytes[i];
    bytes[i] = static_cast<unsigned char>(carry & 0xff);
    carry >>= 8;
  }
  if (carry > 0) return std::nullopt;
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (::inet_ntop(v4 ? AF_INET : AF_INET6, bytes.data(), text.data(), text.size()) == nullptr) return std::nullopt;
  return std::string(text.data());
}

std::string tier_name(TierKind t) {
  switch (t) {
    case TierKind::spine: return "spines";
    case TierKind::leaf: return "leaves";
    case TierKind::host: return "hosts";
  }
  return "";
}

class Builder {
 public:
  Builder(const RailSpec& spec, Diags& diags) : spec_(spec), diags_(diags) {}

  /// The name of port `index` of a device of tier `t` on `platform`; "" (reported once) when there is none.
  std::string port(const Tier& t, TierKind kind, const std::string& platform, int64_t index) {
    if (!t.port_pattern.empty()) {
      Position at;
      at.set(Placeholder::port, index + 1);
      at.set(Placeholder::index, index);
      return t.port_pattern.expand(at);
    }
    if (!t.ports.empty()) {
      if (index < static_cast<int64_t>(t.ports.size())) return *t.ports[static_cast<size_t>(index)];
      if (reported_ports_.insert(tier_name(kind)).second)
        diags_.error(t.ports.back().loc, tier_name(kind) + ".ports: lists " + std::to_string(t.ports.size()) +
                                             " ports; the design needs at least " + std::to_string(index + 1));
      return "";
    }
    const PlatformTraits* traits = find_traits(platform);
    return traits != nullptr && traits->nth_port != nullptr ? traits->nth_port(static_cast<int>(index)) : "";
  }

  std::string platform(const Tier& t, int64_t position, std::string_view fallback) const {
    if (t.platforms.empty()) return std::string(fallback);
    return *t.platforms[static_cast<size_t>(position) % t.platforms.size()];
  }

  /// Names, addresses and groups: what every tier's device has; `index` is its position in its tier.
  DesignedDevice device(const Tier& t, TierKind kind, Position& at, int64_t index, std::string platform) {
    DesignedDevice d;
    d.tier = kind;
    d.name = t.name.expand(at);
    d.platform = std::move(platform);
    for (const Field<std::string>& g : t.groups) d.groups.push_back(*g);
    if (!is_device_name(d.name) && reported_names_.insert(tier_name(kind)).second)
      diags_.error(t.name_loc, tier_name(kind) + ".name: makes " + quote(d.name) +
                                   ", which is not a device name ([A-Za-z0-9][A-Za-z0-9._-]{0,62})");
    if (!t.address.first.empty()) {
      const auto a = nth_address(t.address.first, index);
      if (!a && reported_addresses_.insert(tier_name(kind)).second)
        diags_.error(t.address.loc, tier_name(kind) + ".address: " + quote(t.address.first) + " has no " +
                                        std::to_string(index + 1) + "th address after it, for " + quote(d.name));
      d.address = a.value_or("");
    } else if (!t.address.pattern.empty()) {
      at.name = d.name;
      d.address = t.address.pattern.expand(at);
    }
    return d;
  }

  const RailSpec& spec_;
  Diags& diags_;
  std::set<std::string> reported_ports_, reported_names_, reported_addresses_;
};

/// Every device name and address used once; the extra groups name devices of the design.
void check_unique(const RailSpec& spec, const Layout& out, Diags& diags) {
  std::unordered_map<std::string, const DesignedDevice*> names, addresses;
  std::set<std::string> reported;
  const auto tier_of = [&](TierKind k) -> const Tier& {
    if (k == TierKind::spine) return spec.spines;
    if (k == TierKind::leaf) return spec.leaves;
    return spec.hosts;
  };
  for (const DesignedDevice& d : out.devices) {
    if (auto [it, fresh] = names.emplace(d.name, &d); !fresh && reported.insert("n" + tier_name(d.tier)).second) {
      std::string hint;
      if (d.tier == TierKind::leaf && !spec.leaves.name.uses(Placeholder::pod)) hint = ": add {pod} to it";
      if (d.tier == TierKind::host && !spec.hosts.name.uses(Placeholder::host))
        hint = ": add {host} (or {pod} and {pod_host})";
      diags.error(tier_of(d.tier).name_loc, tier_name(d.tier) + ".name: " + quote(tier_of(d.tier).name.text()) +
                                                " names " + quote(d.name) + " twice (also a device of " +
                                                tier_name(it->second->tier) + ")" + hint);
    }
    if (d.address.empty()) continue;
    if (auto [it, fresh] = addresses.emplace(d.address, &d); !fresh && reported.insert("a" + tier_name(d.tier)).second)
      diags.error(tier_of(d.tier).address.loc, tier_name(d.tier) + ".address: gives " + quote(d.address) + " to " +
                                                   quote(d.name) + " and to " + quote(it->second->name));
  }
  for (const auto& [name, extra] : spec.extra_groups)
    if (!names.contains(name))
      diags.error(extra.first, "devices: " + quote(name) + " is not a device of this design (at " +
                                   std::to_string(out.sizes.hosts) + " hosts)");
  const auto check_groups = [&](const std::vector<Field<std::string>>& groups, std::string_view where) {
    for (const Field<std::string>& g : groups)
      if (g.has() && !spec.group_names.contains(*g))
        diags.error(g.loc, std::string(where) + ": group " + quote(*g) + " is not defined in groups");
  };
  check_groups(spec.hosts.groups, "hosts.groups");
  check_groups(spec.leaves.groups, "leaves.groups");
  check_groups(spec.spines.groups, "spines.groups");
  for (const auto& [name, extra] : spec.extra_groups) check_groups(extra.second, key_path("devices", name) + ".groups");
}

}  // namespace

std::optional<Layout> lay_out(const RailSpec& spec, int64_t hosts, Diags& diags) {
  const size_t errors_before = diags.count(DiagSeverity::error);
  Layout out;
  Sizes& z = out.sizes;
  z.hosts = hosts;
  z.rails = *spec.rails;
  z.nics = *spec.hosts.nics;
  if (z.nics % z.rails != 0) {
    diags.error(spec.rails.loc, "rails: " + std::to_string(z.rails) + " does not divide hosts.nics (" +
                                    std::to_string(z.nics) + ") evenly: each rail takes the same NICs of every server");
    return std::nullopt;
  }
  const int64_t per_rail = z.nics / z.rails;  // a server's NICs on one leaf
  z.leaf_radix = *spec.leaves.radix;
  z.pod_hosts = pod_hosts(spec);
  z.spines = *spec.spines.count;
  z.leaf_down = z.pod_hosts * per_rail;
  const Loc& pod_loc = spec.leaves.pod_hosts.has() ? spec.leaves.pod_hosts.loc : spec.leaves.radix.loc;
  if (z.pod_hosts < 1 || z.leaf_down + z.spines > z.leaf_radix) {
    diags.error(pod_loc, "leaves: a leaf of " + std::to_string(z.leaf_radix) + " ports cannot take " +
                             std::to_string(std::max<int64_t>(z.pod_hosts, 1)) + " servers of " +
                             std::to_string(per_rail) + " NIC(s) on its rail and an uplink to each of " +
                             std::to_string(z.spines) + " spines");
    return std::nullopt;
  }
  z.up_per_spine = (z.leaf_radix - z.leaf_down) / z.spines;
  z.leaf_up = z.up_per_spine * z.spines;
  z.leaf_spare = z.leaf_radix - z.leaf_down - z.leaf_up;
  z.pods = (hosts + z.pod_hosts - 1) / z.pod_hosts;
  z.leaves = z.pods * z.rails;
  z.spine_ports = z.leaves * z.up_per_spine;
  if (spec.spines.radix.has()) {
    z.spine_radix = *spec.spines.radix;
    z.max_pods = z.spine_radix / (z.rails * z.up_per_spine);
    if (z.spine_ports > z.spine_radix) {
      diags.error(spec.spines.radix.loc,
                  "spines.radix: " + std::to_string(z.pods) + " pods of " + std::to_string(z.rails) +
                      " leaves, each with " + std::to_string(z.up_per_spine) + " uplink(s) to every spine, need " +
                      std::to_string(z.spine_ports) + " ports on each spine; " + std::to_string(z.spine_radix) +
                      " ports take at most " + std::to_string(z.max_pods) + " pods (" +
                      std::to_string(z.max_pods * z.pod_hosts) + " servers)");
      return std::nullopt;
    }
  }
  // An inventory file holds at most 64 MiB (model/yaml_reader.h): some 700,000 cables in links.yaml.
  // fabricctl's design point is 100k NICs and ~200k links; a spec far beyond it is a typo.
  const int64_t cables = hosts * z.nics + z.leaves * z.leaf_up;
  if (cables > kMaxCables) {
    diags.error(spec.hosts.count.loc, "hosts: " + std::to_string(hosts) + " servers make " + std::to_string(cables) +
                                          " cables, more than the " + std::to_string(kMaxCables) +
                                          " one inventory file holds");
    return std::nullopt;
  }
  z.down_mbps = z.leaf_down * spec.host_cable.speed_mbps;
  z.up_mbps = z.leaf_up * spec.uplink_cable.speed_mbps;

  Builder b(spec, diags);
  out.devices.reserve(static_cast<size_t>(z.spines + z.leaves + hosts));
  // Spines.
  for (int64_t s = 0; s < z.spines; ++s) {
    Position at;
    at.set(Placeholder::spine, s + 1);
    DesignedDevice d = b.device(spec.spines, TierKind::spine, at, s, b.platform(spec.spines, s, ""));
    for (int64_t k = 0; k < z.spine_ports; ++k)
      d.ports.push_back({b.port(spec.spines, TierKind::spine, d.platform, k), *spec.uplink_cable.speed, "", -1});
    out.devices.push_back(std::move(d));
  }
  // Leaves: servers' ports first, then the uplinks, spine by spine.
  const size_t first_leaf = out.devices.size();
  for (int64_t p = 0; p < z.pods; ++p) {
    for (int64_t r = 0; r < z.rails; ++r) {
      Position at;
      at.set(Placeholder::pod, p + 1);
      at.set(Placeholder::rail, r);
      DesignedDevice d = b.device(spec.leaves, TierKind::leaf, at, p * z.rails + r,
                                  b.platform(spec.leaves, spec.leaves.platforms_by_pod ? p : r, ""));
      d.rail = static_cast<int>(r);
      for (int64_t k = 0; k < z.leaf_down + z.leaf_up; ++k)
        d.ports.push_back({b.port(spec.leaves, TierKind::leaf, d.platform, k),
                           *(k < z.leaf_down ? spec.host_cable.speed : spec.uplink_cable.speed), "", -1});
      out.devices.push_back(std::move(d));
    }
  }
  // Servers, and the cables from their NICs.
  const size_t first_host = out.devices.size();
  for (int64_t h = 0; h < hosts; ++h) {
    Position at;
    at.set(Placeholder::pod, h / z.pod_hosts + 1);
    at.set(Placeholder::host, h + 1);
    at.set(Placeholder::pod_host, h % z.pod_hosts + 1);
    DesignedDevice d = b.device(spec.hosts, TierKind::host, at, h, b.platform(spec.hosts, h, "linux"));
    const PlatformTraits* traits = find_traits(d.platform);
    for (int64_t n = 0; n < z.nics; ++n) {
      DesignedPort port{b.port(spec.hosts, TierKind::host, d.platform, n), "", "", static_cast<int>(n % z.rails)};
      if (n < static_cast<int64_t>(spec.hosts.rdma_devices.size()))
        port.rdma_device = *spec.hosts.rdma_devices[static_cast<size_t>(n)];
      else if (traits != nullptr && traits->nth_rdma_device != nullptr)
        port.rdma_device = traits->nth_rdma_device(static_cast<int>(n));
      d.ports.push_back(std::move(port));
    }
    out.devices.push_back(std::move(d));
  }
  if (!spec.hosts.rdma_devices.empty() && static_cast<int64_t>(spec.hosts.rdma_devices.size()) < z.nics)
    diags.error(spec.hosts.rdma_devices.back().loc, "hosts.rdma_devices: lists " +
                                                        std::to_string(spec.hosts.rdma_devices.size()) +
                                                        " devices for " + std::to_string(z.nics) + " NICs");
  for (DesignedDevice& d : out.devices)
    if (const auto extra = spec.extra_groups.find(d.name); extra != spec.extra_groups.end())
      for (const Field<std::string>& g : extra->second.second) d.groups.push_back(*g);

  // Cables: every server's NICs, rail by rail, then every leaf's uplinks, spine by spine.
  const int64_t dac = *spec.dac_max_m;
  const auto cable = [&](const DesignedDevice& a, size_t pa, const DesignedDevice& bdev, size_t pb, const Cable& c,
                         bool uplink) {
    out.links.push_back(
        {a.name + ":" + a.ports[pa].name, bdev.name + ":" + bdev.ports[pb].name, *c.speed, *c.length_m, uplink});
    (*c.length_m <= dac ? z.dac_cables : z.optical_links) += 1;
  };
  for (int64_t p = 0; p < z.pods; ++p)
    for (int64_t r = 0; r < z.rails; ++r) {
      const DesignedDevice& leaf = out.devices[first_leaf + static_cast<size_t>(p * z.rails + r)];
      for (int64_t slot = 0; slot < z.pod_hosts; ++slot) {
        const int64_t h = p * z.pod_hosts + slot;
        if (h >= hosts) break;
        const DesignedDevice& host = out.devices[first_host + static_cast<size_t>(h)];
        for (int64_t k = 0; k < per_rail; ++k)
          cable(host, static_cast<size_t>(r + k * z.rails), leaf, static_cast<size_t>(slot * per_rail + k),
                spec.host_cable, false);
      }
    }
  z.host_links = static_cast<int64_t>(out.links.size());
  for (int64_t l = 0; l < z.leaves; ++l) {
    const DesignedDevice& leaf = out.devices[first_leaf + static_cast<size_t>(l)];
    for (int64_t s = 0; s < z.spines; ++s)
      for (int64_t u = 0; u < z.up_per_spine; ++u)
        cable(leaf, static_cast<size_t>(z.leaf_down + s * z.up_per_spine + u), out.devices[static_cast<size_t>(s)],
              static_cast<size_t>(l * z.up_per_spine + u), spec.uplink_cable, true);
  }
  z.uplinks = static_cast<int64_t>(out.links.size()) - z.host_links;
  z.optics = 2 * z.optical_links;
  for (const DesignedDevice& d : out.devices)
    for (const DesignedPort& p : d.ports)
      if (p.name.empty()) return std::nullopt;  // reported by Builder::port, or no rule: the spec reader's
  check_unique(spec, out, diags);
  if (diags.count(DiagSeverity::error) > errors_before) return std::nullopt;
  return out;
}

int64_t pod_hosts(const RailSpec& spec) {
  if (*spec.hosts.nics % *spec.rails != 0) return 0;
  if (spec.leaves.pod_hosts.has()) return *spec.leaves.pod_hosts;
  return *spec.leaves.radix / 2 / (*spec.hosts.nics / *spec.rails);
}

std::vector<std::string> growth_changes(const Layout& before, const Layout& after, size_t max) {
  std::vector<std::string> out;
  const auto add = [&](std::string line) {
    if (out.size() < max) out.push_back(std::move(line));
  };
  std::unordered_map<std::string_view, const DesignedDevice*> now;
  for (const DesignedDevice& d : after.devices) now.emplace(d.name, &d);
  for (const DesignedDevice& d : before.devices) {
    const auto it = now.find(d.name);
    if (it == now.end()) {
      add(quote(d.name) + " would be gone");
      continue;
    }
    const DesignedDevice& n = *it->second;
    if (n.platform != d.platform) add(quote(d.name) + ": platform " + d.platform + " would become " + n.platform);
    if (n.address != d.address) add(quote(d.name) + ": address " + d.address + " would become " + n.address);
    if (n.rail != d.rail) add(quote(d.name) + ": its rail would change");
    if (n.groups != d.groups) add(quote(d.name) + ": its groups would change");
    std::unordered_map<std::string_view, const DesignedPort*> ports;
    for (const DesignedPort& p : n.ports) ports.emplace(p.name, &p);
    for (const DesignedPort& p : d.ports) {
      const auto q = ports.find(p.name);
      if (q == ports.end()) add(quote(d.name + ":" + p.name) + " would be gone");
      else if (q->second->speed != p.speed || q->second->rdma_device != p.rdma_device || q->second->rail != p.rail)
        add(quote(d.name + ":" + p.name) + " would change");
    }
  }
  std::unordered_set<std::string> links;
  for (const DesignedLink& l : after.links)
    links.insert(l.a + " " + l.b + " " + l.speed + " " + std::to_string(l.length_m));
  for (const DesignedLink& l : before.links)
    if (!links.contains(l.a + " " + l.b + " " + l.speed + " " + std::to_string(l.length_m)))
      add("the cable " + l.a + " - " + l.b + " would be moved or changed");
  return out;
}

}  // namespace fabricctl::design
