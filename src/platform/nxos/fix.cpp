// Cisco NX-OS fixes: the blocks of the desired configuration (config.h) that set the wrong setting, in
// `configure terminal` ... `end`, so they can be pasted into the CLI. They come from the function
// config.cfg is printed from, so a fix and the rendered configuration cannot disagree.
#include <string>
#include <vector>

#include "platform/nxos/config.h"
#include "platform/platform.h"

namespace fabricctl {
namespace {

using nxos::Config;
using nxos::ConfigBlock;

bool starts(const std::string& line, std::string_view prefix) { return line.rfind(prefix, 0) == 0; }

/// The top-level blocks whose line begins with one of `prefixes`, whole.
Config blocks(const Config& all, std::initializer_list<std::string_view> prefixes) {
  Config out;
  for (const ConfigBlock& b : all)
    for (std::string_view p : prefixes)
      if (starts(b.line, p)) {
        out.push_back(b);
        break;
      }
  return out;
}

/// The port's block with only its lines that begin with one of `prefixes`.
ConfigBlock interface_lines(const Config& all, const std::string& port,
                            std::initializer_list<std::string_view> prefixes) {
  ConfigBlock out{"interface " + port, {}};
  for (const ConfigBlock& b : all)
    if (b.line == out.line)
      for (const ConfigBlock& c : b.children)
        for (std::string_view p : prefixes)
          if (starts(c.line, p)) out.children.push_back(c);
  return out;
}

std::string configure(const Config& c) { return "configure terminal\n" + nxos::config_text(c) + "end"; }

}  // namespace

std::string nxos_fix(const Fix& f) {
  const Config all = nxos::desired_config(*f.device);
  const std::string port = f.port ? f.port->name : std::string();
  Config c;
  switch (f.setting) {
    case Setting::mtu: c = {interface_lines(all, port, {"mtu "})}; break;
    case Setting::trust:
    case Setting::dscp_map:
      // Classification is the input policy and the class maps it names, attached to the port.
      c = blocks(all, {"class-map type qos ", "policy-map type qos "});
      c.push_back(interface_lines(all, port, {"service-policy type qos input "}));
      break;
    case Setting::pfc:
      c = blocks(all, {"policy-map type network-qos ", "system qos"});
      c.push_back(interface_lines(all, port, {"priority-flow-control mode "}));
      break;
    case Setting::ets:
    case Setting::ecn: {
      // The queuing policy, only the classes the fix covers (ECN) or the ones traffic uses (ETS).
      Config queuing = blocks(all, {"policy-map type queuing "});
      for (ConfigBlock& policy : queuing) {
        std::vector<ConfigBlock> kept;
        for (int tc = kTrafficClasses - 1; tc >= 0; --tc) {
          const bool wanted = f.setting == Setting::ecn ? f.covers(tc) : f.device->qos.tc[static_cast<size_t>(tc)].used;
          const std::string line = "class type queuing " + nxos::queuing_class(tc);
          for (const ConfigBlock& cls : policy.children)
            if (wanted && cls.line == line) kept.push_back(cls);
        }
        policy.children = std::move(kept);
      }
      c = queuing;
      for (const ConfigBlock& b : blocks(all, {"system qos"})) c.push_back(b);
      break;
    }
    case Setting::watchdog:
      c = blocks(all, {"priority-flow-control "});
      c.push_back(interface_lines(all, port, {"priority-flow-control watch-dog-interval "}));
      break;
    case Setting::link_up: c = {ConfigBlock{"interface " + port, {{"no shutdown", {}}}}}; break;
    case Setting::speed: return "show interface " + port + " status\nshow interface " + port + " transceiver";
    case Setting::cabling: return "show lldp neighbors interface " + port + " detail";
    case Setting::dcqcn:
    case Setting::dcqcn_params:
    case Setting::cnp:
    case Setting::rdma_gid:
    case Setting::rdma_port:
    case Setting::roce_tos:
    case Setting::nccl_tc:
    case Setting::nccl_gid: return {};  // host NIC settings
  }
  return configure(c);
}

}  // namespace fabricctl
