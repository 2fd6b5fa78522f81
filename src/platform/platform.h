// Platform adapters: the only place that knows a NOS's or NIC's native vocabulary and units.
// Each platform is one row of a table (its traits, platform/traits.h, and how a device's desired state
// is rendered, read and changed), which the platform builds in platform/<p>/adapter.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "platform/traits.h"
#include "platform/transaction.h"
#include "state/desired.h"
#include "state/fix.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl {

/// A device's configuration as data, where the platform has it (SONiC: its CONFIG_DB; a Linux host: its
/// NIC state): built once per device by the adapter's `document` and shared by every artifact and the
/// template context, so that they cannot disagree and a large fabric builds it once.
using Document = nlohmann::ordered_json;

/// One rendered file of a device, written as OUT/<device>/<file>. Configuration that is data is the
/// device's Document (or is computed from it, like the SONiC patch) and written as a dump; CLI text
/// (EOS, NVUE, apply.sh) is laid out by a Mustache template from the adapter's context.
struct ArtifactSpec {
  using Text = std::string (*)(const DeviceDesired&, const Document&);
  std::string_view file;           // e.g. "config_db.json"
  std::string_view template_name;  // templates/<platform>/<template_name>; "" for data
  Text data = nullptr;             // the artifact's text, when it is data

  /// CLI text rendered from templates/<platform>/<template_name> with the platform's context.
  static constexpr ArtifactSpec from_template(std::string_view template_name, std::string_view file) {
    return {file, template_name, nullptr};
  }
  /// Data: `text` returns its final text (e.g. a JSON dump) from the device's document.
  static constexpr ArtifactSpec from_data(std::string_view file, Text text) { return {file, {}, text}; }
};

/// What a collection read from one device, by file name: raw/<device>/<file>, the outputs saved so that
/// an audit can be replayed (`collect --from-raw`).
using RawOutputs = std::map<std::string, std::string, std::less<>>;

/// One command of a platform's collection. Its text is fixed: no value from a device is ever part of
/// it, and of the inventory only a per-port command's port name, which the inventory's reader holds to
/// the platform's port pattern and which is shell-quoted, so nothing can be injected through it. Made by
/// the functions below, so that every field is set.
struct CollectCommand {
  std::string_view file;     // raw/<device>/<file>
  std::string_view command;  // as the device's SSH exec takes it
  /// What of the output may be kept in the raw file: what the NOS prints of secrets removed. nullptr
  /// keeps all of it (the command prints none).
  std::string (*keep)(std::string_view output);
  /// A counter command. A device may lack it (an older release, a platform without the counter): when
  /// it exits non-zero, or a raw directory has no file of it, its output is absent and the ports have
  /// none of its counters (never zeros); every other command's failure fails the device. An operation
  /// that judges no counter (plan, apply, verify) does not run it (ops::CollectOptions::counters).
  bool counter;
  /// Run once per port of the device's inventory: "{port}" in `command` is the port's name
  /// (shell-quoted), in `file` the name with '/' as '_' (command_runs()).
  bool per_port;
};

/// A command whose output the device's state needs: its failure fails the device.
constexpr CollectCommand required_command(std::string_view file, std::string_view command,
                                          std::string (*keep)(std::string_view) = nullptr) {
  return {file, command, keep, false, false};
}
/// A counter command (CollectCommand::counter).
constexpr CollectCommand counter_command(std::string_view file, std::string_view command) {
  return {file, command, nullptr, true, false};
}
/// A counter command the NOS has only per port (CollectCommand::per_port).
constexpr CollectCommand per_port_counter_command(std::string_view file, std::string_view command) {
  return {file, command, nullptr, true, true};
}

/// The read side of a platform: the commands a live collection runs, and how their (kept) outputs
/// become the device's observed state. No commands: no collector for the platform yet.
struct Collector {
  std::vector<CollectCommand> commands;
  Expected<DeviceObserved> (*observe)(std::string_view device, const RawOutputs& raw) = nullptr;
  /// For a platform whose command names the device's own values (a host's fabricctl, its ports): the
  /// command line for one device, every value checked and shell-quoted. nullptr: `command` as is.
  std::string (*command_line)(const CollectCommand& command, const DeviceDesired& device,
                              std::string_view fabricctl) = nullptr;
  /// The device's login shell runs lists (bash): its counter commands go in one exec
  /// (ops/command_batch.h). The others each have their own, so that a failure names its command.
  bool shell_lists = false;
};

