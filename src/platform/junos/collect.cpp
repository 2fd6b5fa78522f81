// Juniper Junos collection: three whole-device show commands (no value of the inventory in any of them).
// - `show configuration | display inheritance no-comments | display set`: the class-of-service statements
//   and each port's media MTU, read by running.cpp; with what apply-groups give, shown where it applies
//   (QFX configurations use groups; a PFC profile a group binds is in effect all the same). Only those are kept in the
//   raw file (an allowlist): the configuration also holds users' password hashes, SNMP communities and RADIUS/TACACS+
//   secrets.
// - `show interfaces | display json`: operational MTU, speed and state of each front-panel port.
// - `show lldp neighbors | display json`: the neighbour on each port.
// Why `display set` for the configuration: it is the form `load set` takes, one statement a line, which
// plan's change is written in; Junos's configuration JSON has quirks of its own (attributes under "@",
// presence leaves as [null]). Why JSON for the rest: `| display json` is Junos's structured form of a show
// command from 14.2, the same as the NETCONF reply in JSON (docs/reference-junos.md, section d).
// - `show interfaces extensive | display json`, a counter command (collect and health run it; verify,
//   plan and apply judge no counter and do not): the same rows with their error lists, FEC, PFC frames per
//   priority and queue counters (show_json.h). Its shape is known from one Junos 22.4 QFX output
//   (tests/fixtures/junos), not from a second release: a row it cannot read makes that port unreadable;
//   only an output that is not such a document fails the switch. ECN
//   marks are not read: no public Junos output with them was found (docs/counters-reference.md).
#include <set>

#include "platform/junos/running.h"
#include "platform/junos/show_json.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kConfiguration = "configuration.txt";
constexpr std::string_view kInterfaces = "interfaces.json";
constexpr std::string_view kLldp = "lldp-neighbors.json";

/// `show interfaces extensive`: the rows of `show interfaces` with their counters.
Expected<PortTable<PortObserved>> extensive_json(std::string_view text) {
  return junos::interfaces_json(text, "show interfaces extensive");
}
constexpr PortTableSource kCounters{"interfaces-extensive.json", "show interfaces extensive | display json",
                                    extensive_json};

Expected<DeviceObserved> observe(std::string_view device, const RawOutputs& raw) {
  for (const std::string_view f : {kConfiguration, kInterfaces, kLldp})
    if (raw_file(raw, f) == nullptr) return unexpected("no " + std::string(f) + " was collected");
  auto statements = junos::read_statements(*raw_file(raw, kConfiguration));
  if (!statements) return unexpected("show configuration: " + statements.error());
  auto interfaces = junos::interfaces_json(*raw_file(raw, kInterfaces));
  if (!interfaces) return unexpected(interfaces.error());
  std::vector<std::string> listed;
  for (const auto& [name, p] : interfaces->ports) listed.push_back(name);
  const junos::RunningPorts running = junos::ports_from_statements(*statements, listed);
  auto lldp = junos::lldp_neighbors_json(*raw_file(raw, kLldp));
  if (!lldp) return unexpected(lldp.error());
  // The counters, where they were collected (a raw directory of verify, plan or apply has none).
  PortTable<PortObserved> counters;
  if (auto c = add_counters(raw, kCounters, counters); !c) return unexpected(c.error());

  DeviceObserved d;
  d.name = std::string(device);
  d.platform = Platform::junos;
  d.source = "fabricctl collect (junos)";
  using Why = std::map<std::string, std::string, std::less<>>;
  for (const Why* unreadable :
       {&running.unreadable, static_cast<const Why*>(&interfaces->unreadable),
        static_cast<const Why*>(&lldp->unreadable), static_cast<const Why*>(&counters.unreadable)})
    for (const auto& [port, why] : *unreadable) d.unreadable_ports.emplace(port, why);
  for (const auto& [name, configured] : running.ports) {
    if (d.unreadable_ports.count(name)) continue;
    PortObserved p = configured;
    // The operational MTU, speed and state are `show interfaces`'s; the configured MTU where it has none.
    if (const auto s = interfaces->ports.find(name); s != interfaces->ports.end()) {
      if (s->second.mtu) p.mtu = s->second.mtu;
      p.speed_mbps = s->second.speed_mbps;
      p.oper_up = s->second.oper_up;
    }
    if (const auto c = counters.ports.find(name); c != counters.ports.end()) p.counters = c->second.counters;
    if (const auto n = lldp->ports.find(name); n != lldp->ports.end()) p.lldp = n->second;
    d.ports.push_back(std::move(p));
  }
  return d;
}

}  // namespace

Collector junos_collector() {
  return {{required_command(kConfiguration, "show configuration | display inheritance no-comments | display set",
                            junos::keep_configuration),
           required_command(kInterfaces, "show interfaces | display json"),
           required_command(kLldp, "show lldp neighbors | display json"), collect_command(kCounters)},
          observe,
          nullptr,
          false};  // the Junos CLI takes one command an exec (docs/reference-junos.md, section c)
}

}  // namespace fabricctl
