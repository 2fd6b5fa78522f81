#include "ops/waves.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <queue>

#include "util/escape.h"

namespace fabricctl::ops {

size_t Batch::size(size_t changing) const {
  if (devices > 0) return devices;
  if (percent > 0) return std::max<size_t>(1, (changing * static_cast<size_t>(percent) + 99) / 100);
  return 0;
}

std::string Batch::text() const {
  if (devices > 0) return std::to_string(devices);
  return percent > 0 ? std::to_string(percent) + "%" : std::string();
}

Expected<Batch> parse_batch(std::string_view text) {
  const bool percent = text.ends_with('%');
  const std::string_view digits = percent ? text.substr(0, text.size() - 1) : text;
  long long n = -1;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  const bool number = ec == std::errc() && end == digits.data() + digits.size() && !digits.empty();
  Batch b;
  if (percent && number && n >= 1 && n <= 100) {
    b.percent = static_cast<int>(n);
    return b;
  }
  if (!percent && number && n >= 1 && n <= 1000000) {
    b.devices = static_cast<size_t>(n);
    return b;
  }
  return unexpected("--batch takes a number of devices (1 or more) or a percentage (1%-100%), not '" +
                    terminal_line(std::string(text.substr(0, 64))) + "'");
}

Expected<WaveUnit> parse_wave_unit(std::string_view text) {
  if (text == "link") return WaveUnit::link;
  if (text == "rail") return WaveUnit::rail;
  if (text == "group") return WaveUnit::group;
  return unexpected("--by takes link, rail or group, not '" + terminal_line(std::string(text.substr(0, 64))) + "'");
}

std::string_view to_string(WaveUnit u) {
  switch (u) {
    case WaveUnit::link: return "link";
    case WaveUnit::rail: return "rail";
    case WaveUnit::group: return "group";
  }
  return "?";
}

std::string unit_key(const DeviceDesired& d, WaveUnit by) {
  if (by == WaveUnit::rail && d.rail) return "rail " + std::to_string(*d.rail);
  if (by != WaveUnit::link && !d.groups.empty()) return "group " + d.groups.front();
  return "device " + d.name;
}

namespace {

/// The changing devices in units, each unit in plan order, the units in the order of their first device.
std::vector<std::vector<size_t>> units_of(const FabricDesired& desired, const std::vector<size_t>& changing,
                                          const std::vector<std::string>& names, WaveUnit unit) {
  std::map<std::string, const DeviceDesired*, std::less<>> by_name;
  for (const DeviceDesired& d : desired.devices) by_name.emplace(d.name, &d);
  std::vector<std::vector<size_t>> units;
  if (unit != WaveUnit::link) {
    std::map<std::string, size_t> unit_of;  // key -> position in units
    for (size_t at : changing) {
      const auto d = by_name.find(names[at]);
      const std::string key = d != by_name.end() ? unit_key(*d->second, unit) : "device " + names[at];
      const auto [it, added] = unit_of.emplace(key, units.size());
      if (added) units.emplace_back();
      units[it->second].push_back(at);
    }
    return units;
  }
  // One device a unit, in the order a breadth-first walk of the links between changing devices visits
  // them, from the first not yet visited in plan order, each device's far ends in plan order.
  std::map<std::string, size_t, std::less<>> position;  // name -> index in `changing`
  for (size_t k = 0; k < changing.size(); ++k) position.emplace(names[changing[k]], k);
  std::vector<char> seen(changing.size(), 0);
  for (size_t start = 0; start < changing.size(); ++start) {
    if (seen[start]) continue;
    std::queue<size_t> next;
    next.push(start);
    seen[start] = 1;
    while (!next.empty()) {
      const size_t k = next.front();
      next.pop();
      units.push_back({changing[k]});
      const auto d = by_name.find(names[changing[k]]);
      if (d == by_name.end()) continue;
      std::vector<size_t> far;
      for (const PortDesired& p : d->second->ports)
        if (const auto f = position.find(p.peer_device); f != position.end() && !seen[f->second])
          far.push_back(f->second);
      std::sort(far.begin(), far.end());
      far.erase(std::unique(far.begin(), far.end()), far.end());
      for (size_t f : far) {
        seen[f] = 1;
        next.push(f);
      }
    }
  }
  return units;
}

}  // namespace

std::vector<Wave> plan_waves(const FabricDesired& desired, const std::vector<size_t>& changing,
                             const std::vector<std::string>& names, size_t canary, Batch batch, WaveUnit unit) {
  std::vector<Wave> waves;
  if (changing.empty()) return waves;
  const size_t size = batch.size(changing.size());
  // Without waves the order is the plan's, as it always was; with them, the units'.
  std::vector<std::vector<size_t>> units;
  if (size == 0 && unit == WaveUnit::link) {
    for (size_t at : changing) units.push_back({at});
  } else {
    units = units_of(desired, changing, names, unit);
  }
  std::vector<size_t> order;
  for (const auto& u : units) order.insert(order.end(), u.begin(), u.end());
  if (canary > 0 && canary < order.size()) {
    waves.push_back({"canary", {order.begin(), order.begin() + static_cast<std::ptrdiff_t>(canary)}});
    // What the canary took of a unit is gone from it; the unit's rest stays together.
    size_t taken = canary;
    for (auto& u : units) {
      const size_t n = std::min(taken, u.size());
      u.erase(u.begin(), u.begin() + static_cast<std::ptrdiff_t>(n));
      taken -= n;
    }
    std::erase_if(units, [](const std::vector<size_t>& u) { return u.empty(); });
  }
  const std::string single = waves.empty() ? "apply" : "rest";
  std::vector<Wave> rest;
  for (const auto& u : units) {
    if (rest.empty() || (size > 0 && rest.back().devices.size() + u.size() > size)) rest.push_back({"", {}});
    rest.back().devices.insert(rest.back().devices.end(), u.begin(), u.end());
  }
  for (size_t w = 0; w < rest.size(); ++w)
    rest[w].label = rest.size() == 1 ? single : "wave " + std::to_string(w + 1) + "/" + std::to_string(rest.size());
  waves.insert(waves.end(), rest.begin(), rest.end());
  return waves;
}

}  // namespace fabricctl::ops
