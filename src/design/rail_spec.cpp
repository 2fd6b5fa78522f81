#include "design/rail_spec.h"

#include <arpa/inet.h>

#include "model/inventory.h"
#include "model/name_rules.h"
#include "platform/traits.h"

namespace fabricctl::design {

namespace {

/// The fields each tier's patterns may use; an address pattern may use {name} too.
const std::vector<Placeholder> kHostFields = {Placeholder::pod, Placeholder::host, Placeholder::pod_host};
const std::vector<Placeholder> kLeafFields = {Placeholder::pod, Placeholder::rail};
const std::vector<Placeholder> kSpineFields = {Placeholder::spine};

std::vector<Placeholder> with_name(std::vector<Placeholder> fields) {
  fields.push_back(Placeholder::name);
  return fields;
}

bool is_ip(std::string_view s) {
  const std::string text(s);
  unsigned char buf[16];
  return ::inet_pton(AF_INET, text.c_str(), buf) == 1 || ::inet_pton(AF_INET6, text.c_str(), buf) == 1;
}

class SpecReader {
 public:
  SpecReader(const YamlDoc& doc, Diags& diags) : r_(doc.file, diags) {}

  void tier(const YamlNode& n, std::string_view where, const std::vector<Placeholder>& fields, Tier& t,
            std::vector<std::string_view> keys) {
    t.loc = r_.loc(n);
    for (std::string_view k : {"name", "groups", "address", "platforms", "ports"}) keys.push_back(k);
    if (!n.is_map()) {
      r_.error(n, std::string(where) + ": expected a mapping");
      return;
    }
    r_.check_map(n, where, keys);
    const std::string w(where);
    if (const YamlNode& name = n["name"]; !name) {
      r_.error(n, w + ": name is required (a pattern such as " + example_name(where) + ")");
    } else if (Field<std::string> text = r_.string(name, w + ".name"); text.has()) {
      t.name_loc = text.loc;
      auto parsed = parse_name_template(*text, fields);
      if (!parsed) r_.error(name, w + ".name: " + parsed.error());
      else t.name = std::move(parsed.value());
    }
    t.groups = list(n["groups"], w + ".groups");
    for (const Field<std::string>& g : t.groups)
      if (g.has() && !is_device_name(*g)) r_.diags().error(g.loc, w + ".groups: " + quote(*g) + " is not a group name");
    t.platforms = list(n["platforms"], w + ".platforms");
    for (const Field<std::string>& p : t.platforms) {
      if (!p.has()) continue;
      const PlatformTraits* traits = find_traits(*p);
      const Role want = role_;
      if (traits == nullptr) r_.diags().error(p.loc, w + ".platforms: unknown platform " + quote(*p));
      else if (traits->role != want)
        r_.diags().error(
            p.loc, w + ".platforms: " + quote(*p) + " is a " + std::string(to_string(traits->role)) + " platform");
      else if (traits->nth_port == nullptr && !n["ports"])
        r_.diags().error(
            p.loc, w + ".platforms: fabricctl does not number " + quote(*p) + "'s ports: list them in " + w + ".ports");
    }
    if (const YamlNode& ports = n["ports"]; ports.is_scalar() && ports.scalar().find('{') != std::string_view::npos) {
      auto parsed = parse_name_template(ports.scalar(), {Placeholder::port, Placeholder::index});
      if (!parsed) r_.error(ports, w + ".ports: " + parsed.error());
      else t.port_pattern = std::move(parsed.value());
    } else {
      t.ports = list(ports, w + ".ports");
    }
    if (const YamlNode& a = n["address"]; a) {
      Field<std::string> text = r_.string(a, w + ".address");
      t.address.loc = text.loc;
      if (!text.has()) return;
      if (text->find('{') == std::string::npos) {
        if (!is_ip(*text))
          r_.error(a, w + ".address: " + quote(*text) +
                          " is neither an IP address (the first of a run) nor a pattern such as \"{name}.mgmt\"");
        else t.address.first = *text;
      } else if (auto parsed = parse_name_template(*text, with_name(fields)); !parsed) {
        r_.error(a, w + ".address: " + parsed.error());
      } else {
        t.address.pattern = std::move(parsed.value());
      }
    }
  }

