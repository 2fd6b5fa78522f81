#include "model/fabric.h"

#include <algorithm>
#include <map>
#include <regex>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "model/headroom.h"
#include "model/name_rules.h"
#include "platform/traits.h"
#include "util/names.h"
#include "util/spell.h"
#include "util/text.h"

namespace fabricctl {
namespace {

// Port-name patterns are regexes in the platform table. libstdc++'s std::regex_match recurses once
// per character, so only names no longer than this (bytes; the longest real one, an EOS
// "Ethernet123/45/67", has 17) ever reach it; longer ones are simply invalid.
constexpr size_t kMaxPortName = 32;

// Compiled once per platform: a fabric has hundreds of thousands of ports.
const std::regex& port_regex(const PlatformTraits& a) {
  static const std::map<Platform, std::regex> compiled = [] {
    std::map<Platform, std::regex> m;
    for (const PlatformTraits* p : all_traits()) m.emplace(p->platform, std::regex(std::string(p->port_pattern)));
    return m;
  }();
  return compiled.at(a.platform);
}

bool is_port_name(std::string_view name, const PlatformTraits& a) {
  return name.size() <= kMaxPortName && std::regex_match(name.begin(), name.end(), port_regex(a));
}

/// The letters a platform's port names start with ("Ethernet" of "Ethernet1/1").
std::string_view port_stem(const PlatformTraits& a) {
  return a.port_example.substr(0, a.port_example.find_first_of("0123456789"));
}

struct PortRef {
  size_t device;
  size_t port;
};

struct Resolver {
  Resolver(const Inventory& i, const ProfileSet& p, Diags& diags) : inv(i), profiles(p), d(diags) {}

  const Inventory& inv;
  const ProfileSet& profiles;
  Diags& d;
  Fabric out;

  std::map<std::string, const GroupSpec*> groups;
  std::map<std::string, size_t> device_index;  // name -> index in inv.devices
  std::vector<const PlatformTraits*> device_adapter;
  std::vector<std::optional<Intent>> device_intent;
  std::vector<std::unordered_map<std::string_view, size_t>> port_index;  // per device: port name -> index in its ports
  // Port names already matched against a platform's pattern: a fabric repeats a few hundred names
  // (Ethernet0, swp1, ...) on thousands of devices, and a regex match costs microseconds.
  std::map<Platform, std::unordered_map<std::string, bool>> port_name_ok;
  /// Per device, parallel to its ports (before finish() sorts them): the spec a port came from, the
  /// location of its host MTU (for link errors; null file when the port has no intent) and the link
  /// that uses it (null until one does).
  std::vector<std::vector<const PortSpec*>> port_specs;
  std::vector<std::vector<Loc>> port_mtu_host_loc;
  std::vector<std::vector<Loc>> port_cable_loc;  // where each port's cable length was set (no file: not set)
  std::vector<std::vector<const Loc*>> port_used_by;
  std::unordered_map<std::string, std::optional<Intent>> intent_cache;

  // "Did you mean" candidates, listed once and only when a name is unknown; one budget bounds the
  // cost of all suggestions, however many names are wrong.
  SpellBudget spell;
  std::optional<std::vector<std::string_view>> group_names_, device_names_;
  std::unordered_map<size_t, std::vector<std::string_view>> port_names_;

  const std::vector<std::string_view>& group_names() {
    if (!group_names_) {
      group_names_.emplace();
      for (const auto& [n, g] : groups) group_names_->push_back(n);
    }
    return *group_names_;
  }
  const std::vector<std::string_view>& device_names() {
    if (!device_names_) {
      device_names_.emplace();
      for (const auto& [n, idx] : device_index) device_names_->push_back(n);
    }
    return *device_names_;
  }
  const std::vector<std::string_view>& port_names(size_t device) {
    auto [it, added] = port_names_.try_emplace(device);
    if (added) {
      for (const auto& [n, idx] : port_index[device]) it->second.push_back(n);
      // Natural order, so that a suggestion does not depend on hashing.
      std::sort(it->second.begin(), it->second.end(),
                [](std::string_view x, std::string_view y) { return natural_less(x, y); });
    }
    return it->second;
  }

  bool valid_port_name(const std::string& name, const PlatformTraits& a) {
    auto& known = port_name_ok[a.platform];
    const auto it = known.find(name);
    if (it != known.end()) return it->second;
    const bool ok = is_port_name(name, a);
    known.emplace(name, ok);
    return ok;
  }

  void run() {
    index_groups();
    index_devices();
    for (size_t i = 0; i < inv.devices.size(); ++i) resolve_device(i);
    resolve_links();
    unlinked_devices();
    headroom_rows();
    finish();
  }

  /// A device no link names is configured but never compared with a peer: likely a link forgotten,
  /// or a links file missing. A warning: a fabric may be described before it is cabled.
  void unlinked_devices() {
    std::unordered_set<std::string_view> named;
    for (const LinkSpec& l : inv.links)
      for (const Field<std::string>* end : {&l.a, &l.b})
        if (end->has()) named.insert(std::string_view(**end).substr(0, (*end)->find(':')));
    for (const DeviceSpec& dev : inv.devices) {
      if (!dev.name.has() || named.count(*dev.name) || !device_index.count(*dev.name)) continue;
      d.warning(dev.name.loc, "on no link: " + std::string(kSubjects) + "; verify compares both ends of links only")
          .about("device", *dev.name)
          .because(std::string(kInventoryIncomplete))
          .because(std::string(kLinksIncomplete));
    }
  }

