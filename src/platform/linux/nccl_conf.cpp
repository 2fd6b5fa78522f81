// Linux host NIC adapter: nccl.conf, NCCL's defaults for the host. NCCL creates its queue pairs with
// verbs, not rdma_cm, so rdma_cm's default ToS never reaches them: without NCCL_IB_TC its RoCE traffic
// leaves with DSCP 0, in the lossy class. The file is the `nccl` object of the host's NIC state, as the
// `NAME=value` lines apply.sh also writes into /etc/nccl.conf.
#include <string>

#include "platform/linux/nic.h"
#include "platform/platform.h"

namespace fabricctl {

std::string linux_nccl_conf(const DeviceDesired& device, const Document& nic_state) {
  using linux_host::comment_safe;
  const auto& nccl = nic_state.at("nccl");
  const int tos = nccl.at("ib_tc").get<int>();
  const int dscp = tos >> 2;
  const int prio = device.qos.dscp_to_priority[static_cast<size_t>(dscp)];
  std::string out = "# fabricctl: NCCL defaults of " + comment_safe(device.name) + " (profile " +
                    comment_safe(device.profile) + "), for " + std::string(linux_host::kNcclConf) + ".\n";
  out += "# RoCE with ToS " + std::to_string(tos) + " = DSCP " + std::to_string(dscp) +
         ((tos & 3) == kEct0 ? " + ECT(0)" : "") + ", priority " + std::to_string(prio) +
         (device.qos.lossless[static_cast<size_t>(prio)] ? " (lossless)" : " (lossy)") + "; ";
  out += nccl.at("ib_gid_index").is_null()
             ? "NCCL picks the RoCE v2 GID (2.21 and later);\n"
             : "the RoCE v2 GID at index " + std::to_string(nccl.at("ib_gid_index").get<int>()) + ";\n";
  out += "# the host's RoCE ports in rail order. The environment, NCCL_CONF_FILE and ~/.nccl.conf win over it.\n";
  for (const std::string& line : linux_host::nccl_conf_lines(nccl)) out += line + "\n";
  return out;
}

}  // namespace fabricctl
