// Vocabulary and units (docs/reference-junos.md, each with its source; its acceptance checklist holds
// what is UNCONFIRMED here):
// - A forwarding class per traffic class that carries traffic, on the queue of its number; a lossless
//   one is `no-loss` with its `pfc-priority`. A class has one PFC priority, so the model holds Junos
//   profiles to priority == traffic class (PlatformTraits::priority_is_queue), as Juniper's own AI
//   designs do for the priorities they pause.
// - Classification: a DSCP classifier (DSCP trust) or an IEEE 802.1 one (PCP trust) listing every code
//   point, bound to unit 0 of each port.
// - PFC: a congestion notification profile: `input dscp code-point B pfc` for each DSCP of a lossless
//   priority (`input ieee-802.1` under PCP trust), `output ieee-802.1 code-point P flow-control-queue Q`
//   for each lossless priority, and `pfc-watchdog` (poll interval and recovery in ms, detection in poll
//   intervals, action drop or forward). Junos refuses a watchdog without the output stanza.
// - ETS: a scheduler per class, `transmit-rate percent N` or `priority strict-high`, in one scheduler
//   map. ECN: `explicit-congestion-notification` with a drop profile whose fill levels are percents of
//   the queue's buffer (which buffer is UNCONFIRMED: the inventory states it, ecn_buffer_kbytes).
// - MTU: the port's media MTU, the intent's IP MTU + 14.
#include "platform/junos/config.h"

#include <algorithm>

#include "util/text.h"

namespace fabricctl::junos {
namespace {

std::string n(int64_t v) { return std::to_string(v); }

std::string klass(int tc) { return std::string(kClassPrefix) + n(tc); }

void add(Statements& s, const std::string& prefix, std::initializer_list<std::string> leaves) {
  for (const std::string& leaf : leaves) s.push_back(prefix + " " + leaf);
}

}  // namespace

std::string dscp_bits(int dscp) {
  std::string out(6, '0');
  for (int i = 0; i < 6; ++i)
    if ((dscp >> (5 - i)) & 1) out[static_cast<size_t>(i)] = '1';
  return out;
}

std::string pcp_bits(int priority) { return dscp_bits(priority).substr(3); }

std::string drop_profile(int tc, uint64_t buffer_bytes) {
  return std::string(kDropProfilePrefix) + n(tc) + "-" + n(static_cast<int64_t>(buffer_bytes / 1024)) + "K";
}

Statements desired_statements(const DeviceDesired& device) {
  const QosIntent& q = device.qos;
  const std::string cos = "class-of-service ";
  const bool dscp = q.trust == Trust::dscp;
  const std::vector<int> lossless = q.lossless_priorities();
  Statements s;

  // Forwarding classes, on the queue of their number.
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    if (!q.tc[static_cast<size_t>(tc)].used) continue;
    std::string line = cos + "forwarding-classes class " + klass(tc) + " queue-num " + n(tc);
    if (std::find(lossless.begin(), lossless.end(), tc) != lossless.end()) line += " no-loss pfc-priority " + n(tc);
    s.push_back(line);
  }

  // Classification: every code point named.
  const std::string classifier =
      cos + "classifiers " +
      (dscp ? "dscp " + std::string(kDscpClassifier) : "ieee-802.1 " + std::string(kPcpClassifier));
  if (dscp) {
    for (int d = 0; d < kDscpValues; ++d) {
      const int tc = q.priority_to_tc[static_cast<size_t>(q.dscp_to_priority[static_cast<size_t>(d)])];
      s.push_back(classifier + " forwarding-class " + klass(tc) + " loss-priority low code-points " + dscp_bits(d));
    }
  } else {
    for (int p = 0; p < kPriorities; ++p)
      s.push_back(classifier + " forwarding-class " + klass(q.priority_to_tc[static_cast<size_t>(p)]) +
                  " loss-priority low code-points " + pcp_bits(p));
  }