  void index_groups() {
    for (const GroupSpec& g : inv.groups) {
      if (!g.name.has()) continue;
      if (!is_device_name(*g.name)) {
        d.error(g.name.loc,
                "groups: " + quote(*g.name) + " is not a valid group name (letters, digits, '.', '_', '-')");
        d.fail(group_entity(*g.name));
        continue;
      }
      if (!groups.emplace(*g.name, &g).second) d.error(g.name.loc, "groups: duplicate group " + quote(*g.name));
    }
  }

  void index_devices() {
    device_adapter.resize(inv.devices.size());
    device_intent.resize(inv.devices.size());
    port_index.resize(inv.devices.size());
    port_specs.resize(inv.devices.size());
    port_mtu_host_loc.resize(inv.devices.size());
    port_cable_loc.resize(inv.devices.size());
    port_used_by.resize(inv.devices.size());
    for (size_t i = 0; i < inv.devices.size(); ++i) {
      const DeviceSpec& dev = inv.devices[i];
      if (!dev.name.has()) continue;
      if (!is_device_name(*dev.name)) {
        d.error(dev.name.loc, "devices: " + quote(*dev.name) +
                                  " is not a valid device name (letters, digits, '.', '_', '-'; at most 63)");
        d.fail(device_entity(*dev.name));
        continue;
      }
      if (!device_index.emplace(*dev.name, i).second) {
        const Loc& first = inv.devices[device_index[*dev.name]].name.loc;
        // Within one file the YAML reader has already reported the duplicate key.
        if (*first.file != *dev.name.loc.file)
          d.error(dev.name.loc,
                  "devices: duplicate device " + quote(*dev.name) + " (first defined at " + first.str() + ")");
        d.fail(device_entity(*dev.name));
        device_index[*dev.name] = i;  // the later definition wins, as with duplicate YAML keys
      }
    }
  }

  std::optional<Field<std::string>> profile_of(const DeviceSpec& dev) {
    if (dev.profile.has()) return dev.profile;
    for (const auto& g : dev.groups) {
      const auto it = g.has() ? groups.find(*g) : groups.end();
      if (it != groups.end() && it->second->profile.has()) return it->second->profile;
    }
    if (inv.default_profile.has()) return inv.default_profile;
    return std::nullopt;
  }

  void resolve_device(size_t i) {
    const DeviceSpec& dev = inv.devices[i];
    if (!dev.name.has()) return;
    const std::string where = key_path("devices", *dev.name);
    const PlatformTraits* a = dev.platform.has() ? find_traits(*dev.platform) : nullptr;
    device_adapter[i] = a;
    if (a && dev.role.has() && *dev.role != to_string(a->role))
      d.error(dev.role.loc, where + ".role: " + quote(*dev.role) + " does not match platform " + quote(a->name()) +
                                " (a " + std::string(to_string(a->role)) + " platform)");

    // Groups, then profile.
    std::vector<const GroupSpec*> dev_groups;
    for (const auto& g : dev.groups) {
      if (!g.has()) continue;
      const auto it = groups.find(*g);
      if (it == groups.end()) {
        // Unknown because of an error in its definition, or in a file that could not be read.
        d.error(g.loc, where + ".groups: unknown group " + quote(*g))
            .suggest(did_you_mean(*g, group_names(), &spell))
            .because(group_entity(*g))
            .because(std::string(kInventoryIncomplete));
        continue;
      }
      dev_groups.push_back(it->second);
    }
    const auto profile = profile_of(dev);
    std::string profile_name;
    if (!profile) {
      // `defaults` may be in a file that could not be read.
      d.error(dev.name.loc, where + ": no profile (set profile on the device, one of its groups, or defaults)")
          .because(std::string(kInventoryIncomplete));
    } else if (profiles.broken.count(**profile)) {
      // Its errors are already reported at their source; repeating them per device is noise.
    } else if (!profiles.merged.count(**profile)) {
      std::vector<std::string> names = profiles.names();
      std::vector<std::string_view> views(names.begin(), names.end());
      std::string hint = did_you_mean(**profile, views, &spell);
      if (hint.empty() && !names.empty()) hint = " (profiles: " + join(names, ", ") + ")";
      // One line for every device that names it: "(devices leaf1, leaf2 and 14 more)".
      if (!profiles.sources.count(**profile))
        d.error(profile->loc, "profile: unknown profile " + quote(**profile))
            .about("device", *dev.name)
            .suggest(hint)
            .because(profile_entity(**profile));
    } else {
      profile_name = **profile;
    }

    mgmt(dev);

    if (!profile_name.empty()) {
      // Devices that share profile, groups and have no overrides share one intent: at fabric
      // scale most devices are alike, and the checks need to run once per distinct stack.
      const bool plain = dev.overrides.unset();
      std::string key = profile_name;
      for (const GroupSpec* g : dev_groups) key += "|" + *g->name;
      if (const auto hit = plain ? intent_cache.find(key) : intent_cache.end(); hit != intent_cache.end()) {
        device_intent[i] = hit->second;
      } else {
        ProfileLayer merged = profiles.merged.at(profile_name);
        bool removed_all = true;
        auto stack = [&](const ProfileLayer& overrides) {
          for (const StrayRemoval& s : merged.merge(overrides)) {
            d.error(s.loc, s.entry + " removes nothing: neither profile " + quote(profile_name) +
                               " nor earlier overrides set it");
            removed_all = false;
          }
        };
        for (const GroupSpec* g : dev_groups) stack(g->overrides);
        stack(dev.overrides);
        device_intent[i] = make_intent(merged, dev.name.loc,
                                       "device " + quote(*dev.name) + " (profile " + quote(profile_name) + ")", d);
        if (!removed_all) device_intent[i].reset();
        if (plain) intent_cache[key] = device_intent[i];
      }
    }
    if (a && device_intent[i]) platform_limits(dev, *a, *device_intent[i]);
    if (a && a->role == Role::host && dev.rail.has())
      d.error(dev.rail.loc, where + ".rail: a host's rails are per NIC (set rail on each port)");

    DeviceDesired dd;
    dd.name = *dev.name;
    dd.role = a ? a->role : (dev.role.has() && *dev.role == "host" ? Role::host : Role::switch_);
    dd.platform = a ? a->platform : Platform::sonic;
    dd.profile = profile_name;
    for (const GroupSpec* g : dev_groups) dd.groups.push_back(*g->name);
    if (dev.rail.has()) dd.rail = static_cast<int>(*dev.rail);
    if (device_intent[i]) dd.qos = device_intent[i]->qos;
    if (a) dd.qos.watchdog.restoration_configurable = a->watchdog_restoration_settable;
    if (a) dd.hardware = hardware(dev, dev_groups, *a, where);
    if (a && a->ecn_in_buffer_percent && device_intent[i]) ecn_buffer(dev, *a, *device_intent[i], dd.hardware, where);
    ports(i, dev, a, dd, where);
    out.desired.devices.push_back(std::move(dd));
  }

