// Vocabulary and units (docs/reference-nxos.md, each with its source; its section E is the device
// acceptance checklist for what is UNCONFIRMED here):
// - Classification is a `policy-map type qos` on each port's input: class maps match DSCP (DSCP trust)
//   or CoS (PCP trust) and `set qos-group N`. There is no trust keyword on Nexus 9000. A qos-group is
//   both the egress queue (c-out-8q-qN) and the network-qos class (c-8q-nqN); Cisco's PFC guideline
//   keeps a no-drop class's CoS equal to its qos-group, so a lossless priority P is qos-group P, and
//   the model holds NX-OS profiles to priority == traffic class (PlatformTraits::priority_is_queue).
// - DSCP ranges as `match dscp 24-31`, one line per range: a comma list is UNCONFIRMED. The DSCPs of
//   DSCP 0's queue are left to `class class-default`, which also takes non-IP traffic.
// - `pause pfc-cos P` in the network-qos class makes it no-drop; `mtu 9216` there carves the buffers.
// - Queuing: `priority level N` (1 highest) for strict classes, the highest traffic class first;
//   `bandwidth remaining percent N` for ETS, 0 for an unused class (NX-OS prints 0 too).
// - ECN: `random-detect minimum-threshold A kbytes maximum-threshold B kbytes drop-probability P
//   weight 0 ecn`; kbytes is the only unit seen on real switches, and 1024 bytes to the kbyte is
//   UNCONFIRMED (the model refuses thresholds that are not whole kbytes: ecn_unit_bytes).
// - Port `mtu` counts the IP packet, as Linux and EOS do (Cisco Live; UNCONFIRMED on a device), 576-9216.
// - Watchdog: `priority-flow-control watch-dog-interval on|off`, globally and per port (real configs).
//   Its timers are UNCONFIRMED in form and range: `priority-flow-control watch-dog interval <ms>`,
//   `... watch-dog shutdown-multiplier <n>` (detection = n polls) and `priority-flow-control
//   auto-restore multiplier <n>` (restoration = n polls); the action is drop, NX-OS's only one.
#include "platform/nxos/config.h"

#include <algorithm>

#include "util/text.h"

namespace fabricctl::nxos {
namespace {

std::string n(int v) { return std::to_string(v); }

ConfigBlock block(std::string line, std::vector<std::string> lines = {}) {
  ConfigBlock b{std::move(line), {}};
  for (std::string& l : lines) b.children.push_back({std::move(l), {}});
  return b;
}

std::string class_map(int tc) { return std::string(kClassMapPrefix) + n(tc); }

/// The DSCPs (DSCP trust) or CoS values (PCP trust) each qos-group takes.
std::vector<std::vector<int>> classified(const QosIntent& q) {
  std::vector<std::vector<int>> by_tc(kTrafficClasses);
  if (q.trust == Trust::dscp) {
    for (int d = 0; d < kDscpValues; ++d)
      by_tc[static_cast<size_t>(q.priority_to_tc[static_cast<size_t>(q.dscp_to_priority[static_cast<size_t>(d)])])]
          .push_back(d);
  } else {
    for (int p = 0; p < kPriorities; ++p)
      by_tc[static_cast<size_t>(q.priority_to_tc[static_cast<size_t>(p)])].push_back(p);
  }
  return by_tc;
}

/// `match dscp A-B` per range of DSCPs, or `match cos N` per priority.
std::vector<std::string> matches(const QosIntent& q, const std::vector<int>& values) {
  std::vector<std::string> out;
  if (q.trust == Trust::pcp) {
    for (int p : values) out.push_back("match cos " + n(p));
    return out;
  }
  for (const std::string& r : split_lines(ranges(values, "\n"))) out.push_back("match dscp " + r);
  return out;
}

/// The watchdog's global lines.
std::vector<ConfigBlock> watchdog(const QosIntent& q) {
  const Watchdog& w = q.watchdog;
  if (!w.enabled || q.lossless_priorities().empty()) return {block("priority-flow-control watch-dog-interval off")};
  const int poll = std::max(w.poll_interval_ms, 1);
  return {block("priority-flow-control watch-dog-interval on"),
          block("priority-flow-control watch-dog interval " + n(w.poll_interval_ms)),
          block("priority-flow-control watch-dog shutdown-multiplier " + n(w.detection_ms / poll)),
          block("priority-flow-control auto-restore multiplier " + n(w.restoration_ms / poll))};
}

std::string ecn_line(const EcnQueue& e) {
  return "random-detect minimum-threshold " + std::to_string(e.min_bytes / 1024) + " kbytes maximum-threshold " +
         std::to_string(e.max_bytes / 1024) + " kbytes drop-probability " + n(e.probability_pct) + " weight 0 ecn";
}

}  // namespace

std::string network_qos_class(int tc) { return "c-8q-nq" + (tc == 0 ? std::string("-default") : n(tc)); }
std::string queuing_class(int tc) { return "c-out-8q-q" + (tc == 0 ? std::string("-default") : n(tc)); }

Config desired_config(const DeviceDesired& device) {
  const QosIntent& q = device.qos;
  Config c;
  const std::vector<ConfigBlock> wd = watchdog(q);
  c.insert(c.end(), wd.begin(), wd.end());

  // Classification: one class map per qos-group but the one class-default takes.
  const std::vector<std::vector<int>> by_tc = classified(q);
  const int default_tc = q.priority_to_tc[static_cast<size_t>(q.trust == Trust::dscp ? q.dscp_to_priority[0] : 0)];
  ConfigBlock qos_policy = block("policy-map type qos " + std::string(kQosPolicy));
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const std::vector<int>& values = by_tc[static_cast<size_t>(tc)];
    if (tc == default_tc || values.empty()) continue;
    c.push_back(block("class-map type qos match-any " + class_map(tc), matches(q, values)));
    qos_policy.children.push_back(block("class " + class_map(tc), {"set qos-group " + n(tc)}));
  }
  qos_policy.children.push_back(block("class class-default", {"set qos-group " + n(default_tc)}));
  c.push_back(std::move(qos_policy));

