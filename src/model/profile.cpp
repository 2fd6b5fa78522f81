#include "model/profile.h"

#include <algorithm>

namespace fabricctl {
namespace {

std::string key_text(int k) { return std::to_string(k); }
const std::string& key_text(const std::string& k) { return k; }

/// Reads `key: value` into a map layer: the last mention of a key wins (duplicates are reported).
template <class K, class V>
void set_entry(LayerMap<K, V>& m, const K& k, V v) {
  m.removed.erase(k);
  m.entries.insert_or_assign(k, std::move(v));
}
/// Reads `key: null`: the layer removes `k` from what it inherits.
template <class K, class V>
void remove_entry(LayerMap<K, V>& m, const K& k, const Loc& at) {
  m.entries.erase(k);
  m.removed.insert_or_assign(k, at);
}

/// Applies what `later` removes, then stacks what it sets with `stack(mine, theirs)`. A removal
/// with nothing below it to remove is added to `stray`, named as "<what> \"<key>\"".
template <class K, class V, class Stack>
void merge_map(LayerMap<K, V>& base, const LayerMap<K, V>& later, std::string_view what,
               std::vector<StrayRemoval>& stray, Stack stack) {
  for (const auto& [k, at] : later.removed)
    if (base.entries.erase(k) == 0) stray.push_back({at, std::string(what) + " " + quote(key_text(k))});
  for (const auto& [k, v] : later.entries) stack(base.entries[k], v);
}

template <class V>
void stack(Field<V>& mine, const Field<V>& theirs) {
  mine.override_with(theirs);
}
/// An ECN traffic class stacks field by field.
void stack(EcnLayer& mine, const EcnLayer& e) {
  if (mine.loc.line == 0) mine.loc = e.loc;
  mine.min_bytes.override_with(e.min_bytes);
  mine.max_bytes.override_with(e.max_bytes);
  mine.probability.override_with(e.probability);
}

/// One field of ProfileLayer::each_field, merged and tested for emptiness by its kind.
template <class V>
void merge_field(Field<V>& mine, const Field<V>& later, std::string_view, std::vector<StrayRemoval>&) {
  mine.override_with(later);
}
template <class K, class V>
void merge_field(LayerMap<K, V>& mine, const LayerMap<K, V>& later, std::string_view null_for,
                 std::vector<StrayRemoval>& stray) {
  merge_map(mine, later, null_for, stray, [](V& m, const V& v) { stack(m, v); });
}
template <class V>
bool field_unset(const Field<V>& f) {
  return !f.has();
}
template <class K, class V>
bool field_unset(const LayerMap<K, V>& m) {
  return m.empty();
}

// Largest values a profile accepts before platform checks: sanity bounds against typos
// (an extra zero), not device limits.
constexpr int64_t kMaxBytes = 1LL << 32;      // ECN thresholds, bytes
constexpr int64_t kMaxCableM = 10000;         // metres
constexpr int64_t kMaxMs = 600000;            // watchdog times, ms (further limited in validation)
constexpr int64_t kMaxMtu = 65535;            // bytes (further limited per platform)
constexpr int64_t kMaxNicParam = 0x7fffffff;  // DCQCN firmware parameters (sysfs takes a signed int)

void read_mtu(const Reader& r, const YamlNode& n, ProfileLayer& l, LayerScope scope) {
  if (!r.check_map(n, "mtu", {"host", "switch", "rdma"})) return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    const std::string what = "mtu." + std::string(k);
    if (k == "host") l.mtu_host = r.integer(kv.value, what, 1, kMaxMtu);
    if (k == "switch") l.mtu_switch = r.integer(kv.value, what, 1, kMaxMtu);
    if (k == "rdma") {
      l.mtu_rdma = r.integer(kv.value, what, 1, kMaxMtu);
      if (const auto v = l.mtu_rdma.value; v && *v != 256 && *v != 512 && *v != 1024 && *v != 2048 && *v != 4096) {
        r.error(kv.value, "mtu.rdma: " + quote(kv.value.scalar()) + " is not a RoCE MTU (256, 512, 1024, 2048, 4096)");
        l.mtu_rdma.value.reset();
      }
    }
  }
  (void)scope;
}

void read_dscp_map(const Reader& r, const YamlNode& n, ProfileLayer& l) {
  if (!r.check_free_map(n, "dscp_to_priority")) return;
  for (const YamlEntry& kv : n.entries()) {
    const Field<int64_t> dscp = r.integer_key(kv.key, "dscp_to_priority: DSCP", 0, 63);
    if (kv.value.is_null()) {
      if (dscp.value) remove_entry(l.dscp_to_priority, static_cast<int>(*dscp.value), dscp.loc);
      continue;
    }
    const Field<int64_t> prio = r.integer(kv.value, key_path("dscp_to_priority", kv.key.scalar()), 0, 7);
    if (dscp.value && prio.value) set_entry(l.dscp_to_priority, static_cast<int>(*dscp.value), prio);
  }
}

void read_class(const Reader& r, const YamlNode& n, std::string_view name, Field<int64_t>& dscp, Field<int64_t>& prio) {
  if (!r.check_map(n, name, {"dscp", "priority"})) return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string what = key_path(name, kv.key.scalar());
    if (kv.key.scalar() == "dscp") dscp = r.integer(kv.value, what, 0, 63);
    if (kv.key.scalar() == "priority") prio = r.integer(kv.value, what, 0, 7);
  }
}

