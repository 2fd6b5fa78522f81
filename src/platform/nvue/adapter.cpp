// NVIDIA Cumulus Linux NVUE's row of the platform table (platform/platform.h).
#include "platform/nvue/release.h"
#include "platform/platform.h"

namespace fabricctl {
namespace {

/// The index-th front-panel port: Cumulus Linux numbers switch ports from swp1.
std::string nth_port(int index) { return "swp" + std::to_string(index + 1); }

/// `nvue: {release}`: the Cumulus Linux release whose NVUE syntax is rendered (nvue/release.h).
void hardware(const HardwareValues& given, SwitchHardware& out) {
  if (const auto r = given.find("release"); r != given.end()) out.nos_release = std::get<std::string>(r->second);
}

/// NVUE's configuration is CLI text only: its template context needs no Document.
nlohmann::json context(const DeviceDesired& device, const Document& /*document*/) { return nvue_context(device); }

}  // namespace

PlatformAdapter nvue_adapter() {
  return {
      .traits =
          {
              .platform = Platform::nvue,
              .role = Role::switch_,
              .mtu_min = 552,  // `link mtu` 552-9216
              .mtu_max = 9216,
              .port_pattern = R"(swp[0-9]{1,3}(s[0-9]{1,2})?)",
              .port_example = "swp1s0",
              .nth_port = nth_port,
              .watchdog_actions = {WatchdogAction::drop},
              .trust_modes = {Trust::dscp, Trust::pcp},
              // No such knob: NVUE restores PFC one polling interval after the pause frames stop.
              .watchdog_restoration_settable = false,
              .inventory_keys = {{.name = "release", .choices = nvue::release_names()}},
              .hardware = hardware,
          },
      .artifacts = {ArtifactSpec::from_template("commands.nvue.mustache", "commands.nvue")},
      .context = context,
      .fix = nvue_fix,
      .collector = nvue_collector(),
      .applier = nvue_applier(),
  };
}

}  // namespace fabricctl
