// SONiC vocabulary (reference/switch-nos.md "SONiC", sonic-yang-models):
// - SONiC's "TC" is the class a packet is classified to on ingress. SONiC's own pipeline takes it to be
//   the 802.1p / PFC priority (TC 3 -> PG 3 -> pfc_enable "3"), so DSCP_TO_TC_MAP holds
//   dscp_to_priority, and the egress queue of each priority comes from TC_TO_QUEUE_MAP (priority_to_tc).
// - Every CONFIG_DB value is a string. WRED thresholds in bytes, probabilities in percent, PFC watchdog
//   times in milliseconds, PORT.mtu is the L3 MTU (the same unit as DeviceDesired).
#include "platform/sonic/config_db.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "platform/json_object.h"
#include "platform/json_text.h"
#include "platform/platform.h"
#include "platform/sonic/names.h"
#include "util/text.h"

namespace fabricctl::sonic {
namespace {

using nlohmann::ordered_json;

// buffermgrd reads the fields of every CABLE_LENGTH key; SONiC's own templates always name it "AZURE".
constexpr const char* kCableLengthKey = "AZURE";

/// A "type 1" map table (DSCP_TO_TC_MAP etc.): {"ROCE": {"from": "to", ...}} in the order of `pairs`.
ordered_json map_table(const std::vector<std::pair<int, int>>& pairs) {
  ordered_json entries = ordered_json::object();
  for (const auto& [from, to] : pairs) entries[std::to_string(from)] = std::to_string(to);
  return {{kMapName, std::move(entries)}};
}

/// DSCP_TO_TC_MAP ROCE: all 64 code points, so that no DSCP is left to a platform default.
ordered_json dscp_map(const QosIntent& q) {
  std::vector<std::pair<int, int>> pairs;
  for (int d = 0; d < kDscpValues; ++d) pairs.emplace_back(d, q.dscp_to_priority.at(static_cast<size_t>(d)));
  return map_table(pairs);
}

/// DOT1P_TO_TC_MAP ROCE for PCP trust: the 802.1p priority is the SONiC TC, one to one.
ordered_json dot1p_map() {
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < kPriorities; ++p) pairs.emplace_back(p, p);
  return map_table(pairs);
}

/// TC_TO_PRIORITY_GROUP_MAP ROCE: a lossless priority gets the ingress PG of the same number (SONiC
/// derives the lossless PGs from pfc_enable, so they must coincide); every lossy one shares PG 0.
ordered_json tc_to_pg_map(const QosIntent& q) {
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < kPriorities; ++p) pairs.emplace_back(p, q.lossless.at(static_cast<size_t>(p)) ? p : 0);
  return map_table(pairs);
}

/// Priority -> egress queue (= DeviceDesired's traffic class), used by both TC_TO_QUEUE_MAP and
/// MAP_PFC_PRIORITY_TO_QUEUE (the queue a received PFC frame of that priority pauses).
ordered_json priority_to_queue_map(const QosIntent& q) {
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < kPriorities; ++p) pairs.emplace_back(p, q.priority_to_tc.at(static_cast<size_t>(p)));
  return map_table(pairs);
}

/// SCHEDULER entries, one per used traffic class. ETS shares become DWRR weights (byte-based like
/// ETS); sonic-scheduler.yang allows weight 1..100, so a 0 % ETS class gets the smallest weight, 1.
ordered_json schedulers(const QosIntent& q) {
  ordered_json table = ordered_json::object();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& s = q.tc.at(static_cast<size_t>(tc));
    if (!s.used) continue;
    ordered_json e = {{"type", s.strict ? "STRICT" : "DWRR"}};
    if (!s.strict) e["weight"] = std::to_string(std::clamp(s.bandwidth_pct, 1, 100));
    table[scheduler_name(tc)] = std::move(e);
  }
  return table;
}