  /// The switch hardware of a device: defaults, its groups in order, then its own mapping, read by its
  /// platform (PlatformTraits::hardware). A platform's mapping on a device of another platform is an
  /// error; on `defaults` or a group it concerns only the members of that platform.
  SwitchHardware hardware(const DeviceSpec& dev, const std::vector<const GroupSpec*>& dev_groups,
                          const PlatformTraits& a, const std::string& where) {
    for (const auto& [platform, given] : dev.hardware.mappings) {
      const std::string_view name = to_string(platform);
      if (platform != a.platform)
        d.error(given.loc, where + "." + std::string(name) + ": applies to " + std::string(name) +
                               " devices only, and " + quote(*dev.name) + " is on platform " + std::string(a.name()));
    }
    HardwareSpec h = inv.default_hardware;
    for (const GroupSpec* g : dev_groups) h.merge(g->hardware);
    h.merge(dev.hardware);
    SwitchHardware hw;
    if (a.hardware == nullptr) return hw;
    HardwareValues given;
    if (const auto m = h.mappings.find(a.platform); m != h.mappings.end())
      for (const auto& [key, value] : m->second.values)
        if (value.has()) given.emplace(key, *value);
    a.hardware(given, hw);
    return hw;
  }

  /// Where ECN thresholds are a percent of the queue's buffer (PlatformTraits::ecn_in_buffer_percent),
  /// the device must state that buffer, and each threshold must be a whole percent of it.
  void ecn_buffer(const DeviceSpec& dev, const PlatformTraits& a, const Intent& in, const SwitchHardware& hw,
                  const std::string& where) {
    const QosIntent& q = in.qos;
    if (!q.ecn_enabled || q.ecn.empty()) return;
    const std::string on = " on " + std::string(a.name()) + " " + std::string(kSubjects);
    if (hw.ecn_buffer_bytes == 0) {
      d.error(dev.name.loc, where + ": ECN thresholds are set as a percent of the queue's buffer" + on +
                                ": state it as " + std::string(a.name()) + ": {ecn_buffer_kbytes: N}")
          .about("device", *dev.name);
      return;
    }
    const uint64_t buffer = hw.ecn_buffer_bytes;
    for (const EcnQueue& e : q.ecn)
      for (const uint64_t bytes : {e.min_bytes, e.max_bytes}) {
        if (bytes <= buffer && (bytes * 100) % buffer == 0) continue;
        d.error(in.ecn_loc[static_cast<size_t>(e.tc)].file ? in.ecn_loc[static_cast<size_t>(e.tc)] : dev.name.loc,
                "ecn.tc." + std::to_string(e.tc) + ": " + quote(std::to_string(bytes)) + " bytes is " +
                    (bytes > buffer ? "more than" : "not a whole percent of") + " the queue buffer of " +
                    std::to_string(buffer) + " bytes (" + std::string(a.name()) + ".ecn_buffer_kbytes)" + on +
                    ", which sets ECN thresholds as percents of it")
            .about("device", *dev.name);
        return;
      }
  }

