// Linux host fixes: the commands of the rendered apply.sh that set the wrong setting (ip, dcb, the mlx5
// ecn sysfs), as a root shell on the host runs them. Values come from linux_context(), the context
// apply.sh is rendered from, so a fix and the rendered script cannot disagree.
#include <algorithm>
#include <string>
#include <vector>

#include "platform/linux/nic.h"
#include "platform/platform.h"
#include "util/escape.h"
#include "util/text.h"

namespace fabricctl {
namespace {

using nlohmann::json;

/// The apply.sh context of the fix's port.
json port_context(const Fix& f) {
  const json c = linux_context(*f.device);
  const auto i = static_cast<size_t>(f.port - f.device->ports.data());
  return i < c["ports"].size() ? c["ports"][i] : json::object();
}

std::string ecn_file(const std::string& port, std::string_view rest) {
  return shell_quote("/sys/class/net/" + port + "/ecn/" + std::string(rest));
}

}  // namespace

std::string linux_fix(const Fix& f) {
  const QosIntent& q = f.device->qos;
  const std::string port = f.port ? f.port->name : std::string();
  const std::string dev = shell_quote(port);
  std::vector<std::string> lines;
  switch (f.setting) {
    case Setting::mtu: return "ip link set dev " + dev + " mtu " + std::to_string(f.port->mtu);
    case Setting::link_up: return "ip link set dev " + dev + " up";
    case Setting::speed: return "ethtool " + dev;
    case Setting::cabling: return "lldpcli show neighbors ports " + dev;
    case Setting::trust:
    case Setting::dscp_map: {
      // mlx5 trusts DSCP while the DSCP app table has entries and PCP once it is empty.
      if (q.trust == Trust::pcp) return "dcb app flush dev " + dev + " dscp-prio";
      std::vector<std::string> pairs;
      for (int d = 0; d < kDscpValues; ++d)
        if (f.setting == Setting::trust || f.covers(d))
          pairs.push_back(std::to_string(d) + ":" + std::to_string(q.dscp_to_priority[static_cast<size_t>(d)]));
      return "dcb app replace dev " + dev + " dscp-prio " + join(pairs, " ");
    }
    case Setting::pfc: {
      std::vector<std::string> pairs;
      for (int p = 0; p < kPriorities; ++p)
        if (f.covers(p)) pairs.push_back(std::to_string(p) + (q.lossless[static_cast<size_t>(p)] ? ":on" : ":off"));
      return "dcb pfc set dev " + dev + " prio-pfc " + join(pairs, " ");
    }
    case Setting::ets: {
      const json c = port_context(f);
      return "dcb ets set dev " + dev + " prio-tc " + c.value("prio_tc", std::string()) + " tc-tsa " +
             c.value("tc_tsa", std::string()) + " tc-bw " + c.value("tc_bw", std::string());
    }
    case Setting::dcqcn: {
      const auto on = q.dcqcn_priorities();
      for (int p = 0; p < kPriorities; ++p) {
        if (!f.covers(p)) continue;
        const std::string v = on[static_cast<size_t>(p)] ? "1" : "0";
        for (std::string_view point : {"roce_rp", "roce_np"})
          lines.push_back("echo " + v + " > " + ecn_file(port, std::string(point) + "/enable/" + std::to_string(p)));
      }
      return join(lines, "\n");
    }
    case Setting::dcqcn_params: {
      // The parameters that differ, with the profile's values, as apply.sh writes them.
      for (const auto& [name, value] : q.dcqcn.rp) {
        const auto key = std::find(kDcqcnRpParams.begin(), kDcqcnRpParams.end(), name) - kDcqcnRpParams.begin();
        if (f.covers(static_cast<int>(key)))
          lines.push_back("echo " + std::to_string(value) + " > " + ecn_file(port, "roce_rp/" + name));
      }
      if (q.dcqcn.np_min_time_between_cnps && f.covers(kDcqcnNpGapKey))
        lines.push_back("echo " + std::to_string(*q.dcqcn.np_min_time_between_cnps) + " > " +
                        ecn_file(port, "roce_np/min_time_between_cnps"));
      return join(lines, "\n");
    }
    case Setting::cnp:
      return "echo " + std::to_string(q.cnp_dscp) + " > " + ecn_file(port, "roce_np/cnp_dscp") + "\necho " +
             std::to_string(q.cnp_priority) + " > " + ecn_file(port, "roce_np/cnp_802p_prio");
    case Setting::rdma_gid: return "ip addr show dev " + dev;
    case Setting::rdma_port:
      return "rdma link show " + shell_quote(f.port->rdma_device + "/" + std::to_string(f.port->rdma_port));
    case Setting::roce_tos: {
      // The same two writes apply.sh makes: rdma_cm's default for its connections, and the driver's
      // override that every queue pair of the port takes.
      const std::string tos = std::to_string(q.roce_tos());
      const std::string cm = "/sys/kernel/config/rdma_cm/" + f.port->rdma_device;
      const std::string p = std::to_string(f.port->rdma_port);
      return "mkdir -p " + shell_quote(cm) + "\necho " + tos + " > " +
             shell_quote(cm + "/ports/" + p + "/default_roce_tos") + "\necho " + tos + " > " +
             shell_quote(linux_host::traffic_class_path(f.port->rdma_device, f.port->rdma_port));
    }
    case Setting::nccl_tc:
    case Setting::nccl_gid: {
      // The line of nccl.conf for that variable, in place of the file's own (other lines kept).
      const std::string_view key = linux_host::kNcclKeys[f.setting == Setting::nccl_tc ? 1 : 2];
      std::string line;
      for (const std::string& l : linux_host::nccl_conf_lines(linux_nic_state(*f.device).at("nccl")))
        if (l.rfind(std::string(key) + "=", 0) == 0) line = l;
      const std::string conf = shell_quote(linux_host::kNcclConf);
      std::string out = "sed -i '/^" + std::string(key) + "=/d' " + conf;
      if (!line.empty()) out += "\necho " + shell_quote(line) + " >> " + conf;
      return out;
    }
    case Setting::ecn:
    case Setting::watchdog: break;  // switch settings
  }
  return {};
}

}  // namespace fabricctl
