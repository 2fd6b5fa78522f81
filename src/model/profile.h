// Profiles: declarative, vendor-neutral lossless-fabric intent, read from profiles/<name>.yaml.
// A profile, a group's overrides, a device's overrides and a port's overrides are all the same
// kind of object, a ProfileLayer in which every field is optional; resolving stacks the layers.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/yaml_reader.h"
#include "state/desired.h"

namespace fabricctl {

/// Where a layer appears; ports may override only what is truly per port.
enum class LayerScope { profile, overrides, port };

/// A map merged per key (dscp_to_priority, ets.tc, ecn.tc, dcqcn.rp). Besides the keys it sets, a
/// layer may remove a key it inherits by writing null for it (`26: null`, `26: ~`, `26:`).
template <class K, class V>
struct LayerMap {
  std::map<K, V> entries;    // what the layer sets; after merging, what the stack sets
  std::map<K, Loc> removed;  // the keys the layer removes, where each null was written (its key)

  /// True when the layer neither sets nor removes a key.
  [[nodiscard]] bool empty() const { return entries.empty() && removed.empty(); }
};

/// A null map entry that had nothing to remove when its layer was merged: no layer below it set
/// that key. Reported by whoever merges, who knows what "below" was.
struct StrayRemoval {
  Loc loc;            // the key the null was written for
  std::string entry;  // as messages name it: `dscp_to_priority: null for DSCP "25"`
};

struct EcnLayer {
  Loc loc;
  Field<int64_t> min_bytes;
  Field<int64_t> max_bytes;
  Field<int64_t> probability;
};

/// One layer of intent. Unset fields fall through to the layer below.
struct ProfileLayer {
  Field<std::string> description;
  Field<std::string> extends;
  Field<int64_t> mtu_host;
  Field<int64_t> mtu_switch;
  Field<int64_t> mtu_rdma;
  Field<std::string> trust;
  LayerMap<int, Field<int64_t>> dscp_to_priority;  // merged per DSCP
  Field<std::vector<int>> lossless_priorities;
  Field<int64_t> roce_dscp;
  Field<int64_t> roce_priority;
  Field<int64_t> cnp_dscp;
  Field<int64_t> cnp_priority;
  Field<std::vector<int>> priority_to_tc;
  LayerMap<int, Field<int64_t>> tc_bandwidth;  // merged per TC; kStrict marks a strict TC
  Field<bool> ecn_enabled;
  LayerMap<int, EcnLayer> ecn_tc;  // merged per TC, field by field
  Field<bool> dcqcn_enabled;
  LayerMap<std::string, Field<int64_t>> dcqcn_rp;  // mlx5 roce_rp parameter name -> value
  Field<int64_t> dcqcn_np_min_time_between_cnps;
  Field<bool> watchdog_enabled;
  Field<int64_t> watchdog_poll_interval_ms;
  Field<int64_t> watchdog_detection_ms;
  Field<int64_t> watchdog_restoration_ms;
  Field<std::string> watchdog_action;
  Field<int64_t> cable_length_m;
  Field<int64_t> nccl_gid_index;  // kNcclGidAuto for "auto"
  Field<int64_t> health_pauses_per_s;
  Field<int64_t> health_pause_time_percent;
  Field<int64_t> health_retransmissions_per_s;
  Field<int64_t> health_baseline_factor;

  static constexpr int64_t kStrict = -1;

  /// Every field that stacks, once, as a member pointer: merge() and unset() walk this list, so a
  /// field added above and here is merged and counted with nothing else to keep in step (reading
  /// goes by YAML key, profile.cpp's key table). A map comes with how a stray null of it is named.
  /// `extends` is not here: it names the parent of the layer that wrote it and is not inherited.
  template <class Visit>
  static void each_field(Visit&& v) {
    v(&ProfileLayer::description, "");
    v(&ProfileLayer::mtu_host, "");
    v(&ProfileLayer::mtu_switch, "");
    v(&ProfileLayer::mtu_rdma, "");
    v(&ProfileLayer::trust, "");
    v(&ProfileLayer::dscp_to_priority, "dscp_to_priority: null for DSCP");
    v(&ProfileLayer::lossless_priorities, "");
    v(&ProfileLayer::roce_dscp, "");
    v(&ProfileLayer::roce_priority, "");
    v(&ProfileLayer::cnp_dscp, "");
    v(&ProfileLayer::cnp_priority, "");
    v(&ProfileLayer::priority_to_tc, "");
    v(&ProfileLayer::tc_bandwidth, "ets.tc: null for traffic class");
    v(&ProfileLayer::ecn_enabled, "");
    v(&ProfileLayer::ecn_tc, "ecn.tc: null for traffic class");
    v(&ProfileLayer::dcqcn_enabled, "");
    v(&ProfileLayer::dcqcn_rp, "dcqcn.rp: null for");
    v(&ProfileLayer::dcqcn_np_min_time_between_cnps, "");
    v(&ProfileLayer::watchdog_enabled, "");
    v(&ProfileLayer::watchdog_poll_interval_ms, "");
    v(&ProfileLayer::watchdog_detection_ms, "");
    v(&ProfileLayer::watchdog_restoration_ms, "");
    v(&ProfileLayer::watchdog_action, "");
    v(&ProfileLayer::cable_length_m, "");
    v(&ProfileLayer::nccl_gid_index, "");
    v(&ProfileLayer::health_pauses_per_s, "");
    v(&ProfileLayer::health_pause_time_percent, "");
    v(&ProfileLayer::health_retransmissions_per_s, "");
    v(&ProfileLayer::health_baseline_factor, "");
  }

  /// Stacks `later` on top of this layer: every field it sets wins, and every map key it removes
  /// is removed. Returns the removals of `later` that found nothing to remove, for the caller to
  /// report as errors. Removals are applied, not stacked: this layer's own `removed` is unchanged.
  [[nodiscard]] std::vector<StrayRemoval> merge(const ProfileLayer& later);
  /// True when the layer sets nothing and removes nothing (`extends` aside): overrides that say nothing.
  [[nodiscard]] bool unset() const;
};

/// The entity (Diags::fail) of a profile whose file could not be read or parsed: a device naming
/// it is not told the profile is unknown.
std::string profile_entity(std::string_view name);

/// Reads a layer from a YAML mapping. Unknown keys, wrong types and out-of-range values are
/// reported; valid fields are kept so that one run reports as much as possible.
ProfileLayer read_layer(const Reader& r, const YamlNode& n, LayerScope scope);

/// A profile file, before `extends` is resolved.
struct ProfileSource {
  std::string name;  // file stem
  Loc loc;           // the file itself (line 1)
  ProfileLayer layer;
};

/// The DCQCN reaction-point parameter names a profile may set, in mlx5's spelling.
const std::vector<std::string_view>& dcqcn_rp_names();

}  // namespace fabricctl
