#include "platform/platform.h"

#include <stdexcept>

namespace fabricctl {

// The platform table: one row per platform, each built by its platform (<platform>/adapter.cpp).
const std::vector<PlatformAdapter>& platforms() {
  static const std::vector<PlatformAdapter> table = {sonic_adapter(), eos_adapter(),  nvue_adapter(),
                                                     linux_adapter(), nxos_adapter(), junos_adapter()};
  return table;
}

const PlatformAdapter& adapter(Platform p) {
  for (const PlatformAdapter& a : platforms())
    if (a.traits.platform == p) return a;
  throw std::logic_error("no adapter for platform");
}

const PlatformAdapter* find_platform(std::string_view name) {
  const std::optional<Platform> p = parse_platform(name);
  return p ? &adapter(*p) : nullptr;
}

const PlatformTraits& traits(Platform p) { return adapter(p).traits; }

const PlatformTraits* find_traits(std::string_view name) {
  const PlatformAdapter* a = find_platform(name);
  return a ? &a->traits : nullptr;
}

const std::vector<const PlatformTraits*>& all_traits() {
  static const std::vector<const PlatformTraits*> all = [] {
    std::vector<const PlatformTraits*> out;
    for (const PlatformAdapter& a : platforms()) out.push_back(&a.traits);
    return out;
  }();
  return all;
}

Document document_of(const PlatformAdapter& a, const DeviceDesired& device) {
  return a.document ? a.document(device) : Document();
}

std::string fix_text(const Fix& fix) { return adapter(fix.device->platform).fix(fix); }

nlohmann::json common_context(const DeviceDesired& device) {
  nlohmann::json c;
  c["device"] = device.name;
  c["profile"] = device.profile;
  c["platform"] = std::string(to_string(device.platform));
  return c;
}

void mark_last(nlohmann::json& array) {
  for (size_t i = 0; i < array.size(); ++i) array[i]["last"] = (i + 1 == array.size());
}

}  // namespace fabricctl
