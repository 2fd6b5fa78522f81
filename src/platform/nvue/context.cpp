// NVIDIA Cumulus Linux NVUE: the template context for commands.nvue, `nv set` lines in a stable order.
//
// Vocabulary and units (source: CumulusNetworks/docs, Quality-of-Service and NVUE command reference):
// - NVUE "switch-priority" is our priority and "traffic-class" our traffic class; only the default-global
//   profiles are written, so the settings apply to every port.
// - NVIDIA's RoCE mode (`nv set qos roce mode lossless`) is used when the profile is what it configures
//   but for what NVIDIA documents adjusting afterwards: trust and the DSCP map (RDMA-over-Converged-
//   Ethernet-RoCE.md, "Change RoCE Configuration"). It brings its own lossless buffer pools and the LLDP
//   application TLV (UDP 4791, the RoCE priority). Any other profile is written explicitly: NVIDIA
//   documents no adjustment of RoCE mode's ECN or scheduling.
// - ECN: NVUE marks TC0 unless told otherwise (default-global), and no other NOS does: a used class the
//   profile gives no ECN gets `ecn disable`, so best-effort ECN is the profile's choice (ecn.tc.0).
// - ECN thresholds are bytes. `link mtu` is the Linux netdev (L3) MTU, the same number as the desired MTU.
// - PFC cable length is per profile, so the global profile takes the longest cable of the device.
// - PFC watchdog: NVUE sets only the polling interval (ms) and robustness (polling intervals a queue must
//   stay paused before the watchdog acts): robustness = ceil(detection / polling interval). NVUE has no
//   restoration-time or action knob: the watchdog drops while the storm lasts and restores PFC after a
//   polling interval without pause frames.
// - Egress scheduler: default-global starts with every class DWRR at 12-13 %, and DWRR shares must add up
//   to at most 100 (bw-percent 1-100), so classes no priority maps to are set strict; with no traffic they
//   take no bandwidth.
// - Removals: `nv set` merges into the applied configuration, so every setting fabricctl manages is
//   stated as a value or removed with `nv unset` (paths from the NVUE command reference): the PFC
//   priorities that are not lossless, the bw-percent of strict classes, the PFC watchdog, RoCE mode when
//   the profile is written explicitly, the thresholds of classes without ECN, and the PFC profile and the
//   lossless pool split when nothing is lossless. A setting
//   the intent drops is then removed on the switch, and the diff a reviewer approves shows it. Unsetting
//   what the switch does not have is taken to be a no-op, as it is for NVUE's other paths (UNCONFIRMED
//   in NVIDIA's documents). Switching to RoCE mode unsets, in the same transaction, the default-global
//   paths an explicit profile writes (PFC, egress queue mapping, scheduler, congestion control, the pool
//   split, the PCP and DSCP maps but for RoCE's adjustments), so that nothing of an earlier explicit
//   profile is left under RoCE mode: NVIDIA documents no interplay of the two.
// - PFC watchdog per port: `qos pfc-watchdog state enable` (Cumulus Linux 5.6 and later), the explicit
//   form, rather than the bare `qos pfc-watchdog`, whose meaning rests on the state's default.
// - Buffer pools: NVIDIA documents that PFC needs a lossless buffer pool before it is configured (the
//   default gives 100 % to default-lossy). Until profiles carry a buffer split, NVIDIA's documented 50/50
//   split is written when any priority is lossless.
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/nvue/release.h"
#include "platform/platform.h"
#include "util/text.h"

