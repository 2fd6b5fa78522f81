#include "ops/shard.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <vector>

#include "ops/waves.h"
#include "util/escape.h"
#include "util/text.h"

namespace fabricctl::ops {

namespace {

bool whole_number(std::string_view s, size_t& n) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Expected<Shard> parse_shard(std::string_view text) {
  const size_t slash = text.find('/');
  Shard s;
  if (slash != std::string_view::npos && whole_number(text.substr(0, slash), s.index) &&
      whole_number(text.substr(slash + 1), s.count) && s.count >= 1 && s.count <= 10000 && s.index < s.count)
    return s;
  return unexpected("--shard takes K/N, K from 0 to N-1 and N from 1 to 10000 (e.g. 0/4), not '" +
                    terminal_line(std::string(text.substr(0, 64))) + "'");
}

std::set<std::string> shard_devices(const FabricDesired& desired, Shard s, const std::set<std::string>* among) {
  // The devices in natural order; the units in the order of their first device.
  std::vector<const DeviceDesired*> devices;
  for (const DeviceDesired& d : desired.devices)
    if (among == nullptr || among->count(d.name) > 0) devices.push_back(&d);
  std::sort(devices.begin(), devices.end(),
            [](const DeviceDesired* a, const DeviceDesired* b) { return natural_less(a->name, b->name); });
  std::map<std::string, size_t> position;
  std::vector<std::vector<const std::string*>> units;
  for (const DeviceDesired* d : devices) {
    const auto [it, added] = position.emplace(unit_key(*d, WaveUnit::rail), units.size());
    if (added) units.emplace_back();
    units[it->second].push_back(&d->name);
  }
  // Shard k holds the devices whose place in that order is in [k*total/N, (k+1)*total/N), whole units
  // moved to the shard their first device falls in, unless the unit is larger than a shard.
  const size_t total = devices.size();
  const size_t share = (total + s.count - 1) / s.count;
  std::set<std::string> out;
  size_t at = 0;
  for (const auto& unit : units) {
    for (size_t i = 0; i < unit.size(); ++i) {
      const size_t place = unit.size() <= share ? at : at + i;
      if (place * s.count / std::max<size_t>(1, total) == s.index) out.insert(*unit[i]);
    }
    at += unit.size();
  }
  return out;
}

}  // namespace fabricctl::ops