  void platform_limits(const DeviceSpec& dev, const PlatformTraits& a, const Intent& in) {
    const bool host = a.role == Role::host;
    const int mtu = host ? in.mtu_host : in.mtu_switch;
    const Loc& loc = host ? in.mtu_host_loc : in.mtu_switch_loc;
    mtu_range(mtu, loc, host ? "mtu.host" : "mtu.switch", a, *dev.name);
    trust_mode(dev, a, in);
    if (!host) queue_limits(dev, a, in);
    const Watchdog& w = in.qos.watchdog;
    if (!host && w.enabled &&
        std::find(a.watchdog_actions.begin(), a.watchdog_actions.end(), w.action) == a.watchdog_actions.end()) {
      std::vector<std::string> names;
      for (WatchdogAction x : a.watchdog_actions) names.emplace_back(to_string(x));
      d.error(in.watchdog_action_loc.file ? in.watchdog_action_loc : dev.name.loc,
              "pfc_watchdog.action: " + quote(to_string(w.action)) + " is not supported on " + std::string(a.name()) +
                  " " + std::string(kSubjects) + " (supported: " + join(names, ", ") + ")")
          .about("device", *dev.name);
    }
  }

  /// What a platform that queues by priority, sets ECN in coarser units or the watchdog in poll
  /// intervals (PlatformTraits) cannot render.
  void queue_limits(const DeviceSpec& dev, const PlatformTraits& a, const Intent& in) {
    const QosIntent& q = in.qos;
    const std::string on = " on " + std::string(a.name()) + " " + std::string(kSubjects);
    auto at = [](const Loc& loc, const Loc& otherwise) { return loc.file ? loc : otherwise; };
    if (a.priority_is_queue)
      for (int p = 0; p < kPriorities; ++p) {
        const auto i = static_cast<size_t>(p);
        const bool carries = q.trust != Trust::dscp || std::find(q.dscp_to_priority.begin(), q.dscp_to_priority.end(),
                                                                 p) != q.dscp_to_priority.end();
        if ((!carries && !q.lossless[i]) || q.priority_to_tc[i] == p) continue;
        d.error(at(in.priority_to_tc_loc, dev.name.loc),
                "ets.priority_to_tc: priority " + std::to_string(p) + " goes to traffic class " +
                    std::to_string(q.priority_to_tc[i]) + on + ", which queues a " +
                    (q.lossless[i] ? "lossless priority" : "priority that carries traffic") +
                    " in the traffic class of its own number (" + std::to_string(p) + ")")
            .about("device", *dev.name);
        break;  // one error per profile and device is enough to see the rule
      }
    if (a.ecn_unit_bytes > 1 && q.ecn_enabled)
      for (const EcnQueue& e : q.ecn)
        for (const uint64_t bytes : {e.min_bytes, e.max_bytes})
          if (bytes % static_cast<uint64_t>(a.ecn_unit_bytes) != 0) {
            d.error(at(in.ecn_loc[static_cast<size_t>(e.tc)], dev.name.loc),
                    "ecn.tc." + std::to_string(e.tc) + ": " + quote(std::to_string(bytes)) +
                        " bytes is not a whole number of the " + std::to_string(a.ecn_unit_bytes) +
                        "-byte units ECN thresholds are set in" + on)
                .about("device", *dev.name);
            break;
          }
    const Watchdog& w = q.watchdog;
    if (!a.watchdog_in_poll_intervals || !w.enabled || w.poll_interval_ms <= 0) return;
    // Each time in poll intervals: a whole number of them, and no more than the platform's multiplier takes.
    for (const auto& [key, ms, most, loc] :
         {std::tuple{"detection_ms", w.detection_ms, a.watchdog_max_detection_polls, &in.watchdog_detection_loc},
          std::tuple{"restoration_ms", w.restoration_ms, a.watchdog_max_restoration_polls,
                     &in.watchdog_restoration_loc}}) {
      const std::string what = std::string("pfc_watchdog.") + key + ": " + std::to_string(ms);
      const std::string poll = std::to_string(w.poll_interval_ms);
      if (ms % w.poll_interval_ms != 0) {
        d.error(at(*loc, dev.name.loc), what + " is not a whole multiple of poll_interval_ms " + poll + on +
                                            ", which sets it as a multiplier of the interval")
            .about("device", *dev.name);
        return;
      }
      if (most > 0 && ms / w.poll_interval_ms > most)
        d.error(at(*loc, dev.name.loc), what + " is " + std::to_string(ms / w.poll_interval_ms) +
                                            " poll intervals of " + poll + " ms" + on + ", which takes " +
                                            std::to_string(most) + " at most")
            .about("device", *dev.name);
    }
  }

  void trust_mode(const DeviceSpec& dev, const PlatformTraits& a, const Intent& in) {
    const Trust t = in.qos.trust;
    if (std::find(a.trust_modes.begin(), a.trust_modes.end(), t) != a.trust_modes.end()) return;
    std::vector<std::string> names;
    for (Trust x : a.trust_modes) names.emplace_back(to_string(x));
    d.error(in.trust_loc.file ? in.trust_loc : dev.name.loc, "trust: " + quote(to_string(t)) + " is not supported on " +
                                                                 std::string(a.name()) + " " + std::string(kSubjects) +
                                                                 " (supported: " + join(names, ", ") + ")")
        .about("device", *dev.name);
  }