/// A platform's row: its traits (what the model reads), and how its devices are rendered, read and
/// changed. Each platform builds its own in platform/<p>/adapter.cpp; platforms() lists them.
struct PlatformAdapter {
  PlatformTraits traits{};
  /// Builds the device's Document; nullptr for a platform whose configuration is only CLI text.
  Document (*document)(const DeviceDesired& device) = nullptr;
  std::vector<ArtifactSpec> artifacts{};
  /// Builds the template context for one device (from its Document, where the platform has one).
  /// Values are final native text: units converted, lists formatted, so templates stay free of logic.
  /// nullptr when every artifact is data.
  nlohmann::json (*context)(const DeviceDesired& device, const Document& document) = nullptr;
  /// Phrases a fix as commands that can be pasted and run on the device, one per line (fix.cpp).
  std::string (*fix)(const Fix& fix) = nullptr;
  /// Reads the device's state (<platform>/collect.cpp).
  Collector collector{};
  /// Changes the device: its native change and its transaction (<platform>/apply.cpp).
  Applier applier{};

  /// As written in the inventory: sonic, eos, nvue, linux, nxos, junos.
  [[nodiscard]] std::string_view name() const { return traits.name(); }
  [[nodiscard]] Platform platform() const { return traits.platform; }
};

/// Every platform, in a stable order.
const std::vector<PlatformAdapter>& platforms();
/// The adapter of one platform.
const PlatformAdapter& adapter(Platform p);
/// Looks an adapter up by its inventory name; nullptr if unknown.
const PlatformAdapter* find_platform(std::string_view name);
/// The device's Document, or null when its platform has none.
Document document_of(const PlatformAdapter& a, const DeviceDesired& device);

// Per-platform context builders (src/platform/<name>/context.cpp).
nlohmann::json eos_context(const DeviceDesired& device);
nlohmann::json nvue_context(const DeviceDesired& device);
nlohmann::json linux_context(const DeviceDesired& device);                             // from its own NIC state
nlohmann::json linux_context(const DeviceDesired& device, const Document& nic_state);  // from the one given

// Per-platform fix phrasing (src/platform/<name>/fix.cpp).
std::string sonic_fix(const Fix& fix);
std::string eos_fix(const Fix& fix);
std::string nvue_fix(const Fix& fix);
std::string linux_fix(const Fix& fix);
std::string nxos_fix(const Fix& fix);
std::string junos_fix(const Fix& fix);

/// A fix phrased for the platform of its device: adapter(fix.device->platform).fix(fix).
std::string fix_text(const Fix& fix);

// Per-platform documents and data artifacts: the Document the adapter builds, and texts made from it.
Document sonic_config_db(const DeviceDesired& device);                                     // sonic/config_db.cpp
std::string sonic_config_db_json(const DeviceDesired& device, const Document& db);         // sonic/config_db.cpp
std::string sonic_config_db_patch_json(const DeviceDesired& device, const Document& db);   // sonic/config_db_patch.cpp
Document linux_nic_state(const DeviceDesired& device);                                     // linux/nic_state.cpp
std::string linux_nic_state_json(const DeviceDesired& device, const Document& nic_state);  // linux/nic_state.cpp
std::string linux_nccl_conf(const DeviceDesired& device, const Document& nic_state);       // linux/nccl_conf.cpp

// Collectors, one per platform that has one.
Collector sonic_collector();  // sonic/collect.cpp
Collector eos_collector();    // eos/collect.cpp
Collector nvue_collector();   // nvue/collect.cpp
Collector linux_collector();  // linux/collect.cpp
Collector nxos_collector();   // nxos/collect.cpp
Collector junos_collector();  // junos/collect.cpp

// Appliers, one per platform (<platform>/apply.cpp).
Applier sonic_applier();
Applier eos_applier();
Applier nvue_applier();
Applier linux_applier();
Applier nxos_applier();
Applier junos_applier();

// The rows, one per platform (<platform>/adapter.cpp).
PlatformAdapter sonic_adapter();
PlatformAdapter eos_adapter();
PlatformAdapter nvue_adapter();
PlatformAdapter linux_adapter();
PlatformAdapter nxos_adapter();
PlatformAdapter junos_adapter();

/// Context entries shared by every platform: device name, profile, fabricctl version banner.
nlohmann::json common_context(const DeviceDesired& device);

/// Marks every element of a JSON array of objects with "last": true/false, so that templates can
/// separate items (e.g. commas in JSON) without logic.
void mark_last(nlohmann::json& array);

}  // namespace fabricctl
