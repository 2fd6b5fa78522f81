// NVIDIA Cumulus NVUE fixes: the `nv set` lines of the rendered commands.nvue that set the wrong setting,
// then `nv config apply`. Every value comes from nvue_context(), the context commands.nvue is rendered
// from, so a fix and the rendered configuration cannot disagree.
#include <string>
#include <vector>

#include "platform/platform.h"
#include "util/text.h"

namespace fabricctl {
namespace {

using nlohmann::json;

std::string applied(std::vector<std::string> lines) {
  lines.emplace_back("nv config apply -y");
  return join(lines, "\n");
}

}  // namespace

std::string nvue_fix(const Fix& f) {
  const json c = nvue_context(*f.device);
  const std::string port = f.port ? f.port->name : std::string();
  const std::string itf = "nv set interface " + port;
  switch (f.setting) {
    case Setting::mtu: return applied({itf + " link mtu " + std::to_string(f.port->mtu)});
    case Setting::trust: return applied({"nv set qos mapping default-global trust " + c["trust"].get<std::string>()});
    case Setting::dscp_map: {
      std::vector<std::string> lines;
      for (const json& m : c["dscp_map"])
        if (f.covers(std::stoi(m["dscp"].get<std::string>())))
          lines.push_back("nv set qos mapping default-global dscp " + m["dscp"].get<std::string>() +
                          " switch-priority " + m["priority"].get<std::string>());
      return applied(lines);
    }
    case Setting::pfc:
      // RoCE mode owns PFC: a switch where it is off (or its mode changed) gets it back, in the words of
      // the inventory's release (`state enabled` from 5.15, `enable on` before).
      if (c["roce"].is_object())
        return applied({"nv set qos roce " + c["roce"]["on"].get<std::string>(), "nv set qos roce mode lossless"});
      if (!c["pfc"].is_object()) return applied({"nv unset qos pfc default-global"});
      return applied({"nv set qos pfc default-global switch-priority " + c["pfc"]["priorities"].get<std::string>()});
    case Setting::ets: {
      std::vector<std::string> lines;
      for (const json& m : c["egress_queue_map"])
        lines.push_back("nv set qos egress-queue-mapping default-global switch-priority " +
                        m["priority"].get<std::string>() + " traffic-class " + m["tc"].get<std::string>());
      for (const json& s : c["schedulers"]) {
        const std::string tc = s["tc"].get<std::string>();
        lines.push_back("nv set qos egress-scheduler default-global traffic-class " + tc + " mode " +
                        s["mode"].get<std::string>());
        if (s.contains("bw_percent") && s["bw_percent"].is_string())
          lines.push_back("nv set qos egress-scheduler default-global traffic-class " + tc + " bw-percent " +
                          s["bw_percent"].get<std::string>());
      }
      return applied(lines);
    }
    case Setting::ecn: {
      std::vector<std::string> lines;
      const std::string cc = "nv set qos congestion-control default-global traffic-class ";
      for (const json& e : c["ecn"]) {
        const std::string tc = e["tc"].get<std::string>();
        if (!f.covers(std::stoi(tc))) continue;
        lines.push_back(cc + tc + " ecn enable");
        lines.push_back(cc + tc + " min-threshold " + e["min"].get<std::string>());
        lines.push_back(cc + tc + " max-threshold " + e["max"].get<std::string>());
        lines.push_back(cc + tc + " probability " + e["probability"].get<std::string>());
      }
      for (const json& e : c["ecn_disabled"])
        if (f.covers(std::stoi(e["tc"].get<std::string>())))
          lines.push_back(cc + e["tc"].get<std::string>() + " ecn disable");
      return applied(lines);
    }
    case Setting::watchdog:
      if (!c["watchdog"].is_object()) return applied({"nv unset interface " + port + " qos pfc-watchdog"});
      return applied(
          {"nv set qos pfc-watchdog polling-interval " + c["watchdog"]["polling_interval"].get<std::string>(),
           "nv set qos pfc-watchdog robustness " + c["watchdog"]["robustness"].get<std::string>(),
           itf + " qos pfc-watchdog state enable"});
    case Setting::link_up: return applied({itf + " link state up"});
    case Setting::speed: return "nv show interface " + port + " link";
    case Setting::cabling: return "nv show interface " + port + " lldp";
    case Setting::dcqcn:
    case Setting::dcqcn_params:
    case Setting::cnp:
    case Setting::rdma_gid:
    case Setting::rdma_port:
    case Setting::roce_tos:
    case Setting::nccl_tc:
    case Setting::nccl_gid: break;  // host NIC settings
  }
  return {};
}

}  // namespace fabricctl
