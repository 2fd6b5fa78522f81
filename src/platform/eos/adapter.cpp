// Arista EOS's row of the platform table (platform/platform.h).
#include "platform/eos/hardware.h"
#include "platform/platform.h"

namespace fabricctl {
namespace {

/// The index-th front-panel port, unbroken out: EOS numbers ports from 1, lanes from 1 (Ethernet1/1).
std::string nth_port(int index) { return "Ethernet" + std::to_string(index + 1) + "/1"; }

/// `eos: {chip}`: the chip family decides whether egress queues are virtual output queues.
void hardware(const HardwareValues& given, SwitchHardware& out) {
  const auto chip = given.find("chip");
  const std::string_view name = chip != given.end() ? std::get<std::string>(chip->second) : eos::kDefaultChip;
  for (const eos::ChipFamily& c : eos::kChipFamilies)
    if (c.name == name) out.voq = c.voq;
}

/// EOS's configuration is CLI text only: its template context needs no Document.
nlohmann::json context(const DeviceDesired& device, const Document& /*document*/) { return eos_context(device); }

}  // namespace

PlatformAdapter eos_adapter() {
  return {
      .traits =
          {
              .platform = Platform::eos,
              .role = Role::switch_,
              .mtu_min = 68,
              .mtu_max = 9214,  // L3 MTU
              .port_pattern = R"(Ethernet[0-9]{1,3}(/[0-9]{1,2}){0,2})",
              .port_example = "Ethernet1/1",
              .nth_port = nth_port,
              .watchdog_actions = {WatchdogAction::drop},
              .trust_modes = {Trust::dscp, Trust::pcp},
              .inventory_keys = {{.name = "chip", .choices = eos::chip_names()}},
              .hardware = hardware,
          },
      .artifacts = {ArtifactSpec::from_template("session.cfg.mustache", "session.cfg")},
      .context = context,
      .fix = eos_fix,
      .collector = eos_collector(),
      .applier = eos_applier(),
  };
}

}  // namespace fabricctl