/// True when ECN marking is rendered at all: a DCQCN-only profile (NIC reaction, no switch marking)
/// leaves ecn_enabled false.
bool ecn_rendered(const QosIntent& q) { return q.ecn_enabled && !q.ecn.empty(); }

/// WRED_PROFILE in ECN mode, one profile per ECN queue.
/// Only green is enabled: RoCE traffic is not policed, so it stays green; yellow/red keep SONiC's
/// defaults (disabled). UNCONFIRMED: green-only is our choice; SONiC's own AZURE_LOSSLESS enables all
/// three colours. "ecn_all" as AZURE_LOSSLESS; without ecn and wred_green_enable nothing is marked
/// (sonic-buildimage#4545). In ECN mode green_drop_probability is the marking probability at
/// green_max_threshold.
ordered_json wred(const QosIntent& q) {
  ordered_json table = ordered_json::object();
  for (const EcnQueue& e : q.ecn)
    table[wred_profile_name(q, e.tc)] = {
        {"ecn", "ecn_all"},
        {"wred_green_enable", "true"},
        {"green_min_threshold", std::to_string(e.min_bytes)},           // bytes
        {"green_max_threshold", std::to_string(e.max_bytes)},           // bytes
        {"green_drop_probability", std::to_string(e.probability_pct)},  // percent
    };
  return table;
}

/// The device's ports in natural order (Ethernet2 before Ethernet10), the order SONiC tools print.
std::vector<const PortDesired*> natural_ports(const DeviceDesired& device) {
  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  return ports;
}

/// The PFC watchdog is rendered only with at least one lossless priority: SONiC's pfcwd runs only on
/// ports with pfc_enable ("SKIPPED: PFC is not enabled on port").
bool watchdog_rendered(const QosIntent& q) { return q.watchdog.enabled && !q.lossless_priorities().empty(); }

/// PORT_QOS_MAP entries. The whole entry is fabricctl's (the patch replaces it), so every binding
/// SONiC needs for RoCE is here. Exactly one classifier map is bound, the one of the trust mode.
/// UNCONFIRMED: SONiC's qos_config.j2 also binds pfc_to_pg_map (PFC_PRIORITY_TO_PRIORITY_GROUP_MAP) on
/// Mellanox and Barefoot ASICs; replacing the entry drops it there. DeviceDesired does not know the
/// ASIC, and binding it where the SAI lacks it may fail, so it is left out until that is settled.
ordered_json port_qos_maps(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  std::vector<std::string> prios;
  for (int p : q.lossless_priorities()) prios.push_back(std::to_string(p));
  const std::string pfc_enable = join(prios, ",");  // "3" or "3,4"; "" turns PFC off
  ordered_json table = ordered_json::object();
  for (const PortDesired* p : ports) {
    ordered_json e = ordered_json::object();
    if (q.trust == Trust::dscp) e["dscp_to_tc_map"] = kMapName;
    if (q.trust == Trust::pcp) e["dot1p_to_tc_map"] = kMapName;
    e["tc_to_pg_map"] = kMapName;
    e["tc_to_queue_map"] = kMapName;
    e["pfc_to_queue_map"] = kMapName;
    e["pfc_enable"] = pfc_enable;
    if (watchdog_rendered(q)) e["pfcwd_sw_enable"] = pfc_enable;
    append_member(table, p->name, std::move(e));
  }
  return table;
}

/// QUEUE "<port>|<queue>" entries: one per port and used traffic class, with its scheduler, and the
/// WRED profile on ECN queues. A TC that no priority maps to carries no traffic and gets no entry.
ordered_json queues(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  ordered_json table = ordered_json::object();
  for (const PortDesired* p : ports) {
    for (int tc = 0; tc < kTrafficClasses; ++tc) {
      if (!q.tc.at(static_cast<size_t>(tc)).used) continue;
      ordered_json e = {{"scheduler", scheduler_name(tc)}};
      if (ecn_rendered(q))
        for (const EcnQueue& ecn : q.ecn)
          if (ecn.tc == tc) e["wred_profile"] = wred_profile_name(q, tc);
      append_member(table, p->name + "|" + std::to_string(tc), std::move(e));
    }
  }
  return table;
}