  /// A list of strings, or one string as a list of one; absent: none.
  std::vector<Field<std::string>> list(const YamlNode& n, const std::string& what) {
    if (!n) return {};
    if (n.is_scalar()) return {r_.string(n, what)};
    return r_.string_list(n, what);
  }

  Field<int64_t> required_int(const YamlNode& parent, std::string_view key, std::string_view where, int64_t min,
                              int64_t max) {
    const YamlNode& n = parent[key];
    const std::string what = std::string(where) + "." + std::string(key);
    if (!n) {
      r_.error(parent, std::string(where) + ": " + std::string(key) + " is required");
      return {};
    }
    return r_.integer(n, what, min, max);
  }

  Field<int64_t> optional_int(const YamlNode& parent, std::string_view key, std::string_view where, int64_t min,
                              int64_t max) {
    const YamlNode& n = parent[key];
    if (!n) return {};
    return r_.integer(n, std::string(where) + "." + std::string(key), min, max);
  }

  /// `parent[key]`, a cable: its speed and length.
  Cable cable(const YamlNode& parent, std::string_view key, std::string_view where) {
    Cable c;
    const YamlNode& n = parent[key];
    if (!n) {
      r_.error(parent, std::string(where) + " is required ({speed: 400G, length_m: 3})");
      return c;
    }
    if (!r_.check_map(n, where, {"speed", "length_m"})) return c;
    const std::string w(where);
    if (!n["speed"]) {
      r_.error(n, w + ": speed is required (\"400G\")");
    } else {
      c.speed = r_.string(n["speed"], w + ".speed");
      if (c.speed.has()) {
        const auto mbps = parse_speed(*c.speed);
        if (!mbps)
          r_.error(n["speed"], w + ".speed: " + quote(*c.speed) + " is not a speed such as \"400G\" or \"2500M\"");
        else c.speed_mbps = *mbps;
      }
    }
    c.length_m = required_int(n, "length_m", where, 0, 10000);
    return c;
  }

  Reader& reader() { return r_; }
  void role(Role r) { role_ = r; }

