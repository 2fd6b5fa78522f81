// NVUE collection: three whole-device commands (no value of the inventory in any of them).
// - `nv config show -o json`: the applied configuration, read by config_reader (its QoS and interface
//   trees). The tree also holds local users' password hashes (system aaa), SNMP communities and
//   RADIUS/TACACS+ secrets, which must never reach disk: only an allowlist is kept, the header's
//   version (the release, nvue/release.h), the qos tree and, of each interface, its type, link mtu and
//   qos, so a subtree NVUE adds later cannot leak either. On a switch the inventory says runs 5.15 or
//   later (`nvue.release`) the command is `nv config show --expand -o json`: 5.15 prints range keys
//   ("swp1-32") as they were set unless told to expand them (NVUE-CLI.md); the reader expands what an
//   older release, or a wrong inventory, leaves unexpanded.
// - `nv show interface -o json`: oper state, speed and MTU of every interface (interface_reader).
// - `nv show interface --view=lldp`: the neighbour on each port. NVIDIA documents this table (as
//   `nv show interface lldp`, Cumulus Linux 5.0; the `--view` form since 5.x, NVUE-CLI.md) and no JSON
//   of it; the per-port `nv show interface <if> lldp neighbor` would put a port name in a command.
// - `nv show interface <if> counters qos`, per inventory port (NVUE has these counters per port only, and
//   documents their text, not JSON): PFC frames per priority, egress queues' frames and WRED drops, the
//   port's ECN marks; and `nv show interface <if> qos pfc-watchdog`: the storms its PFC watchdog
//   detected per traffic class (qos_counters.h). Optional: a port that does not answer has none of them.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>

#include "platform/nvue/config_reader.h"
#include "platform/nvue/interface_reader.h"
#include "platform/nvue/qos_counters.h"
#include "platform/nvue/release.h"
#include "platform/nvue/show_table.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kConfig = "config.json";
constexpr std::string_view kInterfaces = "interfaces.json";
constexpr std::string_view kLldp = "lldp.txt";
constexpr std::string_view kQosCounters = "qos-counters-{port}.txt";
constexpr std::string_view kWatchdog = "pfc-watchdog-{port}.txt";

constexpr std::array<PortCounterSource, 2> kPortCounters{{
    {kQosCounters, "nv show interface {port} counters qos", nvue::qos_counters},
    {kWatchdog, "nv show interface {port} qos pfc-watchdog", nvue::pfc_watchdog},
}};

using json = nlohmann::ordered_json;

/// Of one interface, what config_reader reads: type, link.mtu, qos.
json kept_interface(const json& entry) {
  if (!entry.is_object()) return entry.is_string() ? json("") : entry;  // the reader rejects it; no text kept
  json out = json::object();
  if (const auto t = entry.find("type"); t != entry.end()) out["type"] = *t;
  if (const auto link = entry.find("link"); link != entry.end() && link->is_object())
    if (const auto mtu = link->find("mtu"); mtu != link->end()) out["link"]["mtu"] = *mtu;
  if (const auto qos = entry.find("qos"); qos != entry.end()) out["qos"] = *qos;
  return out;
}

/// The header's version when it is a short string, else nothing: the reader checks it.
json kept_header(const json& doc) {
  if (!doc.is_array()) return nullptr;
  for (const json& e : doc)
    if (e.is_object() && e.contains("header") && e["header"].is_object())
      if (const auto v = e["header"].find("version"); v != e["header"].end() && v->is_string() && v->size() <= 64)
        return {{"version", *v}};
  return nullptr;
}

/// The applied configuration with only the allowlisted subtrees: startup.yaml's list of the header (its
/// version) and the tree when the output has a header, else the bare tree; "" when the output is not an
/// NVUE configuration (the reader then reports it; the text itself, which may hold anything, is not kept).
std::string keep_qos_and_interfaces(std::string_view output) {
  // NVUE's trees are about ten levels deep; deeper values are dropped, not recursed into.
  const json::parser_callback_t bounded = [](int depth, json::parse_event_t, json&) { return depth <= 16; };
  const json doc = json::parse(output, bounded, false);
  if (doc.is_discarded()) return {};
  const json* tree = doc.is_object() ? &doc : nullptr;
  if (doc.is_array())
    for (const json& e : doc)
      if (e.is_object() && e.contains("set") && e["set"].is_object()) tree = &e["set"];
  const json header = kept_header(doc);
  const auto listed = [&header](json set) {
    if (header.is_null()) return set.dump(2) + "\n";
    return json::array({{{"header", header}}, {{"set", std::move(set)}}}).dump(2) + "\n";
  };
  if (tree == nullptr) return doc.is_array() ? listed(json::object()) : std::string();
  json out = json::object();
  if (const auto qos = tree->find("qos"); qos != tree->end()) out["qos"] = *qos;
  if (const auto ifs = tree->find("interface"); ifs != tree->end() && ifs->is_object()) {
    json& kept = out["interface"] = json::object();
    for (const auto& [name, entry] : ifs->items()) kept[name] = kept_interface(entry);
  }
  return listed(std::move(out));
}

