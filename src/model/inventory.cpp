#include "model/inventory.h"

#include <algorithm>
#include <iterator>
#include <span>
#include <unordered_set>

#include "util/parallel.h"
#include "util/text.h"

namespace fabricctl {
namespace {

/// The platform aliases of the platform table, as spelling suggestions.
std::span<const SpellAlias> platform_aliases() {
  static const std::vector<SpellAlias> aliases = [] {
    std::vector<SpellAlias> out;
    out.reserve(kPlatformAliases.size());
    for (const PlatformAlias& a : kPlatformAliases) out.push_back({a.alias, to_string(a.id)});
    return out;
  }();
  return aliases;
}

/// Records that `defaults` is set at `loc`; false, reported, when another key or file set it first.
bool claim_defaults(Inventory& inv, const Loc& loc, Diags& diags) {
  if (inv.defaults_loc.file) {
    diags.error(loc, "defaults: already set at " + inv.defaults_loc.str());
    return false;
  }
  inv.defaults_loc = loc;
  return true;
}

Field<int64_t> read_speed(const Reader& r, const YamlNode& n, const std::string& what) {
  Field<int64_t> f;
  f.loc = r.loc(n);
  const Field<std::string> s = r.string(n, what);
  if (!s.has()) return f;
  f.value = parse_speed(*s);
  if (!f.value) r.error(n, what + ": " + quote(*s) + " is not a link speed such as \"100G\" or \"400G\"");
  return f;
}

MgmtSpec read_mgmt(const Reader& r, const YamlNode& n, const std::string& where) {
  MgmtSpec m;
  const std::vector<std::string_view> keys = {"address", "port",         "user",     "key",
                                              "agent",   "password_env", "host_key", "fabricctl"};
  if (!r.check_map(n, where, keys)) return m;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    const std::string what = key_path(where, k);
    if (k == "address") m.address = r.string(kv.value, what);
    if (k == "port") m.port = r.integer(kv.value, what, 1, 65535);
    if (k == "user") m.user = r.string(kv.value, what);
    if (k == "key") m.key = r.string(kv.value, what);
    if (k == "agent") m.agent = r.boolean(kv.value, what);
    if (k == "password_env") m.password_env = r.string(kv.value, what);
    if (k == "host_key") m.host_key = r.string(kv.value, what);
    if (k == "fabricctl") m.fabricctl = r.string(kv.value, what);
  }
  return m;
}

/// The platform whose inventory mapping `key` is (`sonic`, `eos`), or nullptr: a platform with keys of its own.
const PlatformTraits* hardware_platform(std::string_view key) {
  const PlatformTraits* t = find_traits(key);
  return t != nullptr && !t->inventory_keys.empty() ? t : nullptr;
}

/// The keys a mapping of defaults, a group or a device may hold: `before`, every platform's mapping, `after`.
std::vector<std::string_view> with_hardware_keys(std::vector<std::string_view> before,
                                                 const std::vector<std::string_view>& after = {}) {
  for (const PlatformTraits* t : all_traits())
    if (!t->inventory_keys.empty()) before.push_back(t->name());
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

/// Reads a platform's mapping (`sonic:`, `eos:`) into `h`: the keys and values its traits declare.
void read_hardware(const Reader& r, const YamlEntry& kv, const std::string& where, const PlatformTraits& t,
                   HardwareSpec& h) {
  const std::string what = key_path(where, t.name());
  HardwareMapping& m = h.mappings[t.platform];
  m.loc = r.loc(kv.key);
  std::vector<std::string_view> names;
  for (const InventoryKey& k : t.inventory_keys) names.push_back(k.name);
  if (!r.check_map(kv.value, what, names)) return;
  for (const YamlEntry& e : kv.value.entries()) {
    const std::string_view name = e.key.scalar();
    const auto key = std::find_if(t.inventory_keys.begin(), t.inventory_keys.end(),
                                  [&](const InventoryKey& k) { return k.name == name; });
    if (key == t.inventory_keys.end()) continue;
    Field<HardwareValue>& value = m.values[std::string(name)];
    if (!key->choices.empty()) {
      const Field<std::string> word = r.choice(e.value, key_path(what, name), key->choices);
      value = word.has() ? Field<HardwareValue>{*word, word.loc} : Field<HardwareValue>{};
      continue;
    }
    if (key->single) {
      const Field<int64_t> one = r.integer(e.value, key_path(what, name), key->min, key->max);
      value =
          one.has() ? Field<HardwareValue>{std::vector<int>{static_cast<int>(*one)}, one.loc} : Field<HardwareValue>{};
      continue;
    }
    Field<std::vector<int>> list = r.int_list(e.value, key_path(what, name), key->min, key->max);
    if (list.has() && list->empty()) {
      r.error(e.value, key_path(what, name) + ": needs at least one " + std::string(key->list_what));
      list.value.reset();
    }
    if (list.has()) std::sort(list.value->begin(), list.value->end());
    value = list.has() ? Field<HardwareValue>{*list, list.loc} : Field<HardwareValue>{};
  }
}

ProfileLayer read_overrides(const Reader& r, const YamlNode& n, LayerScope scope) { return read_layer(r, n, scope); }

void read_ports(const Reader& r, const YamlNode& n, DeviceSpec& d, const std::string& where) {
  if (!r.check_free_map(n, where)) return;
  for (const YamlEntry& kv : n.entries()) {
    PortSpec p;
    p.name = r.string(kv.key, where);
    const std::string pw = key_path(where, kv.key.scalar());
    if (kv.value.is_null()) {  // "Ethernet0:" with nothing else is a port with defaults
      d.ports.push_back(std::move(p));
      continue;
    }
    if (!r.check_map(kv.value, pw, {"speed", "rdma_device", "rdma_port", "rail", "description", "overrides"})) continue;
    for (const YamlEntry& pkv : kv.value.entries()) {
      const std::string_view k = pkv.key.scalar();
      const std::string what = key_path(pw, k);
      if (k == "speed") p.speed_mbps = read_speed(r, pkv.value, what);
      if (k == "rdma_device") p.rdma_device = r.string(pkv.value, what);
      if (k == "rdma_port") p.rdma_port = r.integer(pkv.value, what, 1, 2);
      if (k == "rail") p.rail = r.integer(pkv.value, what, 0, 63);
      if (k == "description") p.description = r.string(pkv.value, what);
      if (k == "overrides")
        p.overrides = std::make_shared<const ProfileLayer>(read_overrides(r, pkv.value, LayerScope::port));
    }
    d.ports.push_back(std::move(p));
  }
}

void read_device_spec(const Reader& r, const YamlNode& key, const YamlNode& n, Inventory& inv) {
  DeviceSpec d;
  d.name = r.string(key, "devices");
  const std::string where = key_path("devices", key.scalar());
  static const std::vector<std::string_view> keys =
      with_hardware_keys({"role", "platform", "profile", "mgmt", "groups", "rail"}, {"overrides", "ports"});
  if (!r.check_map(n, where, keys)) {
    inv.devices.push_back(std::move(d));
    return;
  }
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    const std::string what = key_path(where, k);
    if (k == "role") d.role = r.choice(kv.value, what, {"host", "switch"});
    if (k == "platform") d.platform = r.choice(kv.value, what, platform_names(), platform_aliases());
    if (k == "profile") d.profile = r.string(kv.value, what);
    if (k == "mgmt") d.mgmt = read_mgmt(r, kv.value, what);
    if (k == "groups") d.groups = r.string_list(kv.value, what);
    if (k == "rail") d.rail = r.integer(kv.value, what, 0, 63);
    if (const PlatformTraits* t = hardware_platform(k)) read_hardware(r, kv, where, *t, d.hardware);
    if (k == "overrides") d.overrides = read_overrides(r, kv.value, LayerScope::overrides);
    if (k == "ports") read_ports(r, kv.value, d, what);
  }
  if (!d.role.has() && !n["role"]) r.error(key, where + ": missing \"role\" (host or switch)");
  if (!d.platform.has() && !n["platform"])
    r.error(key, where + ": missing \"platform\" (" + std::string(platform_choices()) + ")");
  inv.devices.push_back(std::move(d));
}

/// Reads one device. A device with any error in its definition is failed (device_entity): a link
/// to a port it failed to define is not an error of its own.
void read_device(const Reader& r, const YamlNode& key, const YamlNode& n, Inventory& inv) {
  const size_t before = r.diags().size();
  read_device_spec(r, key, n, inv);
  if (r.diags().size() != before && key.is_scalar()) r.diags().fail(device_entity(key.scalar()));
}

void read_group(const Reader& r, const YamlNode& key, const YamlNode& n, Inventory& inv) {
  const size_t before = r.diags().size();
  GroupSpec g;
  g.name = r.string(key, "groups");
  const std::string where = key_path("groups", key.scalar());
  static const std::vector<std::string_view> keys = with_hardware_keys({"description", "profile"}, {"overrides"});
  if (!n.is_null() && r.check_map(n, where, keys)) {
    for (const YamlEntry& kv : n.entries()) {
      const std::string_view k = kv.key.scalar();
      if (k == "description") g.description = r.string(kv.value, key_path(where, k));
      if (k == "profile") g.profile = r.string(kv.value, key_path(where, k));
      if (const PlatformTraits* t = hardware_platform(k)) read_hardware(r, kv, where, *t, g.hardware);
      if (k == "overrides") g.overrides = read_overrides(r, kv.value, LayerScope::overrides);
    }
  }
  if (r.diags().size() != before && key.is_scalar()) r.diags().fail(group_entity(key.scalar()));
  inv.groups.push_back(std::move(g));
}

void read_link(const Reader& r, const YamlNode& n, Inventory& inv) {
  LinkSpec l;
  l.loc = r.loc(n);
  if (!r.check_map(n, "link", {"a", "b", "speed", "cable_length_m"})) return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    const std::string what = "link." + std::string(k);
    if (k == "a") l.a = r.string(kv.value, what);
    if (k == "b") l.b = r.string(kv.value, what);
    if (k == "speed") l.speed_mbps = read_speed(r, kv.value, what);
    if (k == "cable_length_m") l.cable_length_m = r.integer(kv.value, what, 0, 10000);
  }
  if (!n["a"] || !n["b"]) {
    r.error(n, "link: needs both ends, \"a\" and \"b\" (device:port)");
    return;
  }
  inv.links.push_back(std::move(l));
}

}  // namespace