  void mtu_range(int mtu, const Loc& loc, const char* key, const PlatformTraits& a, const std::string& device) {
    if (mtu < a.mtu_min || mtu > a.mtu_max)
      d.error(loc, std::string(key) + ": " + quote(std::to_string(mtu)) + " is out of range for " +
                       std::string(a.name()) + " " + std::string(kSubjects) + " (" + std::to_string(a.mtu_min) + "-" +
                       std::to_string(a.mtu_max) + ")")
          .about("device", device);
  }

  /// What is written under mgmt must be well formed, but nothing is required: validate, render
  /// and verify never connect. Commands that connect call require_connect_settings().
  void mgmt(const DeviceSpec& dev) {
    MgmtSpec m = inv.default_mgmt;
    m.merge(dev.mgmt);
    DeviceMgmt dm;
    dm.device = *dev.name;
    dm.loc = dev.name.loc;
    if (m.address.has() && !is_address(*m.address))
      d.error(m.address.loc, "mgmt.address: " + quote(*m.address) + " is not an IP address or host name");
    else if (m.address.has()) dm.address = *m.address;
    dm.port = m.port.has() ? static_cast<int>(*m.port) : 22;
    if (m.user.has() && !is_user_name(*m.user))
      d.error(m.user.loc, "mgmt.user: " + quote(*m.user) + " is not a valid user name");
    else if (m.user.has()) dm.user = *m.user;
    const int methods = int{m.key.has()} + int{m.agent.has() && *m.agent} + int{m.password_env.has()};
    if (methods > 1) {
      const Loc& loc = m.key.has() ? m.key.loc : m.password_env.loc;
      d.error(loc, "mgmt: set only one of key, agent and password_env");
    }
    if (m.password_env.has() && !is_env_name(*m.password_env))
      d.error(m.password_env.loc,
              "mgmt.password_env: " + quote(*m.password_env) + " is not an environment variable name (A-Z, 0-9, _)");
    else if (m.password_env.has() && is_system_env_name(*m.password_env))
      d.error(m.password_env.loc, "mgmt.password_env: " + quote(*m.password_env) +
                                      " is a variable the system or fabricctl sets, not a password: name one of "
                                      "your own (such as FABRIC_SSH_PASSWORD)");
    if (m.host_key.has() && !is_host_key(*m.host_key))
      d.error(m.host_key.loc, "mgmt.host_key: " + quote(*m.host_key) +
                                  " is not a host key (\"SHA256:<43 base64 chars>\" or \"ssh-ed25519 <base64>\")");
    if (m.key.has()) dm.key = *m.key;
    dm.agent = m.agent.has() && *m.agent;
    if (m.password_env.has()) dm.password_env = *m.password_env;
    if (m.host_key.has()) dm.host_key = *m.host_key;
    if (m.fabricctl.has() && !valid_program_path(*m.fabricctl))
      d.error(m.fabricctl.loc, "mgmt.fabricctl: " + quote(*m.fabricctl) +
                                   " is not a program path (letters, digits, / . _ + -; not starting with -)");
    else if (m.fabricctl.has()) dm.fabricctl = *m.fabricctl;
    out.mgmt.push_back(dm);
  }

