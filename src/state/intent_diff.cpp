#include "state/intent_diff.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "state/observed.h"
#include "state/snapshot.h"
#include "util/text.h"

namespace fabricctl {

namespace {

using ordered = nlohmann::ordered_json;
using Flat = std::vector<std::pair<std::string, std::string>>;  // key -> value as JSON text, in order

// What a device reports about itself rather than what the intent sets: not part of a change.
bool observed_only(const std::string& key) {
  return key == "schema" || key == "source" || key == "oper_status" || key == "lldp" || key == "device" ||
         key == "ports";
}

/// The key of a list element: objects with a "tc" (ECN, ETS) are keyed by it, so that a new queue
/// is one change, not a shift of every later element; other elements by index.
std::string element_key(const ordered& e, size_t i) {
  if (e.is_object() && e.contains("tc")) return "[tc=" + e["tc"].dump() + "]";
  return "[" + std::to_string(i) + "]";
}

void flatten(const ordered& v, const std::string& key, Flat& out) {
  if (v.is_object()) {
    for (const auto& [k, sub] : v.items()) flatten(sub, key.empty() ? k : key + "." + k, out);
  } else if (v.is_array() && !v.empty() && (v.size() >= 8 || v.front().is_object())) {
    // Long maps (DSCP -> priority) element by element; short lists of values (PFC priorities) whole.
    for (size_t i = 0; i < v.size(); ++i) flatten(v[i], key + element_key(v[i], i), out);
  } else {
    out.emplace_back(key, v.dump());
  }
}

struct DeviceView {
  Flat device;                                      // device-level values
  std::vector<std::pair<std::string, Flat>> ports;  // natural order
};

DeviceView view(const DeviceDesired& d) {
  DeviceView out;
  const ordered snap = ordered::parse(write_snapshot(observed_from_desired(d)));
  out.device.emplace_back("platform", ordered(std::string(to_string(d.platform))).dump());
  out.device.emplace_back("role", ordered(std::string(to_string(d.role))).dump());
  out.device.emplace_back("profile", ordered(d.profile).dump());
  for (const auto& [k, v] : snap.items())
    if (!observed_only(k)) flatten(v, k, out.device);
  const ordered& ports = snap.contains("ports") ? snap["ports"] : ordered::object();
  for (const PortDesired& p : d.ports) {
    Flat f;
    if (ports.contains(p.name))
      for (const auto& [k, v] : ports[p.name].items())
        if (!observed_only(k)) flatten(v, k, f);
    // Intent that shapes the configuration but is not observable state.
    f.emplace_back("cable_length_m", std::to_string(p.cable_length_m));
    f.emplace_back("headroom_bytes", std::to_string(p.headroom_bytes));
    f.emplace_back("peer", p.peer_device.empty() ? "null" : ordered(p.peer_device + ":" + p.peer_port).dump());
    out.ports.emplace_back(p.name, std::move(f));
  }
  return out;
}

void compare(const std::string& device, const std::string& port, const Flat& a, const Flat& b,
             std::vector<IntentChange>& out) {
  std::map<std::string, const std::string*> in_b;
  for (const auto& [k, v] : b) in_b[k] = &v;
  std::map<std::string, bool> in_a;
  for (const auto& [k, v] : a) {
    in_a[k] = true;
    const auto it = in_b.find(k);
    if (it == in_b.end()) out.push_back({device, port, k, v, ""});
    else if (*it->second != v) out.push_back({device, port, k, v, *it->second});
  }
  for (const auto& [k, v] : b)
    if (!in_a.count(k)) out.push_back({device, port, k, "", v});
}

}  // namespace

std::vector<IntentChange> intent_changes(const FabricDesired& base, const FabricDesired& head) {
  std::map<std::string, const DeviceDesired*, NaturalLess> devices_a, devices_b;
  for (const DeviceDesired& d : base.devices) devices_a[d.name] = &d;
  for (const DeviceDesired& d : head.devices) devices_b[d.name] = &d;
  std::map<std::string, std::pair<const DeviceDesired*, const DeviceDesired*>, NaturalLess> all;
  for (const auto& [n, d] : devices_a) all[n].first = d;
  for (const auto& [n, d] : devices_b) all[n].second = d;
  std::vector<IntentChange> out;
  for (const auto& [name, pair] : all) {
    const auto [a, b] = pair;
    if (!a || !b) {
      out.push_back({name, "", "", a ? "device" : "", b ? "device" : ""});
      continue;
    }
    const DeviceView va = view(*a), vb = view(*b);
    compare(name, "", va.device, vb.device, out);
    std::map<std::string, std::pair<const Flat*, const Flat*>, NaturalLess> ports;
    for (const auto& [p, f] : va.ports) ports[p].first = &f;
    for (const auto& [p, f] : vb.ports) ports[p].second = &f;
    for (const auto& [p, fp] : ports) {
      if (!fp.first || !fp.second) out.push_back({name, p, "", fp.first ? "port" : "", fp.second ? "port" : ""});
      else compare(name, p, *fp.first, *fp.second, out);
    }
  }
  return out;
}

std::vector<ChangeGroup> group_changes(const std::vector<IntentChange>& changes) {
  std::vector<ChangeGroup> groups;
  std::map<std::tuple<std::string, std::string, std::string, bool>, size_t> index;
  for (const IntentChange& c : changes) {
    // A device or port that comes or goes is its own line; a value change is grouped.
    const bool whole = c.key.empty();
    const bool ports = !c.port.empty();
    if (whole) {
      ChangeGroup g{"", c.before, c.after, ports, {ports ? c.device + ":" + c.port : c.device}, 1};
      groups.push_back(std::move(g));
      continue;
    }
    const auto [it, added] = index.try_emplace({c.key, c.before, c.after, ports}, groups.size());
    if (added) groups.push_back(ChangeGroup{c.key, c.before, c.after, ports, {}, 0});
    ChangeGroup& g = groups[it->second];
    if (g.devices.empty() || g.devices.back() != c.device) g.devices.push_back(c.device);
    ++g.count;
  }
  return groups;
}

std::string fold_names(const std::vector<std::string>& names) {
  // Split "leaf12" into ("leaf", 12); a run of the same stem with consecutive numbers folds.
  auto split = [](const std::string& n) -> std::pair<std::string, long> {
    size_t i = n.size();
    while (i > 0 && n[i - 1] >= '0' && n[i - 1] <= '9') --i;
    if (i == n.size() || n.size() - i > 9 || (n[i] == '0' && i + 1 < n.size())) return {n, -1};
    return {n.substr(0, i), std::stol(n.substr(i))};
  };
  std::string out;
  for (size_t i = 0; i < names.size();) {
    const auto [stem, num] = split(names[i]);
    size_t j = i + 1;
    while (num >= 0 && j < names.size()) {
      const auto [s2, n2] = split(names[j]);
      if (s2 != stem || n2 != num + static_cast<long>(j - i)) break;
      ++j;
    }
    if (!out.empty()) out += ", ";
    out +=
        j - i >= 2 ? stem + std::to_string(num) + "-" + std::to_string(num + static_cast<long>(j - i - 1)) : names[i];
    i = j;
  }
  return out;
}

std::string describe(const ChangeGroup& g) {
  if (g.key.empty()) {
    const std::string what = g.ports ? "port " : "device ";
    return (g.after.empty() ? "- " : "+ ") + what + g.devices.front();
  }
  const std::string from = g.before.empty() ? "(unset)" : g.before;
  const std::string to = g.after.empty() ? "(unset)" : g.after;
  std::string s = g.key + " " + from + " -> " + to + " on " + fold_names(g.devices);
  if (g.ports) s += ": " + std::to_string(g.count) + (g.count == 1 ? " port" : " ports");
  return s;
}

}  // namespace fabricctl