std::string device_entity(std::string_view name) { return "device:" + std::string(name); }
std::string group_entity(std::string_view name) { return "group:" + std::string(name); }

void MgmtSpec::merge(const MgmtSpec& later) {
  address.override_with(later.address);
  port.override_with(later.port);
  user.override_with(later.user);
  // Authentication is one choice: a layer that names any method replaces all of them.
  if (later.key.has() || later.agent.has() || later.password_env.has()) {
    key = later.key;
    agent = later.agent;
    password_env = later.password_env;
  }
  host_key.override_with(later.host_key);
  fabricctl.override_with(later.fabricctl);
}

void HardwareSpec::merge(const HardwareSpec& later) {
  for (const auto& [platform, m] : later.mappings) {
    HardwareMapping& mine = mappings[platform];
    mine.loc = m.loc;
    for (const auto& [key, value] : m.values) mine.values[key].override_with(value);
  }
}

std::optional<int64_t> parse_speed(std::string_view s) {
  if (s.size() < 2) return std::nullopt;
  const char unit = s.back();
  const std::optional<int64_t> n = parse_int(s.substr(0, s.size() - 1));
  if (!n || *n <= 0 || *n > 1600000) return std::nullopt;
  if (unit == 'G' && *n <= 1600) return *n * 1000;
  if (unit == 'M') return *n;
  return std::nullopt;
}

