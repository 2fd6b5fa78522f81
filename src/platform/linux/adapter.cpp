// Linux hosts' row of the platform table (platform/platform.h): the NIC (mlx5) and the kernel's DCB.
#include "platform/platform.h"

namespace fabricctl {

PlatformAdapter linux_adapter() {
  using T = ArtifactSpec;
  return {
      .traits =
          {
              .platform = Platform::linux_host,
              .role = Role::host,
              .mtu_min = 68,
              .mtu_max = 9978,  // mlx5's max_mtu
              .port_pattern = R"([A-Za-z0-9_.-]{1,15})",
              .port_example = "ens1f0np0",
              .watchdog_actions = {},
              .trust_modes = {Trust::dscp, Trust::pcp},
          },
      .document = linux_nic_state,
      .artifacts = {T::from_data("nic-state.json", linux_nic_state_json), T::from_data("nccl.conf", linux_nccl_conf),
                    T::from_template("apply.sh.mustache", "apply.sh")},
      .context = linux_context,
      .fix = linux_fix,
      .collector = linux_collector(),
      .applier = linux_applier(),
  };
}

}  // namespace fabricctl