  // No-drop: a network-qos class per used qos-group, paused by its own CoS where lossless.
  ConfigBlock nq = block("policy-map type network-qos " + std::string(kNetworkQosPolicy));
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    if (!q.tc[static_cast<size_t>(tc)].used) continue;
    ConfigBlock cls = block("class type network-qos " + network_qos_class(tc), {"mtu " + n(kNetworkQosMtu)});
    std::vector<std::string> cos;
    for (int p : q.lossless_priorities())
      if (q.priority_to_tc[static_cast<size_t>(p)] == tc) cos.push_back(n(p));
    if (!cos.empty()) cls.children.push_back(block("pause pfc-cos " + join(cos, " ")));
    nq.children.push_back(std::move(cls));
  }
  c.push_back(std::move(nq));

  // Egress: every queue stated, strict ones by level (the highest traffic class first).
  ConfigBlock out = block("policy-map type queuing " + std::string(kQueuingPolicy));
  int level = 1;
  for (int tc = kTrafficClasses - 1; tc >= 0; --tc) {
    const TcSchedule& s = q.tc[static_cast<size_t>(tc)];
    ConfigBlock cls = block("class type queuing " + queuing_class(tc));
    if (s.used && s.strict) cls.children.push_back(block("priority level " + n(level++)));
    else cls.children.push_back(block("bandwidth remaining percent " + n(s.used ? s.bandwidth_pct : 0)));
    if (const EcnQueue* e = q.ecn_queue(tc)) cls.children.push_back(block(ecn_line(*e)));
    out.children.push_back(std::move(cls));
  }
  c.push_back(std::move(out));
  c.push_back(block("system qos", {"service-policy type network-qos " + std::string(kNetworkQosPolicy),
                                   "service-policy type queuing output " + std::string(kQueuingPolicy)}));

  const bool pfc = !q.lossless_priorities().empty();
  const bool wd_on = pfc && q.watchdog.enabled;
  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  for (const PortDesired* p : ports)
    c.push_back(block("interface " + p->name,
                      {"mtu " + n(p->mtu), std::string("priority-flow-control mode ") + (pfc ? "on" : "off"),
                       std::string("priority-flow-control watch-dog-interval ") + (wd_on ? "on" : "off"),
                       "service-policy type qos input " + std::string(kQosPolicy)}));
  return c;
}

namespace {
void print(const ConfigBlock& b, int depth, std::string& out) {
  out.append(static_cast<size_t>(depth) * 2, ' ');
  out += b.line;
  out += '\n';
  for (const ConfigBlock& child : b.children) print(child, depth + 1, out);
}
}  // namespace

std::string config_text(const Config& config) {
  std::string out;
  for (const ConfigBlock& b : config) print(b, 0, out);
  return out;
}

}  // namespace fabricctl::nxos
