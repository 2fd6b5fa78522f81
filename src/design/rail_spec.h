// The input of `fabricctl design rail-optimized` (docs/design.md): a rail-optimized fabric described
// by its sizes, speeds, cable lengths, platforms per tier and profile, read with every value's
// file:line:col so that the design's own errors point at what the user wrote.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "design/name_template.h"
#include "model/yaml_reader.h"

namespace fabricctl::design {

/// How a tier's devices are reached: the first address of a run (each next device the next address,
/// by position), or a pattern such as "{name}.mgmt.example.net". Neither: the inventory's defaults.
struct AddressRule {
  Loc loc;
  std::string first;     // an IPv4 or IPv6 address, as written
  NameTemplate pattern;  // when `first` is empty
  [[nodiscard]] bool set() const { return !first.empty() || !pattern.empty(); }
};

/// What every tier has: its devices' names, groups and addresses.
struct Tier {
  Loc loc;  // the tier's mapping
  NameTemplate name;
  Loc name_loc;
  std::vector<Field<std::string>> groups;
  AddressRule address;
  /// Platform by position: hosts one, leaves by rail, spines by spine, cycling through the list.
  std::vector<Field<std::string>> platforms;
  /// Port names in order, when the platform's own numbering (PlatformTraits::nth_port) is not the
  /// hardware's: a list, or a pattern of {port} (from 1) and {index} (from 0). Neither: the platform's.
  std::vector<Field<std::string>> ports;
  NameTemplate port_pattern;
};

struct HostTier : Tier {
  Field<int64_t> count;                          // servers in the fabric
  Field<int64_t> nics;                           // RoCE NICs a server
  std::vector<Field<std::string>> rdma_devices;  // by NIC; empty: the platform's
};

struct LeafTier : Tier {
  Field<int64_t> radix;           // front-panel ports a leaf
  Field<int64_t> pod_hosts;       // servers under one leaf of each rail; absent: half the radix (1:1)
  bool platforms_by_pod = false;  // `platforms_by: pod`: the list cycles pod by pod, not rail by rail
};

struct SpineTier : Tier {
  Field<int64_t> count;
  Field<int64_t> radix;  // absent: as many ports as the leaves need (a chassis)
};

struct Cable {
  Field<std::string> speed;  // as the inventory writes it ("400G")
  int64_t speed_mbps = 0;
  Field<int64_t> length_m;
};

struct RailSpec {
  YamlDoc doc;            // the spec's tree: `mgmt` and `groups` are copied from it into the inventory
  std::string file_name;  // as given on the command line, for the header of what it makes
  std::string description;
  Field<std::string> profile;
  YamlNode mgmt;    // the inventory's defaults.mgmt, as written
  YamlNode groups;  // the inventory's groups, as written
  std::map<std::string, Loc, std::less<>> group_names;
  Field<int64_t> rails;
  HostTier hosts;
  LeafTier leaves;
  SpineTier spines;
  Cable host_cable, uplink_cable;
  Field<int64_t> dac_max_m;  // a cable this long or shorter is copper (DAC); longer, two optics
  /// `devices: {name: {groups: [...]}}`: groups a device joins besides its tier's, by device name.
  std::map<std::string, std::pair<Loc, std::vector<Field<std::string>>>, std::less<>> extra_groups;
};

/// Longest passive copper cable (DAC) at 400G and 800G in vendors' catalogues, metres: the default of
/// `cables.dac_max_m`, which decides whether a link counts two optics.
inline constexpr int64_t kDefaultDacMaxM = 3;

/// Reads a design spec. Every mistake goes to `diags` (file:line:col, the value quoted); nullopt if
/// there was any.
std::optional<RailSpec> read_rail_spec(const YamlDoc& doc, Diags& diags);

}  // namespace fabricctl::design
