// Linux host NIC vocabulary: the native names, paths and encodings the Linux adapter renders (and, later,
// parses). Sources: iproute2 dcb-pfc(8)/dcb-ets(8)/dcb-app(8); kernel mlx5 en_dcbnl.c; MLNX_OFED mlx5 ecn
// sysfs; Documentation/ABI/testing/configfs-rdma_cm. See shared/reference/host-nic.md.
#pragma once

#include <nlohmann/json.hpp>

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "state/desired.h"

namespace fabricctl::linux_host {

/// The "schema" of nic-state.json. Bump the version on any incompatible change of its shape.
inline constexpr std::string_view kNicStateSchema = "fabricctl.nic-state/v1";

/// rdma_cm configfs default_roce_mode value (matched exactly and case-sensitively by the kernel).
inline constexpr std::string_view kRoceV2 = "RoCE v2";

/// mlx5 takes ieee_pfc.delay as the cable length in metres and ignores 0 and values >= 1000
/// (MLX5E_MAX_CABLE_LENGTH), although dcb-pfc(8) documents delay as bits.
inline constexpr int kMlx5MaxCableLengthM = 1000;

/// The TOS byte RoCE traffic is sent with: DSCP in the upper six bits, ECT(0) in the ECN bits when DCQCN is
/// enabled so that switches mark instead of drop (DSCP 26 with DCQCN -> 106; without -> 104).
int roce_tos(const QosIntent& qos);

/// The system-wide NCCL configuration file: NCCL reads every line holding `=` as `NAME=value` (no spaces
/// around `=`; there is no comment syntax: a line without `=` is skipped, so comments must not hold one)
/// after the environment, NCCL_CONF_FILE or ~/.nccl.conf, which win.
inline constexpr std::string_view kNcclConf = "/etc/nccl.conf";

/// The NCCL variables fabricctl owns in kNcclConf: apply.sh replaces their lines and keeps every other.
inline constexpr std::array<std::string_view, 3> kNcclKeys = {"NCCL_IB_HCA", "NCCL_IB_TC", "NCCL_IB_GID_INDEX"};

/// The `NAME=value` lines of the host's NCCL defaults, from the `nccl` object of its NIC state:
/// NCCL_IB_HCA as an exact-match list (a leading `=`: plain `mlx5_1` would also match mlx5_10),
/// NCCL_IB_TC as the ToS byte, NCCL_IB_GID_INDEX unless NCCL is to pick the GID itself.
std::vector<std::string> nccl_conf_lines(const nlohmann::ordered_json& nccl);

/// MLNX_OFED's traffic-class override of an RDMA port: the ToS byte every QP of the port sends with.
std::string traffic_class_path(std::string_view rdma_device, int port);

/// rdma_cm's configfs group of an RDMA device: mkdir makes the kernel show ports/N/default_roce_{mode,tos}
/// (drivers/infiniband/core/cma_configfs.c make_cma_dev). The values live in the kernel's cma device, not
/// in the group: removing it leaves them as they are.
std::string rdma_cm_device_dir(std::string_view rdma_device);

/// Makes text safe inside a one-line comment: anything outside printable ASCII becomes '?'.
std::string comment_safe(std::string_view s);

}  // namespace fabricctl::linux_host
