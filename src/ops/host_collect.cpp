#include "ops/host_collect.h"

#include <unistd.h>

#include <algorithm>
#include <array>

#include "ops/host_nic.h"
#include "platform/linux/host_sysfs.h"
#include "platform/linux/lldpcli.h"
#include "transport/rtnl_link.h"
#include "util/escape.h"
#include "util/names.h"
#include "util/subprocess.h"

namespace fabricctl::ops {
namespace {

std::string host_name() {
  std::array<char, 256> buf{};
  if (gethostname(buf.data(), buf.size() - 1) != 0) return {};
  return buf.data();
}

/// lldpd's neighbours, or a warning: a host without lldpd still has its NIC state read.
std::map<std::string, LldpNeighbor, std::less<>> lldp(const HostCollectOptions& o, std::vector<std::string>& warnings) {
  std::vector<std::string> argv = {"lldpcli"};
  if (!o.lldp_socket.empty()) argv.insert(argv.end(), {"-u", o.lldp_socket});
  argv.insert(argv.end(), {"-f", "json0", "show", "neighbors"});
  // lldpcli's warnings go to stderr: kept out of the JSON, and shown.
  std::string said;
  auto out = run_command(argv, 1 << 20, &said);
  if (!out) {
    warnings.push_back("LLDP not read: " + out.error());
    return {};
  }
  if (const size_t at = said.find_first_not_of(" \t\r\n"); at != std::string::npos)
    warnings.push_back("lldpcli: " + terminal_line(said.substr(at, said.find('\n', at) - at)));
  auto neighbors = linux_host::lldp_neighbors(*out);
  if (!neighbors) {
    warnings.push_back("LLDP not read: " + neighbors.error());
    return {};
  }
  return std::move(*neighbors);
}

}  // namespace

Expected<DeviceObserved> collect_host(const HostCollectOptions& o, std::vector<std::string>& warnings,
                                      const Clock& clock) {
  DeviceObserved d;
  d.name = o.device.empty() ? host_name() : o.device;
  if (!valid_device_name(d.name))
    return unexpected("host name \"" + d.name + "\" is not a device name (" + std::string(kDeviceNameRule) +
                      "); give --device NAME");
  d.platform = Platform::linux_host;
  d.source = "fabricctl host collect";
  d.collected_at = utc_text_ms(clock.now());
  auto links = link_states();
  if (!links) return unexpected(links.error());
  std::vector<std::string> names = o.ports;
  if (names.empty())
    for (const LinkState& l : *links)
      if (!l.loopback) names.push_back(l.name);
  const auto neighbors = lldp(o, warnings);
  for (const std::string& name : names) {
    if (!valid_port_name(name)) {  // the kernel allows more in a netdev name than a snapshot may hold
      d.unreadable_ports.emplace(terminal_line(name),
                                 "not a port name fabricctl reads (" + std::string(kPortNameRule) + ")");
      continue;
    }
    const auto link = std::find_if(links->begin(), links->end(), [&](const LinkState& l) { return l.name == name; });
    if (link == links->end()) {
      d.unreadable_ports.emplace(name, "no network interface " + name);
      continue;
    }
    auto port = read_nic_port({o.root, o.dcb_from}, *link);
    if (!port) {
      d.unreadable_ports.emplace(name, port.error());
      continue;
    }
    // A driver without DCB (veth, a VF) is a fact about the port, said in the state; what else the
    // port shows is still read.
    if (!port->dcb)
      d.unreadable_ports.emplace(name, "DCB: not supported by the driver (EOPNOTSUPP): no PFC, ETS or DSCP map");
    PortObserved& p = port->port;
    if (const auto n = neighbors.find(name); n != neighbors.end()) p.lldp = n->second;
    d.ports.push_back(std::move(p));
  }
  auto nccl = linux_host::read_nccl_conf(o.root);
  if (!nccl) return unexpected(nccl.error());
  d.nccl = *nccl;
  return d;
}

}  // namespace fabricctl::ops
