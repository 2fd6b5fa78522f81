#include "cli/host_collect.h"

#include <unistd.h>

#include <algorithm>
#include <array>

#include "cli/collect_run.h"
#include "cli/dcb_query.h"
#include "platform/linux/dcb_observed.h"
#include "platform/linux/hex_dump.h"
#include "platform/linux/host_sysfs.h"
#include "platform/linux/lldpcli.h"
#include "transport/rtnl_link.h"
#include "util/escape.h"
#include "util/file_io.h"
#include "util/names.h"
#include "util/subprocess.h"

namespace fabricctl {
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
  auto out = run_command(argv);
  if (!out) {
    warnings.push_back("LLDP not read: " + out.error());
    return {};
  }
  auto neighbors = linux_host::lldp_neighbors(*out);
  if (!neighbors) {
    warnings.push_back("LLDP not read: " + neighbors.error());
    return {};
  }
  return std::move(*neighbors);
}

/// The port's DCB state: asked of the kernel, or read from a reply saved as a hex dump
/// (DIR/<netdev>.dcbnl: the lab's hosts, an offline replay).
Expected<DcbReply> dcb_state(const HostCollectOptions& o, const std::string& netdev) {
  if (o.dcb_from.empty()) return dcb_ieee_get(netdev);
  const auto path = o.dcb_from / (netdev + ".dcbnl");
  auto text = read_regular_file(path, {size_t{1} << 20, "saved DCB reply"});
  if (!text) return unexpected(text.error().message);
  auto bytes = linux_host::parse_hex_dump(*text);
  if (!bytes) return unexpected(path.string() + ": " + bytes.error());
  auto state = decode_ieee_get_reply(*bytes);
  if (!state) return unexpected(path.string() + ": " + state.error());
  return DcbReply{true, std::move(*state)};
}

}  // namespace

Expected<DeviceObserved> collect_host(const HostCollectOptions& o, std::vector<std::string>& warnings) {
  DeviceObserved d;
  d.name = o.device.empty() ? host_name() : o.device;
  if (!valid_device_name(d.name))
    return unexpected("host name \"" + d.name + "\" is not a device name (" + std::string(kDeviceNameRule) +
                      "); give --device NAME");
  d.platform = Platform::linux_host;
  d.source = "fabricctl host collect";
  d.collected_at = utc_now();
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
    PortObserved p;
    p.name = name;
    p.mtu = link->mtu;
    p.oper_up = link->oper_up;
    if (auto files = linux_host::read_port_files(o.root, p); !files) {
      d.unreadable_ports.emplace(name, files.error());
      continue;
    }
    // PFC, ETS and the DSCP app table. A driver without DCB (veth, a VF) is a fact about the port, said
    // in the state; what else the port shows is still read.
    auto dcb = dcb_state(o, name);
    if (!dcb) {
      d.unreadable_ports.emplace(name, "DCB: " + dcb.error());
      continue;
    }
    if (!dcb->supported) {
      d.unreadable_ports.emplace(name, "DCB: not supported by the driver (EOPNOTSUPP): no PFC, ETS or DSCP map");
    } else if (auto filled = fill_observed(dcb->state, p); !filled) {
      d.unreadable_ports.emplace(name, "DCB: " + filled.error());
      continue;
    }
    if (const auto n = neighbors.find(name); n != neighbors.end()) p.lldp = n->second;
    d.ports.push_back(std::move(p));
  }
  auto nccl = linux_host::read_nccl_conf(o.root);
  if (!nccl) return unexpected(nccl.error());
  d.nccl = *nccl;
  return d;
}

}  // namespace fabricctl