  void ports(size_t i, const DeviceSpec& dev, const PlatformTraits* a, DeviceDesired& dd, const std::string& where) {
    const std::optional<Intent>& in = device_intent[i];
    static const ProfileLayer kNoOverrides;
    for (const PortSpec& p : dev.ports) {
      if (!p.name.has()) continue;
      const ProfileLayer& po = p.overrides ? *p.overrides : kNoOverrides;
      // The port's path for messages, built only when there is one to print.
      auto path = [&] { return key_path(where + ".ports", *p.name); };
      if (a && !valid_port_name(*p.name, *a)) {
        // An abbreviation the NOS CLI accepts ("Et1/1") is not the name it reports ("Ethernet1/1").
        const std::string full = expand_stem(*p.name, port_stem(*a));
        d.error(p.name.loc, where + ".ports: " + quote(*p.name) + " is not a valid " + std::string(a->name()) +
                                " port name (like " + quote(a->port_example) + ")")
            .suggest(!full.empty() && valid_port_name(full, *a) ? "; did you mean " + quote(full) + "?" : "");
        d.fail(device_entity(*dev.name));  // links to the port it meant: not errors of their own
        continue;
      }
      if (port_index[i].count(*p.name)) {
        d.error(p.name.loc, where + ".ports: duplicate port " + quote(*p.name));
        continue;
      }
      const bool host = a && a->role == Role::host;
      if (a) {
        // A port has one MTU: the key for the other role would be silently ignored.
        const auto& wrong = host ? po.mtu_switch : po.mtu_host;
        if (wrong.has())
          d.error(wrong.loc, path() + ".overrides: " + (host ? std::string("mtu.switch") : std::string("mtu.host")) +
                                 " does not apply to a " + std::string(to_string(a->role)) + " port (use " +
                                 (host ? "mtu.host" : "mtu.switch") + ")");
        if (!host && po.mtu_rdma.has())
          d.error(po.mtu_rdma.loc, path() + ".overrides: mtu.rdma does not apply to a switch port");
      }
      if (a && !host) {
        if (p.rdma_device.has())
          d.error(p.rdma_device.loc, path() + ".rdma_device: only host NIC ports have an RDMA device");
        if (p.rdma_port.has()) d.error(p.rdma_port.loc, path() + ".rdma_port: only host NIC ports have an RDMA port");
        if (p.rail.has())
          d.error(p.rail.loc, path() + ".rail: set the rail on the switch itself (devices.<name>.rail)");
      }
      if (host && !p.rdma_device.has()) d.error(p.name.loc, path() + ": missing rdma_device (e.g. mlx5_0)");
      if (p.rdma_device.has() && !is_rdma_device_name(*p.rdma_device))
        d.error(p.rdma_device.loc, path() + ".rdma_device: " + quote(*p.rdma_device) + " is not an RDMA device name");

      PortDesired pd;
      pd.name = *p.name;
      if (p.speed_mbps.has()) pd.speed_mbps = static_cast<int>(*p.speed_mbps);
      if (p.rdma_device.has()) pd.rdma_device = *p.rdma_device;
      if (p.rdma_port.has()) pd.rdma_port = static_cast<int>(*p.rdma_port);
      if (p.rail.has()) pd.rail = static_cast<int>(*p.rail);
      Loc mtu_host_loc, cable_loc;
      if (in) {
        PortIntent pi{in->mtu_host,       in->mtu_switch,   in->mtu_rdma,      in->mtu_host_loc,
                      in->mtu_switch_loc, in->mtu_rdma_loc, in->cable_length_m};
        if (!po.unset()) {
          // Port overrides can only touch MTU and cable length; re-check the MTU rules with them.
          pi.mtu_host = po.mtu_host.has() ? static_cast<int>(*po.mtu_host) : in->mtu_host;
          pi.mtu_switch = po.mtu_switch.has() ? static_cast<int>(*po.mtu_switch) : in->mtu_switch;
          pi.mtu_rdma = po.mtu_rdma.has() ? static_cast<int>(*po.mtu_rdma) : in->mtu_rdma;
          if (po.mtu_host.has()) pi.mtu_host_loc = po.mtu_host.loc;
          if (po.mtu_switch.has()) pi.mtu_switch_loc = po.mtu_switch.loc;
          if (po.mtu_rdma.has()) pi.mtu_rdma_loc = po.mtu_rdma.loc;
          if (po.cable_length_m.has()) pi.cable_length_m = static_cast<int>(*po.cable_length_m);
          if (a) {
            if (host && po.mtu_host.has()) mtu_range(pi.mtu_host, pi.mtu_host_loc, "mtu.host", *a, *dev.name);
            if (!host && po.mtu_switch.has()) mtu_range(pi.mtu_switch, pi.mtu_switch_loc, "mtu.switch", *a, *dev.name);
          }
          if (host && pi.mtu_rdma > roce_mtu_for(pi.mtu_host))
            d.error(po.mtu_host.has() ? pi.mtu_host_loc : pi.mtu_rdma_loc,
                    path() + ": RoCE MTU " + std::to_string(pi.mtu_rdma) + " does not fit host MTU " +
                        quote(std::to_string(pi.mtu_host)) + " (it carries RoCE MTU " +
                        std::to_string(roce_mtu_for(pi.mtu_host)) + " at most)");
        }
        mtu_host_loc = pi.mtu_host_loc;
        cable_loc = po.cable_length_m.has() ? po.cable_length_m.loc : in->cable_length_loc;
        pd.mtu = host ? pi.mtu_host : pi.mtu_switch;
        pd.rdma_mtu = host ? pi.mtu_rdma : 0;
        pd.cable_length_m = pi.cable_length_m;
      }
      port_index[i].emplace(*p.name, dd.ports.size());
      port_specs[i].push_back(&p);
      port_mtu_host_loc[i].push_back(std::move(mtu_host_loc));
      port_cable_loc[i].push_back(std::move(cable_loc));
      port_used_by[i].push_back(nullptr);
      dd.ports.push_back(std::move(pd));
    }
  }

  /// What a port's overrides may change of its device's intent.
  struct PortIntent {
    int mtu_host, mtu_switch, mtu_rdma;
    Loc mtu_host_loc, mtu_switch_loc, mtu_rdma_loc;
    int cable_length_m;
  };

  std::optional<PortRef> endpoint(const Field<std::string>& f, const char* end) {
    if (!f.has()) return std::nullopt;
    const auto found = find_endpoint(f, end);
    if (!found) d.fail(std::string(kLinksIncomplete));
    return found;
  }

