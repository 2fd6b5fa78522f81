// The inventory: devices, their ports, groups and links, read from inventory/<name>/*.yaml.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/profile.h"
#include "platform/traits.h"

namespace fabricctl {

/// How fabricctl reaches a device. Secrets are never stored: only the name of an environment
/// variable that holds a password.
struct MgmtSpec {
  Field<std::string> address;
  Field<int64_t> port;
  Field<std::string> user;
  Field<std::string> key;           // path to a private key file
  Field<bool> agent;                // use ssh-agent
  Field<std::string> password_env;  // name of the environment variable holding the password
  Field<std::string> host_key;      // pinned host key: "SHA256:<base64>" or "<type> <base64>"
  Field<std::string> fabricctl;     // hosts: the fabricctl binary the controller runs there (host collect)

  void merge(const MgmtSpec& later);
};

/// A switch's hardware as the inventory states it, in its platform's words: the mapping named after the
/// platform (`sonic:`, `eos:`) on `defaults`, groups and devices, holding the keys the platform declares
/// (PlatformTraits::inventory_keys; docs/inventory.md "Switch hardware"). Later layers win key by key:
/// defaults, then the device's groups in list order, then the device.
struct HardwareMapping {
  Loc loc;  // where the mapping was given
  std::map<std::string, Field<HardwareValue>, std::less<>> values;
};

struct HardwareSpec {
  std::map<Platform, HardwareMapping> mappings;  // by the platform that names it

  void merge(const HardwareSpec& later);
};

struct PortSpec {
  Field<std::string> name;
  Field<int64_t> speed_mbps;
  Field<std::string> rdma_device;
  Field<int64_t> rdma_port;
  Field<int64_t> rail;
  Field<std::string> description;
  /// What `overrides:` sets for this port (MTU and cable length only), or null when it has none.
  /// Shared and absent by default: a ProfileLayer is over 1 KB and a large fabric has 400,000 ports,
  /// nearly all without overrides.
  std::shared_ptr<const ProfileLayer> overrides;
};

struct DeviceSpec {
  Field<std::string> name;
  Field<std::string> role;
  Field<std::string> platform;
  Field<std::string> profile;
  Field<int64_t> rail;
  std::vector<Field<std::string>> groups;
  MgmtSpec mgmt;
  HardwareSpec hardware;
  ProfileLayer overrides;
  std::vector<PortSpec> ports;
};

struct GroupSpec {
  Field<std::string> name;
  Field<std::string> description;
  Field<std::string> profile;
  HardwareSpec hardware;
  ProfileLayer overrides;
};

struct LinkSpec {
  Loc loc;
  Field<std::string> a;  // "device:port"
  Field<std::string> b;
  Field<int64_t> speed_mbps;
  Field<int64_t> cable_length_m;
};

struct Inventory {
  Loc defaults_loc;  // where `defaults` was given; it may appear in one file only
  Field<std::string> default_profile;
  MgmtSpec default_mgmt;
  HardwareSpec default_hardware;
  std::vector<GroupSpec> groups;
  std::vector<DeviceSpec> devices;
  std::vector<LinkSpec> links;
};

/// Entities (Diags::fail) whose failure explains later diagnostics, which are then not printed.
/// The inventory lost content: a file could not be read or parsed, or a section of one (devices,
/// groups, links) is not readable, so a name it may have defined is unknown for that reason.
inline constexpr std::string_view kInventoryIncomplete = "inventory";
/// A link has an error in an end: the device it was meant for may be any, so none is "on no link".
inline constexpr std::string_view kLinksIncomplete = "links";
/// A device whose definition has an error (or is defined twice): what refers to it (a link to one
/// of its ports) is not reported again.
std::string device_entity(std::string_view name);
/// A group whose definition has an error.
std::string group_entity(std::string_view name);

/// Reads one inventory document into `inv` (several files of one directory add up).
void read_inventory_doc(const YamlDoc& doc, Inventory& inv, Diags& diags);

/// Reads an inventory: a directory of *.yaml files (sorted by name) or a single file.
std::optional<Inventory> load_inventory(const std::filesystem::path& path, Diags& diags);

/// Parses a speed such as "400G" into Mb/s.
std::optional<int64_t> parse_speed(std::string_view s);
/// Formats Mb/s as "400G" (or "2500M").
std::string format_speed(int64_t mbps);

}  // namespace fabricctl
