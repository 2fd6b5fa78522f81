// Juniper Junos fixes: the desired statements (config.h) that set the wrong setting, as `set` lines in
// `configure` ... `commit confirmed`, so they can be pasted into the CLI and a mistake reverts by
// itself. They come from the function config.set is printed from, so a fix and the rendered
// configuration cannot disagree.
#include <string>
#include <vector>

#include "platform/junos/config.h"
#include "platform/platform.h"

namespace fabricctl {
namespace {

using junos::Statements;

bool starts(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

/// The statements that begin with one of `prefixes`; a "{port}" in a prefix is the port's name.
Statements pick(const Statements& all, const std::string& port, std::initializer_list<std::string_view> prefixes) {
  Statements out;
  for (const std::string& s : all)
    for (const std::string_view prefix : prefixes) {
      std::string p(prefix);
      if (const size_t at = p.find("{port}"); at != std::string::npos) p.replace(at, 6, port);
      if (starts(s, p)) {
        out.push_back(s);
        break;
      }
    }
  return out;
}

std::string configure(const Statements& s) {
  std::string out = "configure\n";
  for (const std::string& st : s) out += "set " + st + "\n";
  return out + "commit confirmed 5";
}

}  // namespace

std::string junos_fix(const Fix& f) {
  const Statements all = junos::desired_statements(*f.device);
  const std::string port = f.port ? f.port->name : std::string();
  Statements s;
  switch (f.setting) {
    case Setting::mtu: s = pick(all, port, {"interfaces {port} mtu "}); break;
    case Setting::trust:
    case Setting::dscp_map:
      s = pick(all, port,
               {"class-of-service forwarding-classes ", "class-of-service classifiers ",
                "class-of-service interfaces {port} unit 0 classifiers "});
      break;
    case Setting::pfc:
    case Setting::watchdog:
      s = pick(all, port,
               {"class-of-service forwarding-classes ", "class-of-service congestion-notification-profile ",
                "class-of-service interfaces {port} congestion-notification-profile "});
      break;
    case Setting::ets:
    case Setting::ecn:
      s = pick(all, port,
               {"class-of-service drop-profiles ", "class-of-service schedulers ", "class-of-service scheduler-maps ",
                "class-of-service interfaces {port} scheduler-map "});
      break;
    case Setting::link_up: return "configure\ndelete interfaces " + port + " disable\ncommit confirmed 5";
    case Setting::speed: return "show interfaces " + port + " media\nshow interfaces diagnostics optics " + port;
    case Setting::cabling: return "show lldp neighbors interface " + port;
    case Setting::dcqcn:
    case Setting::dcqcn_params:
    case Setting::cnp:
    case Setting::rdma_gid:
    case Setting::rdma_port:
    case Setting::roce_tos:
    case Setting::nccl_tc:
    case Setting::nccl_gid: return {};  // host NIC settings
  }
  return configure(s);
}

}  // namespace fabricctl