namespace fabricctl {
namespace {

// What `nv set qos roce` (lossless mode) configures, besides trust (pcp,dscp) and the DSCP map
// (8 code points per switch priority), which are documented as adjustable after it.
constexpr int kRocePriority = 3;
constexpr int kCnpPriority = 6;
constexpr uint64_t kRoceEcnMinBytes = 150000;
constexpr uint64_t kRoceEcnMaxBytes = 1500000;
constexpr int kRoceEcnProbability = 100;

/// NVIDIA's default DSCP -> switch-priority map: eight code points per priority.
int nvue_default_priority(int dscp) { return dscp / 8; }

/// Whether `q` is RoCE mode's configuration but for trust and the DSCP map: lossless priority 3, RoCE
/// in TC3 and CNPs in TC6, every other priority in TC0; TC0 and TC3 DWRR 50 %, TC6 strict; ECN on TC0
/// and TC3 at 150000-1500000 bytes, probability 100.
bool matches_roce_mode(const QosIntent& q) {
  std::array<bool, kPriorities> lossless{};
  lossless[kRocePriority] = true;
  if (q.lossless != lossless || q.roce_priority != kRocePriority || q.cnp_priority != kCnpPriority) return false;
  for (int p = 0; p < kPriorities; ++p) {
    const int want = p == kRocePriority ? 3 : p == kCnpPriority ? 6 : 0;
    if (q.priority_to_tc[static_cast<size_t>(p)] != want) return false;
  }
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& s = q.tc[static_cast<size_t>(tc)];
    const bool want_used = tc == 0 || tc == 3 || tc == 6;
    if (s.used != want_used) return false;
    if (tc == 6 && !s.strict) return false;
    if ((tc == 0 || tc == 3) && (s.strict || s.bandwidth_pct != 50)) return false;
  }
  if (!q.ecn_enabled || q.ecn.size() != 2) return false;
  for (const EcnQueue& e : q.ecn)
    if ((e.tc != 0 && e.tc != 3) || e.min_bytes != kRoceEcnMinBytes || e.max_bytes != kRoceEcnMaxBytes ||
        e.probability_pct != kRoceEcnProbability)
      return false;
  return q.ecn[0].tc != q.ecn[1].tc;
}

/// The adjustments RoCE mode needs for `q`: the DSCPs whose priority differs from NVIDIA's default map,
/// one comma list per priority.
nlohmann::json roce_dscp_adjustments(const QosIntent& q) {
  nlohmann::json out = nlohmann::json::array();
  for (int p = 0; p < kPriorities; ++p) {
    std::vector<std::string> dscps;
    for (int d = 0; d < kDscpValues; ++d)
      if (q.dscp_to_priority[static_cast<size_t>(d)] == p && nvue_default_priority(d) != p)
        dscps.push_back(std::to_string(d));
    if (!dscps.empty()) out.push_back({{"dscps", join(dscps, ",")}, {"priority", std::to_string(p)}});
  }
  return out;
}

}  // namespace