 private:
  static std::string example_name(std::string_view where) {
    if (where == "hosts") return "\"p{pod:02}-gpu{pod_host:02}\"";
    if (where == "leaves") return "\"p{pod:02}-rail{rail}\"";
    return "\"spine{spine:02}\"";
  }
  Reader r_;
  Role role_ = Role::switch_;
};

}  // namespace

std::optional<RailSpec> read_rail_spec(const YamlDoc& doc, Diags& diags) {
  const size_t errors_before = diags.count(DiagSeverity::error);
  SpecReader s(doc, diags);
  Reader& r = s.reader();
  const YamlNode& root = doc.root;
  RailSpec spec;
  spec.doc = doc;
  if (!root.is_map()) {
    r.error(root, "design: expected a mapping with design, hosts, leaves, spines and cables");
    return std::nullopt;
  }
  r.check_map(root, "design",
              {"design", "description", "profile", "mgmt", "groups", "rails", "hosts", "leaves", "spines", "cables",
               "devices"});
  if (!root["design"]) r.error(root, "design: the kind is required (design: rail-optimized)");
  else r.choice(root["design"], "design", {"rail-optimized"});
  if (const YamlNode& d = root["description"]; d) {
    Field<std::string> text = r.string(d, "description");
    if (text.has()) spec.description = *text;
  }
  if (!root["profile"]) r.error(root, "design: profile is required (the profile every device of the fabric runs)");
  else spec.profile = r.string(root["profile"], "profile");
  if (spec.profile.has() && !is_profile_name(*spec.profile))
    r.error(root["profile"], "profile: " + quote(*spec.profile) + " is not a profile name");
  spec.mgmt = root["mgmt"];
  if (spec.mgmt && !spec.mgmt.is_map()) r.error(spec.mgmt, "mgmt: expected a mapping (the inventory's defaults.mgmt)");
  spec.groups = root["groups"];
  if (spec.groups && r.check_free_map(spec.groups, "groups"))
    for (const YamlEntry& g : spec.groups.entries()) spec.group_names.emplace(g.key.scalar(), r.loc(g.key));

  s.role(Role::host);
  // A tier left out is one error; what it would have held is not reported again.
  const YamlNode& hosts = root["hosts"];
  if (!hosts) {
    r.error(root, "design: hosts is required");
  } else {
    s.tier(hosts, "hosts", kHostFields, spec.hosts, {"count", "nics", "rdma_devices"});
    spec.hosts.count = s.required_int(hosts, "count", "hosts", 1, 1'000'000);
    spec.hosts.nics = s.required_int(hosts, "nics", "hosts", 1, 64);
    spec.hosts.rdma_devices = s.list(hosts["rdma_devices"], "hosts.rdma_devices");
  }
  for (const Field<std::string>& d : spec.hosts.rdma_devices)
    if (d.has() && !is_rdma_device_name(*d))
      diags.error(d.loc, "hosts.rdma_devices: " + quote(*d) + " is not an RDMA device name");

  spec.rails = root["rails"] ? r.integer(root["rails"], "rails", 1, 64) : spec.hosts.nics;

  s.role(Role::switch_);
  const YamlNode& leaves = root["leaves"];
  if (!leaves) {
    r.error(root, "design: leaves is required");
  } else {
    s.tier(leaves, "leaves", kLeafFields, spec.leaves, {"radix", "pod_hosts", "platforms_by"});
    spec.leaves.radix = s.required_int(leaves, "radix", "leaves", 2, 1024);
    spec.leaves.pod_hosts = s.optional_int(leaves, "pod_hosts", "leaves", 1, 1024);
    if (const YamlNode& by = leaves["platforms_by"]; by) {
      const Field<std::string> f = r.choice(by, "leaves.platforms_by", {"rail", "pod"});
      spec.leaves.platforms_by_pod = f.has() && *f == "pod";
    }
  }

  const YamlNode& spines = root["spines"];
  if (!spines) {
    r.error(root, "design: spines is required");
  } else {
    s.tier(spines, "spines", kSpineFields, spec.spines, {"count", "radix"});
    spec.spines.count = s.required_int(spines, "count", "spines", 1, 1024);
    spec.spines.radix = s.optional_int(spines, "radix", "spines", 1, 100'000);
  }
  for (Tier* t : {static_cast<Tier*>(&spec.leaves), static_cast<Tier*>(&spec.spines)})
    if (t->platforms.empty() && t->loc.line > 0)
      diags.error(t->loc, std::string(t == &spec.leaves ? "leaves" : "spines") +
                              ": platforms is required (one, or a list by " + (t == &spec.leaves ? "rail" : "spine") +
                              ")");

  const YamlNode& cables = root["cables"];
  if (!cables) {
    r.error(root, "design: cables is required (cables: {host: {speed, length_m}, uplink: {speed, length_m}})");
  } else if (r.check_map(cables, "cables", {"host", "uplink", "dac_max_m"})) {
    spec.host_cable = s.cable(cables, "host", "cables.host");
    spec.uplink_cable = s.cable(cables, "uplink", "cables.uplink");
    spec.dac_max_m = s.optional_int(cables, "dac_max_m", "cables", 0, 100);
  }
  if (!spec.dac_max_m.has()) spec.dac_max_m.value = kDefaultDacMaxM;

  if (const YamlNode& devices = root["devices"]; devices && r.check_free_map(devices, "devices")) {
    for (const YamlEntry& d : devices.entries()) {
      const std::string where = key_path("devices", d.key.scalar());
      if (!r.check_map(d.value, where, {"groups"})) continue;
      auto& entry = spec.extra_groups[std::string(d.key.scalar())];
      entry.first = r.loc(d.key);
      entry.second = s.list(d.value["groups"], where + ".groups");
    }
  }
  if (diags.count(DiagSeverity::error) > errors_before) return std::nullopt;
  return spec;
}

}  // namespace fabricctl::design
