#include "platform/linux/nic.h"

namespace fabricctl {
namespace linux_host {

int roce_tos(const QosIntent& qos) { return qos.roce_tos(); }

std::vector<std::string> nccl_conf_lines(const nlohmann::ordered_json& nccl) {
  std::vector<std::string> out;
  const auto& hca = nccl.at("ib_hca");
  if (!hca.empty()) {
    std::string list = "=";
    for (const auto& h : hca) {
      if (list.size() > 1) list += ',';
      list += h.at("device").get<std::string>() + ":" + std::to_string(h.at("port").get<int>());
    }
    out.push_back(std::string(kNcclKeys[0]) + "=" + list);
  }
  out.push_back(std::string(kNcclKeys[1]) + "=" + std::to_string(nccl.at("ib_tc").get<int>()));
  if (!nccl.at("ib_gid_index").is_null())
    out.push_back(std::string(kNcclKeys[2]) + "=" + std::to_string(nccl.at("ib_gid_index").get<int>()));
  return out;
}

std::string traffic_class_path(std::string_view rdma_device, int port) {
  return "/sys/class/infiniband/" + std::string(rdma_device) + "/tc/" + std::to_string(port) + "/traffic_class";
}

std::string rdma_cm_device_dir(std::string_view rdma_device) {
  return "/sys/kernel/config/rdma_cm/" + std::string(rdma_device);
}

std::string comment_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) out += (c >= 0x20 && c <= 0x7e) ? c : '?';
  return out;
}

}  // namespace linux_host

}  // namespace fabricctl