std::string format_speed(int64_t mbps) {
  if (mbps % 1000 == 0) return std::to_string(mbps / 1000) + "G";
  return std::to_string(mbps) + "M";
}

void read_inventory_doc(const YamlDoc& doc, Inventory& inv, Diags& diags) {
  Reader r(doc.file, diags);
  if (doc.root.is_null()) return;  // an empty file adds nothing
  // An unknown top-level key ("linkz") is a section lost: what it held is unknown.
  const size_t before = diags.size();
  const bool readable = r.check_map(doc.root, "inventory", {"defaults", "groups", "devices", "links"});
  if (diags.size() != before) diags.fail(std::string(kInventoryIncomplete));
  if (!readable) return;
  for (const YamlEntry& kv : doc.root.entries()) {
    const std::string_view k = kv.key.scalar();
    const YamlNode& v = kv.value;
    if (k == "defaults") {
      if (!claim_defaults(inv, r.loc(kv.key), diags)) continue;
      static const std::vector<std::string_view> keys = with_hardware_keys({"profile", "mgmt"});
      if (!r.check_map(v, "defaults", keys)) continue;
      for (const YamlEntry& dkv : v.entries()) {
        const std::string_view dk = dkv.key.scalar();
        if (dk == "profile") inv.default_profile = r.string(dkv.value, "defaults.profile");
        if (dk == "mgmt") inv.default_mgmt = read_mgmt(r, dkv.value, "defaults.mgmt");
        if (const PlatformTraits* t = hardware_platform(dk))
          read_hardware(r, dkv, "defaults", *t, inv.default_hardware);
      }
    } else if (k == "groups") {
      if (!r.check_free_map(v, "groups")) {
        diags.fail(std::string(kInventoryIncomplete));
        continue;
      }
      for (const YamlEntry& g : v.entries()) read_group(r, g.key, g.value, inv);
    } else if (k == "devices") {
      if (!r.check_free_map(v, "devices")) {
        diags.fail(std::string(kInventoryIncomplete));
        continue;
      }
      // A name defined twice in one file: the later definition wins (check_free_map reported it),
      // so links to the ports of the earlier one would only repeat that error.
      std::unordered_set<std::string_view> seen;
      for (const YamlEntry& d : v.entries()) {
        if (d.key.is_scalar() && !seen.insert(d.key.scalar()).second) diags.fail(device_entity(d.key.scalar()));
        read_device(r, d.key, d.value, inv);
      }
    } else if (k == "links") {
      if (!v.is_sequence()) {
        r.error(v, "links: expected a list of links");
        diags.fail(std::string(kInventoryIncomplete));
        continue;
      }
      for (const YamlNode& l : v.items()) read_link(r, l, inv);
    }
  }
}

