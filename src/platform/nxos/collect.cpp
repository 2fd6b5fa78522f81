// Cisco NX-OS collection: whole-device show commands (no value of the inventory in any of them).
// - `show running-config` (text; NX-OS has no JSON form of it): the QoS policies, class maps, `system
//   qos`, the global watchdog lines and each Ethernet interface's MTU, PFC and service-policy lines,
//   read by running_config.cpp. Only those blocks are kept in the raw file (an allowlist): the
//   running-config also holds user secrets, SNMP communities, TACACS+ and RADIUS keys.
// - `show interface | json`: operational MTU, speed and state of each Ethernet port.
// - `show lldp neighbors detail | json`: the neighbour on each port (NX-OS names the local port short,
//   Eth1/1; the reader writes it long).
// Why JSON for the rest: `| json` is NX-OS's structured form of a show command (the NX-API body), which
// its releases keep while its text tables change; the running-config is the one thing it prints only as
// text. Of the counters, `show interface` gives FCS errors and discards.
// - `show queuing interface | json`, a counter command (collect and health run it; verify, plan and
//   apply judge no counter and do not): each port's packets sent and dropped per queue, ECN marks where
//   the switch counts them, and PFC frames per CoS (queuing_json.h). No JSON capture of it exists: its
//   shape is Cisco's schema's and real switches' clients' (docs/reference-nxos.md D, UNCONFIRMED), so a
//   row it cannot read makes that port unreadable; only an output that is not such a document fails the
//   switch. It is one command for every port. `show interface priority-flow-control` counts PFC frames
//   too, but no source names the keys of its JSON.
// - `show queuing pfc-queue detail | json`, a counter command too: the PFC watchdog's storms, restores
//   and drops per no-drop queue (queuing_json.h, UNCONFIRMED alike).
#include <array>
#include <set>

#include "platform/nxos/queuing_json.h"
#include "platform/nxos/running_config.h"
#include "platform/nxos/show_json.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kRunningConfig = "running-config.txt";
constexpr std::string_view kInterfaces = "interfaces.json";
constexpr std::string_view kLldp = "lldp-neighbors.json";

/// The counter commands, each with its reader.
constexpr std::array<PortTableSource, 2> kCounterSources{{
    {"queuing.json", "show queuing interface | json", nxos::queuing_json},
    {"pfc-queue.json", "show queuing pfc-queue detail | json", nxos::pfc_queue_json},
}};

Expected<DeviceObserved> observe(std::string_view device, const RawOutputs& raw) {
  for (const std::string_view f : {kRunningConfig, kInterfaces, kLldp})
    if (raw_file(raw, f) == nullptr) return unexpected("no " + std::string(f) + " was collected");
  auto config = nxos::read_running_config(*raw_file(raw, kRunningConfig));
  if (!config) return unexpected(config.error());
  auto interfaces = nxos::interfaces_json(*raw_file(raw, kInterfaces));
  if (!interfaces) return unexpected(interfaces.error());
  std::vector<std::string> listed;
  for (const auto& [name, p] : interfaces->ports) listed.push_back(name);
  auto running = nxos::ports_from_config(*config, listed);
  if (!running) return unexpected(running.error());
  auto lldp = nxos::lldp_neighbors_json(*raw_file(raw, kLldp));
  if (!lldp) return unexpected(lldp.error());
  // The counters, where they were collected (a raw directory of verify, plan or apply has none).
  PortTable<PortObserved> counters;
  for (const PortTableSource& s : kCounterSources)
    if (auto c = add_counters(raw, s, counters); !c) return unexpected(c.error());

  DeviceObserved d;
  d.name = std::string(device);
  d.platform = Platform::nxos;
  d.source = "fabricctl collect (nxos)";
  for (const auto* unreadable : {&running->unreadable, &interfaces->unreadable, &counters.unreadable})
    for (const auto& [port, why] : *unreadable) d.unreadable_ports.emplace(port, why);
  // Every Ethernet port `show interface` lists, and any the running-config has a block for.
  std::set<std::string, NaturalLess> names;
  for (const auto& [name, p] : interfaces->ports) names.insert(name);
  for (const auto& [name, p] : running->ports) names.insert(name);
  for (const std::string& name : names) {
    if (d.unreadable_ports.count(name)) continue;
    const auto c = running->ports.find(name);
    if (c == running->ports.end()) continue;  // unreadable, named above
    PortObserved p = c->second;
    // The operational MTU, speed and state are `show interface`'s; the configured MTU where it has none.
    if (const auto s = interfaces->ports.find(name); s != interfaces->ports.end()) {
      if (s->second.mtu) p.mtu = s->second.mtu;
      p.speed_mbps = s->second.speed_mbps;
      p.oper_up = s->second.oper_up;
      p.counters = s->second.counters;
    }
    if (const auto q = counters.ports.find(name); q != counters.ports.end())
      p.counters.insert(q->second.counters.begin(), q->second.counters.end());
    if (const auto n = lldp->ports.find(name); n != lldp->ports.end()) p.lldp = n->second;
    if (const auto why = lldp->unreadable.find(name); why != lldp->unreadable.end())
      d.unreadable_ports.emplace(name, why->second);
    else d.ports.push_back(std::move(p));
  }
  return d;
}

}  // namespace

Collector nxos_collector() {
  return {{required_command(kRunningConfig, "show running-config", nxos::keep_running_config),
           required_command(kInterfaces, "show interface | json"),
           required_command(kLldp, "show lldp neighbors detail | json"), collect_command(kCounterSources[0]),
           collect_command(kCounterSources[1])},
          observe,
          nullptr,
          false};  // NX-OS's CLI runs `a ; b` lists, but has no `echo` to mark where each output ends
}

}  // namespace fabricctl
