// Juniper Junos's row of the platform table (platform/platform.h).
#include "platform/junos/config.h"
#include "platform/platform.h"

namespace fabricctl {
namespace {

/// The index-th front-panel port of FPC 0, PIC 0: et-0/0/0, et-0/0/1, ...
std::string nth_port(int index) { return "et-0/0/" + std::to_string(index); }

/// The desired statements as data (a list of strings), built once per device and printed by config.set.
Document document(const DeviceDesired& device) {
  Document out = Document::array();
  for (const std::string& s : junos::desired_statements(device)) out.push_back(s);
  return out;
}

/// config.set: `set` lines, what `load set terminal` takes.
std::string config_set(const DeviceDesired& device, const Document& statements) {
  return junos::set_text(device, statements.get<junos::Statements>());
}

void hardware(const HardwareValues& given, SwitchHardware& out) {
  if (const auto it = given.find("ecn_buffer_kbytes"); it != given.end())
    out.ecn_buffer_bytes = static_cast<uint64_t>(std::get<std::vector<int>>(it->second).front()) * 1024;
}

}  // namespace

PlatformAdapter junos_adapter() {
  return {
      .traits =
          {
              .platform = Platform::junos,
              .role = Role::switch_,
              // The IP packet, as Linux counts it: the media MTU 256-9216 (EX; UNCONFIRMED on QFX) less
              // the 14-byte Ethernet header (docs/reference-junos.md, "Interface MTU").
              .mtu_min = 256 - junos::kMediaMtuOverhead,
              .mtu_max = 9216 - junos::kMediaMtuOverhead,
              .port_pattern = R"((et|xe|ge)-[0-9]{1,2}/[0-9]{1,2}/[0-9]{1,3}(:[0-9]{1,2})?)",
              .port_example = "et-0/0/0",
              .nth_port = nth_port,
              .watchdog_actions = {WatchdogAction::drop, WatchdogAction::forward},
              .trust_modes = {Trust::dscp, Trust::pcp},
              .priority_is_queue = true,
              // `detection` counts poll intervals; `recovery` is in ms, but the trait holds both to whole
              // polls (a stricter rule than Junos's).
              .watchdog_in_poll_intervals = true,
              .ecn_in_buffer_percent = true,
              .inventory_keys = {{.name = "ecn_buffer_kbytes",
                                  .min = 1,
                                  .max = 1 << 20,
                                  .list_what = "KiB of queue buffer",
                                  .single = true}},
              .hardware = hardware,
          },
      .document = document,
      .artifacts = {ArtifactSpec::from_data("config.set", config_set)},
      .fix = junos_fix,
      .collector = junos_collector(),
      .applier = junos_applier(),
  };
}

}  // namespace fabricctl