  // PFC and its watchdog.
  if (!lossless.empty()) {
    const std::string cnp = cos + "congestion-notification-profile " + std::string(kCnp);
    if (dscp) {
      for (int d = 0; d < kDscpValues; ++d)
        if (q.lossless[static_cast<size_t>(q.dscp_to_priority[static_cast<size_t>(d)])])
          s.push_back(cnp + " input dscp code-point " + dscp_bits(d) + " pfc");
    } else {
      for (int p : lossless) s.push_back(cnp + " input ieee-802.1 code-point " + pcp_bits(p) + " pfc");
    }
    for (int p : lossless)
      s.push_back(cnp + " output ieee-802.1 code-point " + pcp_bits(p) + " flow-control-queue " +
                  n(q.priority_to_tc[static_cast<size_t>(p)]));
    const Watchdog& w = q.watchdog;
    if (w.enabled)
      add(s, cnp + " pfc-watchdog",
          {"poll-interval " + n(w.poll_interval_ms), "detection " + n(w.detection_ms / std::max(w.poll_interval_ms, 1)),
           "recovery " + n(w.restoration_ms),
           std::string("watchdog-action ") + (w.action == WatchdogAction::forward ? "forward" : "drop")});
  }

  // ECN drop profiles: fill levels in percent of the queue's buffer, the probability rising from 0.
  const uint64_t buffer = std::max<uint64_t>(device.hardware.ecn_buffer_bytes, 1);
  for (const EcnQueue& e : q.ecn) {
    if (!q.ecn_queue(e.tc)) continue;
    const std::string dp = cos + "drop-profiles " + drop_profile(e.tc, buffer) + " interpolate";
    add(s, dp,
        {"fill-level " + n(static_cast<int64_t>(e.min_bytes * 100 / buffer)),
         "fill-level " + n(static_cast<int64_t>(e.max_bytes * 100 / buffer)), "drop-probability 0"});
    // A leaf list holds a value once: a probability of 0 is the one point (UNCONFIRMED how Junos reads it).
    if (e.probability_pct > 0) s.push_back(dp + " drop-probability " + n(e.probability_pct));
  }

  // Schedulers and their map.
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& t = q.tc[static_cast<size_t>(tc)];
    if (!t.used) continue;
    const std::string sch = cos + "schedulers " + klass(tc);
    s.push_back(sch + (t.strict ? " priority strict-high" : " transmit-rate percent " + n(t.bandwidth_pct)));
    if (q.ecn_queue(tc))
      add(s, sch,
          {"explicit-congestion-notification",
           "drop-profile-map loss-priority any protocol any drop-profile " + drop_profile(tc, buffer)});
  }
  for (int tc = 0; tc < kTrafficClasses; ++tc)
    if (q.tc[static_cast<size_t>(tc)].used)
      s.push_back(cos + "scheduler-maps " + std::string(kSchedulerMap) + " forwarding-class " + klass(tc) +
                  " scheduler " + klass(tc));

  // Ports: bindings, then media MTU.
  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  for (const PortDesired* p : ports) {
    const std::string cif = cos + "interfaces " + p->name;
    if (!lossless.empty()) s.push_back(cif + " congestion-notification-profile " + std::string(kCnp));
    s.push_back(cif + " scheduler-map " + std::string(kSchedulerMap));
    s.push_back(cif + " unit 0 classifiers " +
                (dscp ? "dscp " + std::string(kDscpClassifier) : "ieee-802.1 " + std::string(kPcpClassifier)));
  }
  for (const PortDesired* p : ports) s.push_back("interfaces " + p->name + " mtu " + n(p->mtu + kMediaMtuOverhead));
  return s;
}

std::string set_text(const DeviceDesired& device, const Statements& statements) {
  std::string out = "# fabricctl: " + device.name + " profile " + device.profile + "\n";
  for (const std::string& st : statements) out += "set " + st + "\n";
  return out;
}

}  // namespace fabricctl::junos
