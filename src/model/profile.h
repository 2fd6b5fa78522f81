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
  std::map<int, Field<int64_t>> dscp_to_priority;  // merged per DSCP
  Field<std::vector<int>> lossless_priorities;
  Field<int64_t> roce_dscp;
  Field<int64_t> roce_priority;
  Field<int64_t> cnp_dscp;
  Field<int64_t> cnp_priority;
  Field<std::vector<int>> priority_to_tc;
  std::map<int, Field<int64_t>> tc_bandwidth;  // merged per TC; kStrict marks a strict TC
  Field<bool> ecn_enabled;
  std::map<int, EcnLayer> ecn_tc;  // merged per TC, field by field
  Field<bool> dcqcn_enabled;
  std::map<std::string, Field<int64_t>> dcqcn_rp;  // mlx5 roce_rp parameter name -> value
  Field<int64_t> dcqcn_np_min_time_between_cnps;
  Field<bool> watchdog_enabled;
  Field<int64_t> watchdog_poll_interval_ms;
  Field<int64_t> watchdog_detection_ms;
  Field<int64_t> watchdog_restoration_ms;
  Field<std::string> watchdog_action;
  Field<int64_t> cable_length_m;
  Field<int64_t> nccl_gid_index;  // kNcclGidAuto for "auto"

  static constexpr int64_t kStrict = -1;

  /// Stacks `later` on top of this layer: every field it sets wins.
  void merge(const ProfileLayer& later);
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