void read_ets(const Reader& r, const YamlNode& n, ProfileLayer& l) {
  if (!r.check_map(n, "ets", {"priority_to_tc", "tc"})) return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    if (k == "priority_to_tc") {
      Field<std::vector<int>> f;
      f.loc = r.loc(kv.value);
      if (!kv.value.is_sequence() || kv.value.size() != 8) {
        r.error(kv.value, "ets.priority_to_tc: expected a list of 8 traffic classes, one per priority 0-7");
        continue;
      }
      std::vector<int> tcs;
      for (const YamlNode& item : kv.value.items()) {
        const Field<int64_t> tc = r.integer(item, "ets.priority_to_tc", 0, 7);
        if (tc.value) tcs.push_back(static_cast<int>(*tc.value));
      }
      if (tcs.size() == 8) {
        f.value = tcs;
        l.priority_to_tc = f;
      }
    } else if (k == "tc") {
      if (!r.check_free_map(kv.value, "ets.tc")) continue;
      for (const YamlEntry& tkv : kv.value.entries()) {
        const Field<int64_t> tc = r.integer_key(tkv.key, "ets.tc: traffic class", 0, 7);
        if (!tc.value) continue;
        if (tkv.value.is_null()) {
          remove_entry(l.tc_bandwidth, static_cast<int>(*tc.value), tc.loc);
          continue;
        }
        const std::string what = key_path("ets.tc", tkv.key.scalar());
        Field<int64_t> bw;
        if (tkv.value.is_scalar() && tkv.value.scalar() == "strict") {
          bw.value = ProfileLayer::kStrict;
          bw.loc = r.loc(tkv.value);
        } else if (tkv.value.is_scalar() && !tkv.value.scalar().empty() &&
                   (tkv.value.scalar()[0] < '0' || tkv.value.scalar()[0] > '9') && tkv.value.scalar()[0] != '-') {
          r.error(tkv.value, what + ": expected a bandwidth percent or \"strict\", got " + quote(tkv.value.scalar()));
          continue;
        } else {
          bw = r.integer(tkv.value, what, 1, 100);
        }
        if (bw.value) set_entry(l.tc_bandwidth, static_cast<int>(*tc.value), bw);
      }
    }
  }
}

void read_ecn(const Reader& r, const YamlNode& n, ProfileLayer& l) {
  if (!r.check_map(n, "ecn", {"enabled", "tc"})) return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    if (k == "enabled") l.ecn_enabled = r.boolean(kv.value, "ecn.enabled");
    if (k != "tc") continue;
    if (!r.check_free_map(kv.value, "ecn.tc")) continue;
    for (const YamlEntry& tkv : kv.value.entries()) {
      const Field<int64_t> tc = r.integer_key(tkv.key, "ecn.tc: traffic class", 0, 7);
      const std::string where = key_path("ecn.tc", tkv.key.scalar());
      if (tc.value && tkv.value.is_null()) {
        remove_entry(l.ecn_tc, static_cast<int>(*tc.value), tc.loc);
        continue;
      }
      if (!tc.value || !r.check_map(tkv.value, where, {"min_bytes", "max_bytes", "probability"})) continue;
      EcnLayer e;
      e.loc = r.loc(tkv.key);
      for (const YamlEntry& ekv : tkv.value.entries()) {
        const std::string_view ek = ekv.key.scalar();
        const std::string what = key_path(where, ek);
        if (ek == "min_bytes") e.min_bytes = r.integer(ekv.value, what, 0, kMaxBytes);
        if (ek == "max_bytes") e.max_bytes = r.integer(ekv.value, what, 0, kMaxBytes);
        if (ek == "probability") e.probability = r.integer(ekv.value, what, 0, 100);
      }
      set_entry(l.ecn_tc, static_cast<int>(*tc.value), std::move(e));
    }
  }
}

