// Platform adapters: the only place that knows a NOS's or NIC's native vocabulary and units.
// Each platform is one row of a table: its limits, its port naming, and how a device's desired
// state becomes the context its Mustache templates render.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "state/desired.h"
#include "state/fix.h"

namespace fabricctl {

/// One rendered file of a device, written as OUT/<device>/<file>. Configuration that is data (SONiC
/// CONFIG_DB, the host's NIC state) is built as a JSON value by the adapter and written as its dump;
/// CLI text (EOS, NVUE, apply.sh) is laid out by a Mustache template from the adapter's context.
struct ArtifactSpec {
  std::string_view file;                                // e.g. "config_db.json"
  std::string_view template_name;                       // templates/<platform>/<template_name>; "" for data
  std::string (*data)(const DeviceDesired&) = nullptr;  // the artifact's text, when it is data

  /// CLI text rendered from templates/<platform>/<template_name> with the platform's context.
  static constexpr ArtifactSpec from_template(std::string_view template_name, std::string_view file) {
    return {file, template_name, nullptr};
  }
  /// A document built by the adapter; `text` returns its final text (e.g. a JSON dump).
  static constexpr ArtifactSpec from_data(std::string_view file, std::string (*text)(const DeviceDesired&)) {
    return {file, {}, text};
  }
};

struct PlatformAdapter {
  Platform platform;  // its name and label: kPlatformNames (state/platform_id.h)
  Role role;          // the only role a device of this platform can have
  int mtu_min;        // L3 MTU range the platform accepts, bytes
  int mtu_max;
  std::string_view port_pattern;                 // ECMAScript regex a port name must match (checked before use)
  std::string_view port_example;                 // shown in the error when a name does not match
  std::vector<WatchdogAction> watchdog_actions;  // actions the platform can be configured with
  std::vector<ArtifactSpec> artifacts;
  /// Builds the template context for one device. Values are final native text: units converted,
  /// lists formatted, so templates stay free of logic. nullptr when every artifact is data.
  nlohmann::json (*context)(const DeviceDesired& device);
  /// Phrases a fix as commands that can be pasted and run on the device, one per line (fix.cpp).
  std::string (*fix)(const Fix& fix);

  /// As written in the inventory: sonic, eos, nvue, linux.
  [[nodiscard]] std::string_view name() const { return to_string(platform); }
};

/// Every platform, in a stable order.
const std::vector<PlatformAdapter>& platforms();
/// The adapter of one platform.
const PlatformAdapter& adapter(Platform p);
/// Looks an adapter up by its inventory name; nullptr if unknown.
const PlatformAdapter* find_platform(std::string_view name);

// Per-platform context builders (src/platform/<name>/context.cpp).
nlohmann::json eos_context(const DeviceDesired& device);
nlohmann::json nvue_context(const DeviceDesired& device);
nlohmann::json linux_context(const DeviceDesired& device);

// Per-platform fix phrasing (src/platform/<name>/fix.cpp).
std::string sonic_fix(const Fix& fix);
std::string eos_fix(const Fix& fix);
std::string nvue_fix(const Fix& fix);
std::string linux_fix(const Fix& fix);

/// A fix phrased for the platform of its device: adapter(fix.device->platform).fix(fix).
std::string fix_text(const Fix& fix);

// Per-platform data artifacts: the text of a document the adapter builds.
std::string sonic_config_db_json(const DeviceDesired& device);        // src/platform/sonic/config_db.cpp
std::string sonic_config_db_patch_json(const DeviceDesired& device);  // src/platform/sonic/config_db_patch.cpp
std::string linux_nic_state_json(const DeviceDesired& device);        // src/platform/linux/nic_state.cpp

/// Context entries shared by every platform: device name, profile, fabricctl version banner.
nlohmann::json common_context(const DeviceDesired& device);

/// Marks every element of a JSON array of objects with "last": true/false, so that templates can
/// separate items (e.g. commas in JSON) without logic.
void mark_last(nlohmann::json& array);

}  // namespace fabricctl
