// Arista EOS fixes: the lines of the rendered session.cfg that set the wrong setting, wrapped in
// `configure` ... `end` so they can be pasted into the CLI. Every value comes from eos_context(), the
// context session.cfg is rendered from, so a fix and the rendered configuration cannot disagree.
#include <string>
#include <vector>

#include "platform/platform.h"
#include "util/text.h"

namespace fabricctl {
namespace {

using nlohmann::json;

const json* interface_of(const json& c, const std::string& port) {
  for (const json& i : c["interfaces"])
    if (i["name"] == port) return &i;
  return nullptr;
}

std::string configure(std::vector<std::string> lines) {
  lines.insert(lines.begin(), "configure");
  lines.emplace_back("end");
  return join(lines, "\n");
}

}  // namespace

std::string eos_fix(const Fix& f) {
  const json c = eos_context(*f.device);
  const std::string port = f.port ? f.port->name : std::string();
  const json* itf = f.port ? interface_of(c, port) : nullptr;
  const std::string iface = "interface " + port;
  const QosIntent& q = f.device->qos;
  const std::string queue = c["queue_keyword"].get<std::string>();  // uc-tx-queue or tx-queue, by chip
  switch (f.setting) {
    case Setting::mtu:
      return configure({iface, "   mtu " + (itf ? (*itf)["mtu"].get<std::string>() : std::to_string(f.port->mtu))});
    case Setting::trust:
      return configure({iface, "   qos trust " + std::string(q.trust == Trust::dscp ? "dscp" : "cos")});
    case Setting::dscp_map: {
      std::vector<std::string> lines;
      for (int d = 0; d < kDscpValues; ++d)
        if (f.covers(d))
          lines.push_back("qos map dscp " + std::to_string(d) + " to traffic-class " +
                          std::to_string(q.dscp_to_priority[static_cast<size_t>(d)]));
      return configure(lines);
    }
    case Setting::pfc: {
      std::vector<std::string> lines{iface};
      lines.push_back("   " + c["pfc"].get<std::string>());
      for (int p = 0; p < kPriorities; ++p) {
        if (!f.covers(p)) continue;
        const std::string line = "priority-flow-control priority " + std::to_string(p) + " no-drop";
        lines.push_back(q.lossless[static_cast<size_t>(p)] ? "   " + line : "   no " + line);
      }
      return configure(lines);
    }
    case Setting::ets: {
      std::vector<std::string> lines;
      for (const json& m : c["tc_maps"]) lines.push_back(m["line"].get<std::string>());
      lines.push_back(iface);
      // The queues some priority maps to: the ones port.ets.drift compares.
      for (const json& b : c["queues"]) {
        if (!b["used"].get<bool>()) continue;
        lines.push_back("   " + queue + " " + b["id"].get<std::string>());
        lines.push_back("      " + b["priority"].get<std::string>());
        lines.push_back("      " + b["bandwidth"].get<std::string>());
      }
      return configure(lines);
    }
    case Setting::ecn: {
      std::vector<std::string> lines{iface};
      for (int tc = 0; tc < kTrafficClasses; ++tc) {
        if (!f.covers(tc)) continue;
        // The context has a block for every queue, in queue order, with its ECN line or its removal.
        lines.push_back("   " + queue + " " + std::to_string(tc));
        lines.push_back("      " + c["queues"][static_cast<size_t>(tc)]["ecn"].get<std::string>());
      }
      return configure(lines);
    }
    case Setting::watchdog: {
      if (!c["watchdog"].is_object()) return configure({iface, "   no priority-flow-control pause watchdog"});
      const json& w = c["watchdog"];
      return configure(
          {"priority-flow-control pause watchdog default timeout " + w["timeout"].get<std::string>(),
           "priority-flow-control pause watchdog default recovery-time " + w["recovery_time"].get<std::string>(),
           "priority-flow-control pause watchdog default polling-interval " + w["polling_interval"].get<std::string>(),
           "priority-flow-control pause watchdog action " + w["action"].get<std::string>(), iface,
           "   priority-flow-control pause watchdog"});
    }
    case Setting::link_up: return configure({iface, "   no shutdown"});
    case Setting::speed: return "show interfaces " + port + " status\nshow interfaces " + port + " transceiver";
    case Setting::cabling: return "show lldp neighbors " + port + " detail";
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
