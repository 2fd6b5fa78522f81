// Arista EOS: the template context for session.cfg, the lines sent inside `configure session <name>`.
//
// Vocabulary and units (sources: aristanetworks/avd eos_cli_config_gen templates and molecule intended
// configs, pyeapi's running-config fixture of a vEOS, AVD issue #4900 from a 7280SRA; the shared
// reference notes switch-nos.md, EOS section):
// - EOS "traffic-class" is our priority: `qos map dscp <list> to traffic-class <p>`, PFC `priority <p>`.
//   EOS's egress queue is our traffic class, and its name depends on the chip (DeviceDesired::hardware):
//   Trident and Tomahawk have separate unicast and multicast queues (`to uc-tx-queue <tc>`,
//   `uc-tx-queue <tc>`), Jericho has virtual output queues (`to tx-queue <tc>`, `tx-queue <tc>`). A
//   session that mixes the two is rejected, so one keyword serves both the map and the queue blocks.
// - `qos map traffic-class` takes a list: one line per queue, the priorities space-separated, as EOS
//   prints it. EOS keeps traffic-class 7 for its own control traffic; it is mapped only when the
//   profile classifies traffic into priority 7.
// - PFC watchdog timers are seconds with decimals (200 ms -> "0.2"); the only action EOS accepts is drop.
// - ECN thresholds in bytes: EOS also takes kbytes, but no Arista document says whether a kbyte is 1000
//   or 1024 bytes. `weight 0` marks on the instantaneous queue depth (Arista's RoCE example), which
//   DCQCN needs; a queue's marking is otherwise judged on a moving average.
// - `mtu` on an Ethernet interface is the L3 MTU, the same number as the desired MTU.
// - Per-interface lines follow AVD's ethernet-interfaces.j2 order: mtu, qos trust, PFC, queue blocks.
//   `priority-flow-control pause watchdog` is what EOS prints under an interface in `show
//   running-config all` (on by default once the global timers are set).
// - Queue blocks: EOS queues are strict priority by default; `no priority` + `bandwidth percent` makes a
//   queue weighted round robin.
// - A session merges into the running config, so a setting the intent no longer has would survive a line
//   that is merely left out. Every setting fabricctl manages is therefore stated, as a value or as its
//   removal: each of the eight PFC priorities (`no priority-flow-control priority N no-drop` for the lossy
//   ones),
//   the port's watchdog, and every queue block (`no bandwidth percent` on strict queues, `no random-detect
//   ecn minimum-threshold` where the intent has no ECN, the form public EOS DCQCN tooling uses to turn marking
//   off; Arista's own documents were not found to show it). With the watchdog off, its global timers are removed as
//   well. What a previous intent may leave but nothing reads is left alone: a COS map under DSCP trust, the map of
//   priority 7.
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

/// The ECN line of a queue block: thresholds in bytes, the marking probability, instantaneous depth.
std::string ecn_line(const EcnQueue& e) {
  return "random-detect ecn minimum-threshold " + std::to_string(e.min_bytes) + " bytes maximum-threshold " +
         std::to_string(e.max_bytes) + " bytes max-mark-probability " + std::to_string(e.probability_pct) + " weight 0";
}

nlohmann::json queue_blocks(const QosIntent& q) {
  nlohmann::json queues = nlohmann::json::array();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& s = q.tc[static_cast<size_t>(tc)];
    const EcnQueue* e = q.ecn_queue(tc);
    const bool wrr = s.used && !s.strict;
    // A queue no priority maps to is put back to EOS's default, strict priority without ECN.
    queues.push_back(
        {{"id", std::to_string(tc)},
         {"used", s.used},
         {"priority", wrr ? "no priority" : "priority strict"},
         {"bandwidth", wrr ? "bandwidth percent " + std::to_string(s.bandwidth_pct) : "no bandwidth percent"},
         {"ecn", e != nullptr ? ecn_line(*e) : "no random-detect ecn minimum-threshold"}});
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

  // Priority (EOS traffic-class) -> queue, one line per queue. Traffic-class 7 is EOS's own unless the
  // profile puts traffic there.
  const std::string queue = device.hardware.voq ? "tx-queue" : "uc-tx-queue";
  c["queue_keyword"] = queue;
  bool priority7 = q.trust == Trust::pcp;
  for (int d = 0; d < kDscpValues; ++d) priority7 = priority7 || q.dscp_to_priority[static_cast<size_t>(d)] == 7;
  nlohmann::json tc_maps = nlohmann::json::array();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    std::vector<std::string> priorities;
    for (int p = 0; p < kPriorities; ++p)
      if (q.priority_to_tc[static_cast<size_t>(p)] == tc && (p != 7 || priority7))
        priorities.push_back(std::to_string(p));
    if (!priorities.empty())
      tc_maps.push_back(
          {{"line", "qos map traffic-class " + join(priorities, " ") + " to " + queue + " " + std::to_string(tc)}});
  }
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

  // Every priority is stated, in priority order: the lossless ones no-drop, the others back to EOS's
  // default (drop), so a priority the intent no longer makes lossless is removed from the port and a
  // review diff shows that one line change.
  nlohmann::json priorities = nlohmann::json::array();
  for (int p = 0; p < kPriorities; ++p) {
    const std::string line = "priority-flow-control priority " + std::to_string(p) + " no-drop";
    priorities.push_back(q.lossless[static_cast<size_t>(p)] ? line : "no " + line);
  }
  // What every interface gets is the same on the whole device: it sits once at the top of the context,
  // where the interface section finds it (Mustache looks names up through the enclosing sections), not
  // copied into each of a switch's interfaces.
  c["trust"] = q.trust == Trust::dscp ? "dscp" : "cos";
  c["pfc"] = pfc ? "priority-flow-control on" : "no priority-flow-control";
  c["priorities"] = priorities;
  c["pfc_watchdog"] = watchdog ? "priority-flow-control pause watchdog" : "no priority-flow-control pause watchdog";
  c["queues"] = queue_blocks(q);

  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  nlohmann::json interfaces = nlohmann::json::array();
  for (const PortDesired* p : ports) interfaces.push_back({{"name", p->name}, {"mtu", std::to_string(p->mtu)}});
  c["interfaces"] = interfaces;
  return c;
}

}  // namespace fabricctl