nlohmann::json nvue_context(const DeviceDesired& device) {
  const QosIntent& q = device.qos;
  nlohmann::json c = common_context(device);
  c["trust"] = q.trust == Trust::dscp ? "l3" : "l2";

  // One line per DSCP: comma lists are documented, ranges for DSCP ids are not.
  nlohmann::json dscp_map = nlohmann::json::array();
  for (int d = 0; d < kDscpValues; ++d)
    dscp_map.push_back(
        {{"dscp", std::to_string(d)}, {"priority", std::to_string(q.dscp_to_priority[static_cast<size_t>(d)])}});
  c["dscp_map"] = dscp_map;

  // With PCP trust the priority is the frame's PCP: pin PCP n -> switch-priority n.
  nlohmann::json pcp_map = nlohmann::json::array();
  if (q.trust == Trust::pcp)
    for (int p = 0; p < kPriorities; ++p)
      pcp_map.push_back({{"pcp", std::to_string(p)}, {"priority", std::to_string(p)}});
  c["pcp_map"] = pcp_map;

  // The global PFC profile's cable length: the device's longest cable; false when none is known.
  int longest = 0;
  for (const PortDesired& p : device.ports) longest = std::max(longest, p.cable_length_m);
  const nlohmann::json cable = longest > 0 ? nlohmann::json(std::to_string(longest)) : nlohmann::json(false);

  std::vector<int> lossless = q.lossless_priorities();
  bool pfc = !lossless.empty();
  if (pfc) {
    std::vector<std::string> prios;
    for (int p : lossless) prios.push_back(std::to_string(p));
    std::vector<std::string> lossy;
    for (int p = 0; p < kPriorities; ++p)
      if (!q.lossless[static_cast<size_t>(p)]) lossy.push_back(std::to_string(p));
    c["pfc"] = {{"priorities", join(prios, ",")},
                {"lossy", lossy.empty() ? nlohmann::json(false) : nlohmann::json(join(lossy, ","))},
                {"cable_length", cable}};
  } else {
    c["pfc"] = false;
  }

  nlohmann::json queue_map = nlohmann::json::array();
  for (int p = 0; p < kPriorities; ++p)
    queue_map.push_back(
        {{"priority", std::to_string(p)}, {"tc", std::to_string(q.priority_to_tc[static_cast<size_t>(p)])}});
  c["egress_queue_map"] = queue_map;

  nlohmann::json schedulers = nlohmann::json::array();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& s = q.tc[static_cast<size_t>(tc)];
    bool dwrr = s.used && !s.strict;
    nlohmann::json sched = {{"tc", std::to_string(tc)}, {"mode", dwrr ? "dwrr" : "strict"}};
    if (dwrr) sched["bw_percent"] = std::to_string(s.bandwidth_pct);
    else sched["bw_percent"] = false;
    schedulers.push_back(sched);
  }
  c["schedulers"] = schedulers;

  // ECN on the intent's queues, and off on every other class: NVUE marks TC0 by default, and a class a
  // previous intent marked keeps marking until told otherwise.
  nlohmann::json ecn = nlohmann::json::array();
  nlohmann::json ecn_disabled = nlohmann::json::array();
  if (q.ecn_enabled) {
    std::vector<EcnQueue> queues = q.ecn;
    std::stable_sort(queues.begin(), queues.end(), [](const EcnQueue& a, const EcnQueue& b) { return a.tc < b.tc; });
    for (const EcnQueue& e : queues)
      ecn.push_back({{"tc", std::to_string(e.tc)},
                     {"min", std::to_string(e.min_bytes)},
                     {"max", std::to_string(e.max_bytes)},
                     {"probability", std::to_string(e.probability_pct)}});
  }
  for (int tc = 0; tc < kTrafficClasses; ++tc)
    if (!q.ecn_queue(tc)) ecn_disabled.push_back({{"tc", std::to_string(tc)}});
  c["ecn"] = ecn;
  c["ecn_disabled"] = ecn_disabled;
  // The classes without ECN lose their thresholds too, in one line, before `ecn disable`.
  std::vector<std::string> unset;
  for (const nlohmann::json& e : ecn_disabled) unset.push_back(e["tc"].get<std::string>());
  c["ecn_unset"] = unset.empty() ? nlohmann::json(false) : nlohmann::json(join(unset, ","));

  // NVIDIA's RoCE mode, with the adjustments the profile needs, where it matches the profile. Its
  // on/off switch is stated: `enable on` until 5.14, `state enabled` from 5.15 (nvue/release.h), so that
  // a switch where RoCE was turned off is turned on again.
  const auto release = device.hardware.nos_release.empty() ? Expected<nvue::Release>(nvue::kDefaultRelease)
                                                           : nvue::parse_release(device.hardware.nos_release);
  const bool state_forms = release && release->state_forms();
  if (matches_roce_mode(q)) {
    c["roce"] = {{"on", state_forms ? "state enabled" : "enable on"},
                 {"cable_length", cable},
                 {"dscp_adjustments", roce_dscp_adjustments(q)}};
  } else {
    c["roce"] = false;
  }

  bool watchdog = q.watchdog.enabled && pfc;
  if (watchdog) {
    int poll = std::max(1, q.watchdog.poll_interval_ms);
    int robustness = std::max(1, (q.watchdog.detection_ms + poll - 1) / poll);
    c["watchdog"] = {{"polling_interval", std::to_string(poll)}, {"robustness", std::to_string(robustness)}};
  } else {
    c["watchdog"] = false;
  }

  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  nlohmann::json interfaces = nlohmann::json::array();
  for (const PortDesired* p : ports)
    interfaces.push_back({{"name", p->name}, {"mtu", std::to_string(p->mtu)}, {"pfc_watchdog", watchdog}});
  c["interfaces"] = interfaces;
  return c;
}

}  // namespace fabricctl