/// `nv config show` expanded where the inventory says the release has `--expand` (5.15 and later).
std::string command_line(const CollectCommand& command, const DeviceDesired& device, std::string_view) {
  if (command.file != kConfig || device.hardware.nos_release.empty()) return std::string(command.command);
  const auto release = nvue::parse_release(device.hardware.nos_release);
  return release && release->state_forms() ? "nv config show --expand -o json" : std::string(command.command);
}

Expected<DeviceObserved> observe(std::string_view device, const RawOutputs& raw) {
  for (const std::string_view f : {kConfig, kInterfaces, kLldp})
    if (raw_file(raw, f) == nullptr) return unexpected("no " + std::string(f) + " was collected");
  auto config = nvue::ports_from_config(*raw_file(raw, kConfig));
  if (!config) return unexpected(config.error());
  auto state = nvue::interfaces(*raw_file(raw, kInterfaces));
  if (!state) return unexpected(state.error());
  auto lldp = nvue::lldp_view(*raw_file(raw, kLldp));
  if (!lldp) return unexpected(lldp.error());
  PortCounters qos;
  for (const PortCounterSource& source : kPortCounters)
    if (auto c = add_counters(raw, source, qos); !c) return unexpected(c.error());
  DeviceObserved d;
  d.name = std::string(device);
  d.platform = Platform::nvue;
  d.source = "fabricctl collect (nvue)";
  for (auto& [port, why] : config->unreadable) d.unreadable_ports.emplace(port, why);
  for (auto& [port, why] : state->unreadable) d.unreadable_ports.emplace(port, why);
  for (auto& [port, why] : lldp->unreadable) d.unreadable_ports.emplace(port, why);
  // The ports: the swp interfaces of the configuration, and those the switch reports that the
  // configuration does not name (they run the device-wide settings and NVUE's default MTU).
  std::vector<PortObserved> ports = std::move(config->ports);
  for (const auto& [name, s] : state->by_name) {
    const std::string_view port_name = name;  // a lambda cannot capture a structured binding (clang 14)
    const bool known =
        std::any_of(ports.begin(), ports.end(), [&](const PortObserved& p) { return p.name == port_name; });
    if (s.type == "swp" && !known && d.unreadable_ports.count(name) == 0) {
      ports.push_back(config->defaults);
      ports.back().name = name;
    }
  }
  std::sort(ports.begin(), ports.end(),
            [](const PortObserved& a, const PortObserved& b) { return natural_less(a.name, b.name); });
  for (PortObserved& p : ports) {
    if (d.unreadable_ports.count(p.name) != 0) continue;  // one of the two outputs could not read it
    // The operational speed, state and counters are the switch's; the configured MTU is the configuration's.
    if (const auto s = state->by_name.find(p.name); s != state->by_name.end()) {
      p.speed_mbps = s->second.speed_mbps;
      p.oper_up = s->second.oper_up;
      p.counters = s->second.counters;
    }
    if (const auto q = qos.find(p.name); q != qos.end()) p.counters.insert(q->second.begin(), q->second.end());
    if (const auto n = lldp->ports.find(p.name); n != lldp->ports.end()) p.lldp = n->second;
    d.ports.push_back(std::move(p));
  }
  return d;
}

}  // namespace

Collector nvue_collector() {
  return {{required_command(kConfig, "nv config show -o json", keep_qos_and_interfaces),
           required_command(kInterfaces, "nv show interface -o json"),
           required_command(kLldp, "nv show interface --view=lldp"), collect_command(kPortCounters[0]),
           collect_command(kPortCounters[1])},
          observe,
          command_line,
          true};  // Cumulus Linux's login shell is bash: the counter commands share an exec
}

}  // namespace fabricctl
