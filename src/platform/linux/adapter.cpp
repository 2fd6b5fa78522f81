// Linux hosts' row of the platform table (platform/platform.h): the NIC (mlx5) and the kernel's DCB.
#include "platform/platform.h"

namespace fabricctl {
namespace {

/// The index-th RoCE NIC port as systemd's predictable names give a ConnectX card per PCIe slot
/// (ens<slot>f0np0), and mlx5's RDMA device of it (mlx5_<index>): what `fabricctl design` writes
/// unless the design lists the server's own names.
std::string nth_port(int index) { return "ens" + std::to_string(index + 1) + "f0np0"; }
std::string nth_rdma_device(int index) { return "mlx5_" + std::to_string(index); }

}  // namespace

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
              .nth_port = nth_port,
              .nth_rdma_device = nth_rdma_device,
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