  std::optional<PortRef> find_endpoint(const Field<std::string>& f, const char* end) {
    const std::string what = std::string("link.") + end;
    const auto colon = f->find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == f->size()) {
      d.error(f.loc, what + ": " + quote(*f) + " is not an endpoint (device:port)");
      return std::nullopt;
    }
    const std::string dev = f->substr(0, colon), port = f->substr(colon + 1);
    const auto it = device_index.find(dev);
    if (it == device_index.end()) {
      // Unknown because its definition was invalid, or in a file that could not be read: said there.
      d.error(f.loc, what + ": unknown device " + quote(dev))
          .about("link end", *f)
          .suggest(did_you_mean(dev, device_names(), &spell))
          .because(device_entity(dev))
          .because(std::string(kInventoryIncomplete));
      return std::nullopt;
    }
    const auto& pi = port_index[it->second];
    const auto pit = pi.find(port);
    if (pit == pi.end()) {
      // A port of a device with errors in its definition may be among what failed to read.
      d.error(f.loc, what + ": device " + quote(dev) + " has no port " + quote(port))
          .suggest(did_you_mean(port, port_names(it->second), &spell))
          .because(device_entity(dev));
      return std::nullopt;
    }
    if (const Loc* used = port_used_by[it->second][pit->second]) {
      d.error(f.loc, what + ": port " + quote(*f) + " is already used by the link at " + used->str());
      return std::nullopt;
    }
    return PortRef{it->second, pit->second};
  }

  DeviceDesired& desired(size_t device) { return out.desired.devices[device]; }

  void resolve_links() {
    for (const LinkSpec& l : inv.links) {
      const auto a = endpoint(l.a, "a");
      const auto b = endpoint(l.b, "b");
      if (!a || !b) continue;
      if (a->device == b->device) {
        d.error(l.b.loc, "link.b: " + quote(*l.b) + " is on the same device as " + quote(*l.a));
        continue;
      }
      // Only a link that stands claims its ports, so one bad link does not cascade into others.
      port_used_by[a->device][a->port] = &l.a.loc;
      port_used_by[b->device][b->port] = &l.b.loc;
      ++out.links;
      DeviceDesired& da = desired(a->device);
      DeviceDesired& db = desired(b->device);
      PortDesired& pa = da.ports[a->port];
      PortDesired& pb = db.ports[b->port];
      pa.peer_device = db.name;
      pa.peer_port = pb.name;
      pb.peer_device = da.name;
      pb.peer_port = pa.name;
      const PlatformTraits* aa = device_adapter[a->device];
      const PlatformTraits* ab = device_adapter[b->device];
      if (!aa || !ab) continue;
      if (aa->role == Role::host && ab->role == Role::host) {
        d.error(l.loc,
                "link: " + quote(*l.a) + " and " + quote(*l.b) + " are both hosts; a RoCE link has a switch end");
        continue;
      }
      link_speed(l, a->device, pa, b->device, pb);
      if (l.cable_length_m.has()) {
        pa.cable_length_m = static_cast<int>(*l.cable_length_m);
        pb.cable_length_m = static_cast<int>(*l.cable_length_m);
        port_cable_loc[a->device][a->port] = l.cable_length_m.loc;
        port_cable_loc[b->device][b->port] = l.cable_length_m.loc;
      }
      link_mtu(l, *a, *aa, *b, *ab);
      link_rail(l, *a, *aa, *b, *ab);
    }
  }

  void link_speed(const LinkSpec& l, size_t da, PortDesired& pa, size_t db, PortDesired& pb) {
    if (!l.speed_mbps.has()) {
      if (pa.speed_mbps && pb.speed_mbps && *pa.speed_mbps != *pb.speed_mbps)
        d.error(l.loc, "link: " + quote(*l.a) + " is " + format_speed(*pa.speed_mbps) + " but " + quote(*l.b) + " is " +
                           format_speed(*pb.speed_mbps) + "; both ends must run at one speed");
      if (!pa.speed_mbps) pa.speed_mbps = pb.speed_mbps;
      if (!pb.speed_mbps) pb.speed_mbps = pa.speed_mbps;
      // Without an expected speed, one slow NIC (the classic cause of a slow all-reduce) goes
      // unnoticed: verify can still compare the two ends, not either with the plan.
      if (!pa.speed_mbps)
        d.warning(l.loc, "link: no speed (set speed on the link or on a port); verify cannot check it")
            .about("link", *l.a + " - " + *l.b)
            .because(device_entity(desired(da).name))  // a speed it could not read
            .because(device_entity(desired(db).name));
      return;
    }
    const int s = static_cast<int>(*l.speed_mbps);
    for (auto [dev, p] : {std::pair{da, &pa}, {db, &pb}}) {
      if (p->speed_mbps && *p->speed_mbps != s) {
        const PortSpec* spec = port_specs[dev][static_cast<size_t>(p - desired(dev).ports.data())];
        d.error(spec->speed_mbps.loc, "speed: port " + quote(desired(dev).name + ":" + p->name) + " is " +
                                          format_speed(*p->speed_mbps) + " but its link at " + l.loc.str() +
                                          " expects " + format_speed(s));
      }
      p->speed_mbps = s;
    }
  }