/// CABLE_LENGTH AZURE {port: "<metres>m"}; buffermgrd sizes the lossless PG headroom from it and the
/// port speed. A port without a known length (0) is left out: "0m" would make buffermgrd skip the
/// lossless PG profile, silently losing headroom. Empty when no port has a length.
ordered_json cable_length(const std::vector<const PortDesired*>& ports) {
  ordered_json lengths = ordered_json::object();
  for (const PortDesired* p : ports)
    if (p->cable_length_m > 0) append_member(lengths, p->name, std::to_string(p->cable_length_m) + "m");
  if (lengths.empty()) return ordered_json::object();
  return {{kCableLengthKey, std::move(lengths)}};
}

/// PFC_WD: GLOBAL {POLL_INTERVAL} and one entry per port, all in milliseconds. sonic-pfcwd.yang
/// requires detection_time and restoration_time >= POLL_INTERVAL; the profile validation owns that.
ordered_json pfc_wd(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  const Watchdog& w = q.watchdog;
  ordered_json table = {{"GLOBAL", {{"POLL_INTERVAL", std::to_string(w.poll_interval_ms)}}}};
  for (const PortDesired* p : ports)
    append_member(
        table, p->name,
        {
            {"action", std::string(to_string(w.action))},  // drop|forward|alert, as sonic-pfcwd.yang spells them
            {"detection_time", std::to_string(w.detection_ms)},
            {"restoration_time", std::to_string(w.restoration_ms)},
        });
  return table;
}

/// PORT entries carry the MTU only: writing speed would flap links on a typo; verify checks speed.
ordered_json port_mtus(const std::vector<const PortDesired*>& ports) {
  ordered_json table = ordered_json::object();
  for (const PortDesired* p : ports) append_member(table, p->name, {{"mtu", std::to_string(p->mtu)}});  // L3 MTU, bytes
  return table;
}

}  // namespace

nlohmann::ordered_json config_db(const DeviceDesired& device) {
  const QosIntent& q = device.qos;
  const std::vector<const PortDesired*> ports = natural_ports(device);
  ordered_json c = ordered_json::object();
  if (q.trust == Trust::dscp) c["DSCP_TO_TC_MAP"] = dscp_map(q);
  if (q.trust == Trust::pcp) c["DOT1P_TO_TC_MAP"] = dot1p_map();
  c["TC_TO_PRIORITY_GROUP_MAP"] = tc_to_pg_map(q);
  c["TC_TO_QUEUE_MAP"] = priority_to_queue_map(q);
  c["MAP_PFC_PRIORITY_TO_QUEUE"] = priority_to_queue_map(q);
  c["SCHEDULER"] = schedulers(q);
  if (ecn_rendered(q)) c["WRED_PROFILE"] = wred(q);
  c["PORT_QOS_MAP"] = port_qos_maps(q, ports);
  c["QUEUE"] = queues(q, ports);
  if (ordered_json lengths = cable_length(ports); !lengths.empty()) c["CABLE_LENGTH"] = std::move(lengths);
  if (watchdog_rendered(q)) c["PFC_WD"] = pfc_wd(q, ports);
  c["PORT"] = port_mtus(ports);
  return c;
}

std::string dump_config_db(const nlohmann::ordered_json& doc) {
  std::string text = dump_indented(doc, 4);
  text += '\n';
  return text;
}

}  // namespace fabricctl::sonic

namespace fabricctl {

Document sonic_config_db(const DeviceDesired& device) { return sonic::config_db(device); }

std::string sonic_config_db_json(const DeviceDesired& /*device*/, const Document& db) {
  return sonic::dump_config_db(db);
}

}  // namespace fabricctl