void read_dcqcn(const Reader& r, const YamlNode& n, ProfileLayer& l) {
  if (!r.check_map(n, "dcqcn", {"enabled", "rp", "np"})) return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    if (k == "enabled") l.dcqcn_enabled = r.boolean(kv.value, "dcqcn.enabled");
    if (k == "rp" && r.check_map(kv.value, "dcqcn.rp", dcqcn_rp_names())) {
      for (const YamlEntry& pkv : kv.value.entries()) {
        const std::string name(pkv.key.scalar());
        if (pkv.value.is_null()) remove_entry(l.dcqcn_rp, name, r.loc(pkv.key));
        else set_entry(l.dcqcn_rp, name, r.integer(pkv.value, key_path("dcqcn.rp", name), 0, kMaxNicParam));
      }
    }
    if (k == "np" && r.check_map(kv.value, "dcqcn.np", {"min_time_between_cnps"})) {
      for (const YamlEntry& pkv : kv.value.entries())
        if (pkv.key.scalar() == "min_time_between_cnps")
          l.dcqcn_np_min_time_between_cnps = r.integer(pkv.value, "dcqcn.np.min_time_between_cnps", 0, kMaxNicParam);
    }
  }
}

// nccl.gid_index: the GID index NCCL's RoCE traffic uses, or "auto" to let NCCL 2.21 and later pick
// a RoCE v2 GID itself. GID tables hold at most 256 entries on the NICs we render for.
void read_nccl(const Reader& r, const YamlNode& n, ProfileLayer& l) {
  if (!r.check_map(n, "nccl", {"gid_index"})) return;
  for (const YamlEntry& kv : n.entries()) {
    if (kv.key.scalar() != "gid_index") continue;
    const std::string_view v = kv.value.is_scalar() ? kv.value.scalar() : std::string_view();
    if (v == "auto") {
      l.nccl_gid_index = Field<int64_t>{kNcclGidAuto, r.loc(kv.value)};
    } else if (!v.empty() && v.find_first_not_of("0123456789") != std::string_view::npos) {
      r.error(kv.value, "nccl.gid_index: expected a GID index 0-255 or \"auto\", got " + quote(v));
    } else {
      l.nccl_gid_index = r.integer(kv.value, "nccl.gid_index", 0, 255);
    }
  }
}

void read_watchdog(const Reader& r, const YamlNode& n, ProfileLayer& l) {
  if (!r.check_map(n, "pfc_watchdog", {"enabled", "poll_interval_ms", "detection_ms", "restoration_ms", "action"}))
    return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    const std::string what = "pfc_watchdog." + std::string(k);
    if (k == "enabled") l.watchdog_enabled = r.boolean(kv.value, what);
    if (k == "poll_interval_ms") l.watchdog_poll_interval_ms = r.integer(kv.value, what, 1, kMaxMs);
    if (k == "detection_ms") l.watchdog_detection_ms = r.integer(kv.value, what, 1, kMaxMs);
    if (k == "restoration_ms") l.watchdog_restoration_ms = r.integer(kv.value, what, 1, kMaxMs);
    if (k == "action") l.watchdog_action = r.choice(kv.value, what, {"drop", "forward", "alert"});
  }
}

void read_health(const Reader& r, const YamlNode& n, ProfileLayer& l) {
  if (!r.check_map(n, "health", {"pauses_per_s", "pause_time_percent", "retransmissions_per_s", "baseline_factor"}))
    return;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    const std::string what = "health." + std::string(k);
    // A 400G link carries at most some 600 million 64-byte frames a second: a pause rate above that
    // is a typo, and a threshold of 0 would make every pause a finding.
    if (k == "pauses_per_s") l.health_pauses_per_s = r.integer(kv.value, what, 1, 1'000'000'000);
    if (k == "pause_time_percent") l.health_pause_time_percent = r.integer(kv.value, what, 1, 100);
    if (k == "retransmissions_per_s") l.health_retransmissions_per_s = r.integer(kv.value, what, 1, 1'000'000'000);
    if (k == "baseline_factor") l.health_baseline_factor = r.integer(kv.value, what, 2, 1'000'000);
  }
}

}  // namespace

const std::vector<std::string_view>& dcqcn_rp_names() {
  static const std::vector<std::string_view> names(kDcqcnRpParams.begin(), kDcqcnRpParams.end());
  return names;
}

std::string profile_entity(std::string_view name) { return "profile:" + std::string(name); }

