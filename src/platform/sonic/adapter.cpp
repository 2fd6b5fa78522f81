// SONiC's row of the platform table (platform/platform.h).
#include "platform/platform.h"
#include "platform/sonic/hardware.h"

namespace fabricctl {
namespace {

/// The index-th front-panel port of a 400G/800G SKU: SONiC names a port by its first SerDes lane, and
/// those ports have 8 (port_config.ini: Ethernet0, Ethernet8, ...). Other SKUs: `ports:` in the design.
std::string nth_port(int index) { return "Ethernet" + std::to_string(8 * index); }

/// `sonic: {buffer_model, cable_lengths_m}`: the traditional buffer model (the default) looks headroom up
/// by cable length in the SKU's pg_profile_lookup.ini, whose rows are the given lengths or the common ones.
void hardware(const HardwareValues& given, SwitchHardware& out) {
  const auto model = given.find("buffer_model");
  if (model != given.end() && std::get<std::string>(model->second) != sonic::kTraditionalBuffers) return;
  const auto rows = given.find("cable_lengths_m");
  out.headroom_cable_rows_m =
      rows != given.end() ? std::get<std::vector<int>>(rows->second)
                          : std::vector<int>(sonic::kDefaultCableRowsM.begin(), sonic::kDefaultCableRowsM.end());
}

}  // namespace

PlatformAdapter sonic_adapter() {
  using A = WatchdogAction;
  using T = ArtifactSpec;
  return {
      .traits =
          {
              .platform = Platform::sonic,
              .role = Role::switch_,
              // PORT.mtu 68-9216 (sonic-port.yang).
              .mtu_min = 68,
              .mtu_max = 9216,
              .port_pattern = R"(Ethernet[0-9]{1,4})",
              .port_example = "Ethernet0",
              .nth_port = nth_port,
              .watchdog_actions = {A::drop, A::forward, A::alert},
              // DSCP only: SONiC's default tables bind a DSCP map on every port and switch-wide, which
              // `config load` (merging field by field) cannot unbind for PCP.
              .trust_modes = {Trust::dscp},
              .inventory_keys = {{.name = "buffer_model", .choices = sonic::buffer_models()},
                                 {.name = "cable_lengths_m",
                                  .min = 1,
                                  .max = 100000,
                                  .list_what = "cable length (the SKU's pg_profile_lookup.ini rows)"}},
              .hardware = hardware,
              .headroom_table_fix = "add the SKU's row to sonic.cable_lengths_m, or use sonic.buffer_model: dynamic",
          },
      .document = sonic_config_db,
      .artifacts = {T::from_data("config_db.json", sonic_config_db_json),
                    T::from_data("config_db.patch.json", sonic_config_db_patch_json)},
      .fix = sonic_fix,
      .collector = sonic_collector(),
      .applier = sonic_applier(),
  };
}

}  // namespace fabricctl
