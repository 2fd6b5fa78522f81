#include "platform/linux/nic.h"

namespace fabricctl {
namespace linux_host {

int roce_tos(const QosIntent& qos) { return qos.roce_tos(); }

std::array<std::pair<std::string_view, int>, 16> dcqcn_rp_files(const DcqcnRp& rp) {
  return {{
      {"clamp_tgt_rate", rp.clamp_tgt_rate},
      {"clamp_tgt_rate_after_time_inc", rp.clamp_tgt_rate_after_time_inc},
      {"rpg_time_reset", rp.rpg_time_reset},
      {"rpg_byte_reset", rp.rpg_byte_reset},
      {"rpg_threshold", rp.rpg_threshold},
      {"rpg_max_rate", rp.rpg_max_rate},
      {"rpg_ai_rate", rp.rpg_ai_rate},
      {"rpg_hai_rate", rp.rpg_hai_rate},
      {"rpg_gd", rp.rpg_gd},
      {"rpg_min_dec_fac", rp.rpg_min_dec_fac},
      {"rpg_min_rate", rp.rpg_min_rate},
      {"rate_to_set_on_first_cnp", rp.rate_to_set_on_first_cnp},
      {"dce_tcp_g", rp.dce_tcp_g},
      {"dce_tcp_rtt", rp.dce_tcp_rtt},
      {"rate_reduce_monitor_period", rp.rate_reduce_monitor_period},
      {"initial_alpha_value", rp.initial_alpha_value},
  }};
}

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

std::string comment_safe(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) out += (c >= 0x20 && c <= 0x7e) ? c : '?';
  return out;
}

}  // namespace linux_host

}  // namespace fabricctl
