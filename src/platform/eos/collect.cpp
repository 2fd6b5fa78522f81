// Arista EOS collection: five whole-device show commands (no value of the inventory in any of them).
// - `show running-config` (text): the QoS, PFC, ECN and watchdog lines session.cfg writes, read by
//   running_config.cpp. Only the lines that reader reads (and the block headers around them) are kept in
//   the raw file: the running-config also holds user secrets, `enable secret`, SNMP communities, TACACS+
//   and RADIUS keys and SSH keys, which must never reach disk (an allowlist, so a line EOS adds later
//   cannot leak either).
// - `show interfaces | json`: MTU, oper state and speed of each Ethernet port (no secrets: kept whole).
// - `show lldp neighbors | json`: the neighbour on each port.
// - `show priority-flow-control counters | json` and `show qos interfaces ecn counters queue | json`:
//   PFC frames received and sent per port (summed over priorities: EOS counts no finer) and ECN marks
//   per egress queue, for health (counters_json.cpp). A raw directory without them (one collected
//   before fabricctl read them) has no such counters, never zeros.
#include <array>
#include <set>

#include "platform/eos/counters_json.h"
#include "platform/eos/running_config.h"
#include "platform/eos/show_json.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "util/diag.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kRunningConfig = "running-config.txt";
constexpr std::string_view kInterfaces = "interfaces.json";
constexpr std::string_view kLldp = "lldp-neighbors.json";
constexpr std::array<CounterSource, 2> kCounterSources{{
    {"pfc-counters.json", "show priority-flow-control counters | json", eos::pfc_counters_json},
    {"ecn-counters.json", "show qos interfaces ecn counters queue | json", eos::ecn_counters_json},
}};

Expected<DeviceObserved> observe(std::string_view device, const RawOutputs& raw) {
  for (const std::string_view f : {kRunningConfig, kInterfaces, kLldp})
    if (raw_file(raw, f) == nullptr) return unexpected("no " + std::string(f) + " was collected");
  auto config = eos::parse_running_config(*raw_file(raw, kRunningConfig));
  if (!config) return unexpected("show running-config: " + config.error());
  // EOS ends its running-config with `end`: without it the output was cut short, and every setting after
  // the cut would read as its default.
  if (!config->ended)
    return unexpected("show running-config: no `end` line (output cut short, or not a running-config)");
  auto interfaces = eos::interfaces_json(*raw_file(raw, kInterfaces));
  if (!interfaces) return unexpected(interfaces.error());
  auto lldp = eos::lldp_neighbors_json(*raw_file(raw, kLldp));
  if (!lldp) return unexpected("show lldp neighbors: " + lldp.error());
  PortCounters qos_counters;
  for (const CounterSource& s : kCounterSources)
    if (auto c = add_counters(raw, s, qos_counters); !c) return unexpected(c.error());
  DeviceObserved d;
  d.name = std::string(device);
  d.platform = Platform::eos;
  d.source = "fabricctl collect (eos)";
  for (auto& [port, why] : interfaces->unreadable) d.unreadable_ports.emplace(port, why);
  for (auto& [port, why] : lldp->unreadable) d.unreadable_ports.emplace(port, why);
  // The ports: every Ethernet port `show interfaces` lists, and any the running-config has a block for.
  std::set<std::string, NaturalLess> names;
  for (const auto& [name, p] : interfaces->ports) names.insert(name);
  for (const auto& [name, block] : config->interfaces) {
    if (name.rfind("Ethernet", 0) != 0 || interfaces->unreadable.count(name)) continue;
    if (valid_port_name(name)) names.insert(name);
    else d.unreadable_ports.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
  }
  for (const std::string& name : names) {
    if (d.unreadable_ports.count(name)) continue;  // unreadable, named above
    auto p = eos::port_from_running_config(*config, name);
    if (!p) {
      d.unreadable_ports.emplace(name, "show running-config: " + p.error());
      continue;
    }
    // The operational MTU, speed, state and counters are `show interfaces`'; the configured MTU where it
    // has none.
    if (const auto s = interfaces->ports.find(name); s != interfaces->ports.end()) {
      if (s->second.mtu) p->mtu = s->second.mtu;
      p->speed_mbps = s->second.speed_mbps;
      p->oper_up = s->second.oper_up;
      p->counters = s->second.counters;
    }
    if (const auto c = qos_counters.find(name); c != qos_counters.end()) p->counters.merge(c->second);
    if (const auto n = lldp->ports.find(name); n != lldp->ports.end()) p->lldp = n->second;
    d.ports.push_back(std::move(*p));
  }
  return d;
}

}  // namespace

Collector eos_collector() {
  // The QoS counter commands are optional: a platform without them (cEOS, vEOS) still has its state read.
  return {
      {required_command(kRunningConfig, "show running-config", eos::keep_running_config),
       required_command(kInterfaces, "show interfaces | json"), required_command(kLldp, "show lldp neighbors | json"),
       collect_command(kCounterSources[0]), collect_command(kCounterSources[1])},
      observe,
      nullptr,
      false};  // EOS's CLI runs one command an exec: no lists
}

}  // namespace fabricctl
