// Arista EOS: the template context for session.cfg, the lines sent inside `configure session <name>`.
//
// Vocabulary and units (sources: aristanetworks/avd eos_cli_config_gen templates and molecule intended
// configs; the shared reference notes switch-nos.md, EOS section):
// - EOS "traffic-class" is our priority: `qos map dscp <list> to traffic-class <p>`, PFC `priority <p>`.
//   EOS "tx-queue" is our traffic class: `qos map traffic-class <p> to tx-queue <tc>`, `uc-tx-queue <tc>`.
// - PFC watchdog timers are seconds with decimals (200 ms -> "0.2"); the only action EOS accepts is drop.
// - ECN thresholds: `kbytes` when both thresholds are whole multiples of 1024 bytes, otherwise `bytes`.
//   ASSUMPTION: an EOS kbyte is 1024 bytes; no Arista document seen states it.
// - `mtu` on an Ethernet interface is the L3 MTU, the same number as the desired MTU.
// - Per-interface lines follow AVD's ethernet-interfaces.j2 order: mtu, qos trust, PFC, queue blocks.
//   `priority-flow-control pause watchdog` is confirmed inside `qos profile` (AVD qos-profiles.j2), which
//   carries interface-level QoS; directly under `interface` it is inferred, not seen in a source.
// - Queue blocks: EOS queues are strict priority by default; `no priority` + `bandwidth percent` makes a
//   queue weighted round robin. Only queues some priority maps to (or that carry ECN) get a block.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "util/text.h"

namespace fabricctl {
namespace {

/// Milliseconds as EOS seconds: 200 -> "0.2", 50 -> "0.05", 1110 -> "1.11", 1000 -> "1".
std::string seconds(int ms) {
  std::string sign = ms < 0 ? "-" : "";
  int v = std::abs(ms);
  std::string out = sign + std::to_string(v / 1000);
  int frac = v % 1000;
  if (frac != 0) {
    std::string f = std::to_string(frac);
    f.insert(0, 3 - f.size(), '0');
    while (f.back() == '0') f.pop_back();
    out += "." + f;
  }
  return out;
}

/// One ECN threshold pair in a unit EOS accepts, the same unit for both.
struct Thresholds {
  std::string min;
  std::string max;
};

Thresholds thresholds(uint64_t min_bytes, uint64_t max_bytes) {
  constexpr uint64_t kKbyte = 1024;
  if (min_bytes % kKbyte == 0 && max_bytes % kKbyte == 0)
    return {std::to_string(min_bytes / kKbyte) + " kbytes", std::to_string(max_bytes / kKbyte) + " kbytes"};
  return {std::to_string(min_bytes) + " bytes", std::to_string(max_bytes) + " bytes"};
}

const EcnQueue* ecn_for(const QosIntent& q, int tc) {
  if (!q.ecn_enabled) return nullptr;
  for (const EcnQueue& e : q.ecn)
    if (e.tc == tc) return &e;
  return nullptr;
}

nlohmann::json queue_blocks(const QosIntent& q) {
  nlohmann::json queues = nlohmann::json::array();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& s = q.tc[static_cast<size_t>(tc)];
    const EcnQueue* e = ecn_for(q, tc);
    if (!s.used && e == nullptr) continue;
    nlohmann::json block;
    block["id"] = std::to_string(tc);
    // EOS queues are strict priority by default; `no priority` makes one weighted round robin.
    if (!s.used) block["priority"] = false;
    else block["priority"] = s.strict ? "priority strict" : "no priority";
    if (s.used && !s.strict) block["bandwidth"] = std::to_string(s.bandwidth_pct);
    else block["bandwidth"] = false;
    if (e != nullptr) {
      Thresholds t = thresholds(e->min_bytes, e->max_bytes);
      block["ecn"] = {{"min", t.min}, {"max", t.max}, {"probability", std::to_string(e->probability_pct)}};
    } else {
      block["ecn"] = false;
    }
    queues.push_back(block);
  }
  return queues;
}

}  // namespace

nlohmann::json eos_context(const DeviceDesired& device) {
  const QosIntent& q = device.qos;
  nlohmann::json c = common_context(device);

  // DSCP -> EOS traffic-class (our priority), all 64 DSCPs grouped per priority. EOS's default map is not
  // all-zero (as far as known, DSCP 0 lands in traffic-class 1), so every value is written.
  nlohmann::json dscp_maps = nlohmann::json::array();
  for (int p = 0; p < kPriorities; ++p) {
    std::vector<std::string> dscps;
    for (int d = 0; d < kDscpValues; ++d)
      if (q.dscp_to_priority[static_cast<size_t>(d)] == p) dscps.push_back(std::to_string(d));
    if (!dscps.empty()) dscp_maps.push_back({{"priority", std::to_string(p)}, {"dscps", join(dscps, " ")}});
  }
  c["dscp_maps"] = dscp_maps;

  // With PCP trust the priority is the frame's PCP: pin COS n -> traffic-class n. EOS's default COS map is
  // believed not to be the identity (COS 0 -> traffic-class 1); writing all eight makes that moot.
  nlohmann::json cos_maps = nlohmann::json::array();
  if (q.trust == Trust::pcp)
    for (int p = 0; p < kPriorities; ++p)
      cos_maps.push_back({{"cos", std::to_string(p)}, {"priority", std::to_string(p)}});
  c["cos_maps"] = cos_maps;

  nlohmann::json tc_maps = nlohmann::json::array();
  for (int p = 0; p < kPriorities; ++p)
    tc_maps.push_back(
        {{"priority", std::to_string(p)}, {"tc", std::to_string(q.priority_to_tc[static_cast<size_t>(p)])}});
  c["tc_maps"] = tc_maps;

  std::vector<int> lossless = q.lossless_priorities();
  bool pfc = !lossless.empty();
  bool watchdog = q.watchdog.enabled && pfc;
  if (watchdog) {
    c["watchdog"] = {{"timeout", seconds(q.watchdog.detection_ms)},
                     {"recovery_time", seconds(q.watchdog.restoration_ms)},
                     {"polling_interval", seconds(q.watchdog.poll_interval_ms)},
                     {"action", std::string(to_string(q.watchdog.action))}};
  } else {
    c["watchdog"] = false;
  }

  nlohmann::json no_drop = nlohmann::json::array();
  for (int p : lossless) no_drop.push_back(std::to_string(p));
  nlohmann::json queues = queue_blocks(q);

  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  nlohmann::json interfaces = nlohmann::json::array();
  for (const PortDesired* p : ports) {
    interfaces.push_back({{"name", p->name},
                          {"mtu", std::to_string(p->mtu)},
                          {"trust", q.trust == Trust::dscp ? "dscp" : "cos"},
                          {"pfc", pfc ? "priority-flow-control on" : "no priority-flow-control"},
                          {"no_drop", no_drop},
                          {"pfc_watchdog", watchdog},
                          {"queues", queues}});
  }
  c["interfaces"] = interfaces;
  return c;
}

}  // namespace fabricctl