  void link_mtu(const LinkSpec& l, PortRef a, const PlatformTraits& aa, PortRef b, const PlatformTraits& ab) {
    if (!device_intent[a.device] || !device_intent[b.device]) return;
    const PortDesired& pa = desired(a.device).ports[a.port];
    const PortDesired& pb = desired(b.device).ports[b.port];
    if (aa.role == Role::switch_ && ab.role == Role::switch_) {
      if (pa.mtu != pb.mtu)
        d.error(l.loc, "link: MTU differs between " + quote(*l.a) + " (" + std::to_string(pa.mtu) + ") and " +
                           quote(*l.b) + " (" + std::to_string(pb.mtu) + "); switch-to-switch links need equal MTU");
      return;
    }
    const bool a_host = aa.role == Role::host;
    const PortDesired& host = a_host ? pa : pb;
    const PortDesired& sw = a_host ? pb : pa;
    const PortRef h = a_host ? a : b;
    if (host.mtu > sw.mtu)
      d.error(port_mtu_host_loc[h.device][h.port],
              "mtu.host: " + quote(std::to_string(host.mtu)) + " on " +
                  quote(desired(a_host ? a.device : b.device).name + ":" + host.name) +
                  " is larger than the switch port MTU " + std::to_string(sw.mtu) + " of " +
                  quote(desired(a_host ? b.device : a.device).name + ":" + sw.name));
  }

  void link_rail(const LinkSpec& l, PortRef a, const PlatformTraits& aa, PortRef b, const PlatformTraits& ab) {
    if (aa.role == ab.role) return;
    const bool a_host = aa.role == Role::host;
    const PortRef h = a_host ? a : b, s = a_host ? b : a;
    const PortDesired& hp = desired(h.device).ports[h.port];
    const DeviceDesired& sw = desired(s.device);
    if (hp.rail && sw.rail && *hp.rail != *sw.rail)
      d.error(l.loc, "link: " + quote(desired(h.device).name + ":" + hp.name) + " is on rail " +
                         std::to_string(*hp.rail) + " but " + quote(sw.name) + " serves rail " +
                         std::to_string(*sw.rail));
  }

  /// On a switch that looks headroom up by cable length, a cable longer than every row of its table
  /// gets no lossless headroom at all: an error where the length was set.
  void headroom_rows() {
    for (size_t i = 0; i < out.desired.devices.size(); ++i) {
      const DeviceDesired& dd = out.desired.devices[i];
      const std::vector<int>& rows = dd.hardware.headroom_cable_rows_m;
      if (rows.empty()) continue;
      for (size_t k = 0; k < dd.ports.size(); ++k) {
        const PortDesired& p = dd.ports[k];
        if (p.cable_length_m <= 0 || dd.hardware.headroom_row(p.cable_length_m)) continue;
        std::vector<std::string> listed;
        listed.reserve(rows.size());
        for (int r : rows) listed.push_back(std::to_string(r) + "m");
        const Loc& loc = port_cable_loc[i][k].file ? port_cable_loc[i][k] : inv.devices[device_index[dd.name]].name.loc;
        d.error(loc,
                dd.name + ":" + p.name + ": cable length " + quote(std::to_string(p.cable_length_m) + "m") +
                    " is longer than every row of its buffer table (" + join(listed, ", ") +
                    "), so it would get no lossless headroom: " + std::string(traits(dd.platform).headroom_table_fix));
      }
    }
  }

  void finish() {
    for (DeviceDesired& dd : out.desired.devices) {
      // Inventories list ports in order nearly always: check before sorting (a spine has thousands).
      auto by_name = [](const PortDesired& x, const PortDesired& y) { return natural_less(x.name, y.name); };
      if (!std::is_sorted(dd.ports.begin(), dd.ports.end(), by_name))
        std::sort(dd.ports.begin(), dd.ports.end(), by_name);
      for (PortDesired& p : dd.ports)
        p.headroom_bytes = pfc_headroom_bytes(p.speed_mbps.value_or(0), p.cable_length_m, p.mtu);
    }
    // Sort devices by name, keeping mgmt aligned.
    std::vector<size_t> order(out.desired.devices.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
      return natural_less(out.desired.devices[x].name, out.desired.devices[y].name);
    });
    Fabric sorted;
    sorted.links = out.links;
    for (size_t k : order) {
      sorted.desired.devices.push_back(std::move(out.desired.devices[k]));
      sorted.mgmt.push_back(std::move(out.mgmt[k]));
    }
    out = std::move(sorted);
  }
};

}  // namespace

void require_connect_settings(const Fabric& fabric, Diags& diags, const std::set<std::string>& only) {
  for (const DeviceMgmt& m : fabric.mgmt) {
    if (!only.empty() && only.count(m.device) == 0) continue;
    const std::string where = key_path("devices", m.device);
    if (m.address.empty()) diags.error(m.loc, where + ": missing mgmt.address");
    if (m.user.empty()) diags.error(m.loc, where + ": missing mgmt.user");
    if (m.key.empty() && !m.agent && m.password_env.empty())
      diags.error(m.loc, where + ": no SSH authentication (set mgmt.key, mgmt.agent: true or mgmt.password_env)");
  }
}

Fabric resolve_fabric(const Inventory& inv, const ProfileSet& profiles, Diags& diags) {
  Resolver r(inv, profiles, diags);
  r.run();
  return std::move(r.out);
}

}  // namespace fabricctl