namespace {

/// Where a key may be written (bits).
enum KeyPlace : unsigned { kInProfile = 1, kInOverrides = 2, kPerPort = 4 };
constexpr unsigned kProfileAndOverrides = kInProfile | kInOverrides;
constexpr unsigned kAnywhere = kInProfile | kInOverrides | kPerPort;

/// A layer's YAML key: where it may be written and how it is read. The one list of keys: the
/// allowed keys of each scope, and their order in messages, come from it. QoS maps, ETS, ECN and the
/// watchdog are device-wide on every platform (global maps on EOS and NVUE), so a port may only
/// change what really is per port.
struct LayerKey {
  std::string_view key;
  unsigned places;
  void (*read)(const Reader&, const YamlNode&, ProfileLayer&, LayerScope);
};

const std::vector<LayerKey>& layer_keys() {
  static const std::vector<LayerKey> keys = {
      {"description", kInProfile,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) {
         l.description = r.string(v, "description");
       }},
      {"extends", kInProfile,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { l.extends = r.string(v, "extends"); }},
      {"mtu", kAnywhere, read_mtu},
      {"trust", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) {
         l.trust = r.choice(v, "trust", {"dscp", "pcp"});
       }},
      {"dscp_to_priority", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { read_dscp_map(r, v, l); }},
      {"lossless_priorities", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) {
         l.lossless_priorities = r.int_list(v, "lossless_priorities", 0, 7);
       }},
      {"roce", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) {
         read_class(r, v, "roce", l.roce_dscp, l.roce_priority);
       }},
      {"cnp", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) {
         read_class(r, v, "cnp", l.cnp_dscp, l.cnp_priority);
       }},
      {"ets", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { read_ets(r, v, l); }},
      {"ecn", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { read_ecn(r, v, l); }},
      {"dcqcn", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { read_dcqcn(r, v, l); }},
      {"pfc_watchdog", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { read_watchdog(r, v, l); }},
      {"cable_length_m", kAnywhere,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) {
         l.cable_length_m = r.integer(v, "cable_length_m", 0, kMaxCableM);
       }},
      {"nccl", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { read_nccl(r, v, l); }},
      {"health", kProfileAndOverrides,
       [](const Reader& r, const YamlNode& v, ProfileLayer& l, LayerScope) { read_health(r, v, l); }},
  };
  return keys;
}

unsigned place_of(LayerScope scope) {
  switch (scope) {
    case LayerScope::profile: return kInProfile;
    case LayerScope::overrides: return kInOverrides;
    case LayerScope::port: return kPerPort;
  }
  return 0;
}

/// The keys a scope allows, in the table's order.
std::vector<std::string_view> keys_in(LayerScope scope) {
  std::vector<std::string_view> out;
  for (const LayerKey& k : layer_keys())
    if ((k.places & place_of(scope)) != 0) out.push_back(k.key);
  return out;
}

}  // namespace

ProfileLayer read_layer(const Reader& r, const YamlNode& n, LayerScope scope) {
  ProfileLayer l;
  static const std::vector<std::string_view> profile_keys = keys_in(LayerScope::profile);
  static const std::vector<std::string_view> override_keys = keys_in(LayerScope::overrides);
  static const std::vector<std::string_view> port_keys = keys_in(LayerScope::port);

  const char* where = scope == LayerScope::profile ? "profile" : "overrides";
  if (scope == LayerScope::port) {
    if (!r.check_free_map(n, "port overrides")) return l;
    bool ok = true;
    for (const YamlEntry& kv : n.entries()) {
      if (std::find(port_keys.begin(), port_keys.end(), kv.key.scalar()) != port_keys.end()) continue;
      std::string only;
      for (size_t i = 0; i < port_keys.size(); ++i)
        only += (i == 0 ? "" : i + 1 == port_keys.size() ? " and " : ", ") + std::string(port_keys[i]);
      r.error(kv.key, "port overrides: " + quote(kv.key.scalar()) + " cannot be set per port (only " + only +
                          "; QoS is device-wide)");
      ok = false;
    }
    if (!ok) return l;
  } else if (!r.check_map(n, where, scope == LayerScope::profile ? profile_keys : override_keys)) {
    return l;
  }

  for (const YamlEntry& kv : n.entries())
    for (const LayerKey& k : layer_keys())
      if (k.key == kv.key.scalar()) k.read(r, kv.value, l, scope);
  return l;
}

std::vector<StrayRemoval> ProfileLayer::merge(const ProfileLayer& later) {
  std::vector<StrayRemoval> stray;
  each_field(
      [&](auto member, std::string_view null_for) { merge_field(this->*member, later.*member, null_for, stray); });
  return stray;
}

bool ProfileLayer::unset() const {
  bool unset = true;
  each_field([&](auto member, std::string_view) { unset = unset && field_unset(this->*member); });
  return unset;
}

}  // namespace fabricctl
