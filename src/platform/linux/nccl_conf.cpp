// Linux host NIC adapter: nccl.conf, NCCL's defaults for the host. NCCL creates its queue pairs with
// verbs, not rdma_cm, so rdma_cm's default ToS never reaches them: without NCCL_IB_TC its RoCE traffic
// leaves with DSCP 0, in the lossy class. The file is the `nccl` object of the host's NIC state, as the
// `NAME=value` lines apply.sh also writes into /etc/nccl.conf.
#include <algorithm>
#include <string>

#include "platform/linux/nic.h"
#include "platform/platform.h"

namespace fabricctl {
namespace {

/// A comment line of nccl.conf. NCCL has no comment syntax: setEnvFile() (NCCL src/include/param.h,
/// misc/param.cc) takes every line holding '=' as NAME=value, a leading '#' included, and skips the
/// others; a comment with '=' would set a variable named "# ...". So none of ours holds one.
std::string comment(std::string text) {
  std::replace(text.begin(), text.end(), '=', '-');
  return "# " + text + "\n";
}

}  // namespace

std::string linux_nccl_conf(const DeviceDesired& device, const Document& nic_state) {
  using linux_host::comment_safe;
  const auto& nccl = nic_state.at("nccl");
  const int tos = nccl.at("ib_tc").get<int>();
  const int dscp = tos >> 2;
  const int prio = device.qos.dscp_to_priority[static_cast<size_t>(dscp)];
  std::string out = comment("fabricctl: NCCL defaults of " + comment_safe(device.name) + " (profile " +
                            comment_safe(device.profile) + "), for " + std::string(linux_host::kNcclConf) + ".");
  out += comment("RoCE with ToS " + std::to_string(tos) + " (DSCP " + std::to_string(dscp) + " << 2" +
                 ((tos & 3) == kEct0 ? " | ECT(0)" : "") + "), priority " + std::to_string(prio) +
                 (device.qos.lossless[static_cast<size_t>(prio)] ? " (lossless)." : " (lossy)."));
  out += comment(nccl.at("ib_gid_index").is_null()
                     ? "No GID index: NCCL (2.21 and later) picks a RoCE v2 GID of the port itself."
                     : "The RoCE v2 GID at index " + std::to_string(nccl.at("ib_gid_index").get<int>()) +
                           ", as the profile pins it.");
  out += comment("NCCL_IB_HCA: the host's RoCE ports in rail order. The environment, NCCL_CONF_FILE and");
  out += comment("~/.nccl.conf win over this file.");
  for (const std::string& line : linux_host::nccl_conf_lines(nccl)) out += line + "\n";
  return out;
}

}  // namespace fabricctl