std::optional<Inventory> load_inventory(const std::filesystem::path& path, Diags& diags) {
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  const auto status = std::filesystem::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    // A symlink loop or a permission problem: say which, about the path the user gave.
    diags.error({std::make_shared<const std::string>(path.string()), 0, 0},
                "cannot read: " + printable(ec.message(), 200), DiagClass::read);
    return std::nullopt;
  }
  if (std::filesystem::is_directory(status)) {
    auto listed = yaml_files_in(path, diags);
    if (!listed) return std::nullopt;
    files = std::move(*listed);
    if (files.empty()) {
      diags.error({std::make_shared<const std::string>(path.string()), 0, 0}, "no inventory files (*.yaml) here",
                  DiagClass::read);
      return std::nullopt;
    }
  } else if (std::filesystem::is_regular_file(status)) {
    files.push_back(path);
  } else {
    diags.error({std::make_shared<const std::string>(path.string()), 0, 0}, "no such inventory file or directory",
                DiagClass::read);
    return std::nullopt;
  }
  // Files are parsed and read side by side (a large fabric spreads over several: devices, links),
  // each into an inventory of its own; they add up in file order, so messages and the order of
  // devices and links do not depend on which thread finished first.
  std::vector<Inventory> parts(files.size());
  std::vector<Diags> part_diags(files.size());
  parallel_for(files.size(), worker_count(files.size(), 8, 1), [&](size_t, size_t i) {
    if (auto doc = load_yaml(files[i], files[i].string(), part_diags[i]))
      read_inventory_doc(*doc, parts[i], part_diags[i]);
    else part_diags[i].fail(std::string(kInventoryIncomplete));  // what it defined is unknown: say so once
  });
  Inventory inv;
  for (size_t i = 0; i < files.size(); ++i) {
    diags.append(std::move(part_diags[i]));
    Inventory& part = parts[i];
    if (part.defaults_loc.file && claim_defaults(inv, part.defaults_loc, diags)) {
      inv.default_profile = std::move(part.default_profile);
      inv.default_mgmt = std::move(part.default_mgmt);
      inv.default_hardware = std::move(part.default_hardware);
    }
    inv.groups.insert(inv.groups.end(), std::make_move_iterator(part.groups.begin()),
                      std::make_move_iterator(part.groups.end()));
    inv.devices.insert(inv.devices.end(), std::make_move_iterator(part.devices.begin()),
                       std::make_move_iterator(part.devices.end()));
    inv.links.insert(inv.links.end(), std::make_move_iterator(part.links.begin()),
                     std::make_move_iterator(part.links.end()));
  }
  return inv;
}

}  // namespace fabricctl
