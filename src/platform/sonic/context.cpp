// SONiC adapter, render side: one device's desired state -> the context that
// templates/sonic/config_db.json.mustache and config_db.patch.json.mustache render.
//
// SONiC vocabulary (reference/switch-nos.md "SONiC", sonic-yang-models):
// - SONiC's "TC" is the class a packet is classified to on ingress. SONiC's own pipeline takes it to be
//   the 802.1p / PFC priority (TC 3 -> PG 3 -> pfc_enable "3"), so DSCP_TO_TC_MAP holds
//   dscp_to_priority, and the egress queue of each priority comes from TC_TO_QUEUE_MAP (priority_to_tc).
// - Every CONFIG_DB value is a string. WRED thresholds in bytes, probabilities in percent, PFC watchdog
//   times in milliseconds, PORT.mtu is the L3 MTU (the same unit as DeviceDesired).
//
// Every string handed to the templates is already JSON-escaped; keys used in patch paths also come as
// JSON-pointer tokens ("*_ptr"). Optional fields are present as `false` rather than absent, because a
// Mustache lookup that misses in a list item falls through to the enclosing context.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "platform/platform.h"
#include "platform/sonic/json_text.h"
#include "platform/sonic/names.h"
#include "util/text.h"

namespace fabricctl {
namespace {

using nlohmann::json;
using sonic::json_escape;
using sonic::json_pointer_token;

using sonic::kMapName;
using sonic::scheduler_name;
using sonic::wred_profile_name;
// buffermgrd reads the fields of every CABLE_LENGTH key; SONiC's own templates always name it "AZURE".
constexpr std::string_view kCableLengthKey = "AZURE";

/// {"name": ..., "name_ptr": ...} for a CONFIG_DB key the patch addresses.
json named(std::string_view name) {
  return {{"name", json_escape(name)}, {"name_ptr", json_pointer_token(name)}};
}

/// A "type 1" map table entry (DSCP_TO_TC_MAP.ROCE etc.): `pairs` become list items
/// {from_field: "k", to_field: "v"} in the given order, marked for comma separation.
json map_table(std::string_view from_field, std::string_view to_field,
               const std::vector<std::pair<int, int>>& pairs) {
  json m = named(kMapName);
  json entries = json::array();
  for (const auto& [from, to] : pairs)
    entries.push_back({{std::string(from_field), std::to_string(from)}, {std::string(to_field), std::to_string(to)}});
  mark_last(entries);
  m["entries"] = std::move(entries);
  return m;
}

/// DSCP_TO_TC_MAP ROCE: all 64 code points, so that no DSCP is left to a platform default.
json dscp_map(const QosIntent& q) {
  std::vector<std::pair<int, int>> pairs;
  for (int d = 0; d < kDscpValues; ++d) pairs.emplace_back(d, q.dscp_to_priority.at(static_cast<size_t>(d)));
  return map_table("dscp", "tc", pairs);
}

/// DOT1P_TO_TC_MAP ROCE for PCP trust: the 802.1p priority is the SONiC TC, one to one.
json dot1p_map() {
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < kPriorities; ++p) pairs.emplace_back(p, p);
  return map_table("dot1p", "tc", pairs);
}

/// TC_TO_PRIORITY_GROUP_MAP ROCE: a lossless priority gets the ingress PG of the same number (SONiC
/// derives the lossless PGs from pfc_enable, so they must coincide); every lossy one shares PG 0.
json tc_to_pg_map(const QosIntent& q) {
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < kPriorities; ++p) pairs.emplace_back(p, q.lossless.at(static_cast<size_t>(p)) ? p : 0);
  return map_table("tc", "pg", pairs);
}

/// Priority -> egress queue (= DeviceDesired's traffic class), used by both TC_TO_QUEUE_MAP and
/// MAP_PFC_PRIORITY_TO_QUEUE (the queue a received PFC frame of that priority pauses).
json priority_to_queue_map(const QosIntent& q, std::string_view from_field) {
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < kPriorities; ++p) pairs.emplace_back(p, q.priority_to_tc.at(static_cast<size_t>(p)));
  return map_table(from_field, "queue", pairs);
}

/// SCHEDULER entries, one per used traffic class. ETS shares become DWRR weights (byte-based like
/// ETS); sonic-scheduler.yang allows weight 1..100, so a 0 % ETS class gets the smallest weight, 1.
json schedulers(const QosIntent& q) {
  json list = json::array();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& s = q.tc.at(static_cast<size_t>(tc));
    if (!s.used) continue;
    json e = named(scheduler_name(tc));
    e["type"] = s.strict ? "STRICT" : "DWRR";
    e["weight"] = s.strict ? json(false) : json(std::to_string(std::clamp(s.bandwidth_pct, 1, 100)));
    list.push_back(std::move(e));
  }
  mark_last(list);
  return list;
}

/// True when ECN marking is rendered at all: a DCQCN-only profile (NIC reaction, no switch marking)
/// leaves ecn_enabled false.
bool ecn_rendered(const QosIntent& q) { return q.ecn_enabled && !q.ecn.empty(); }

/// WRED_PROFILE in ECN mode: {"profiles": [...]}, one per ECN queue, or false (table omitted).
/// Only green is enabled: RoCE traffic is not policed, so it stays green; yellow/red keep SONiC's
/// defaults (disabled). UNCONFIRMED: green-only is our choice; SONiC's own AZURE_LOSSLESS enables all
/// three colours. "ecn_all" as AZURE_LOSSLESS; without ecn and wred_green_enable nothing is marked
/// (sonic-buildimage#4545). In ECN mode green_drop_probability is the marking probability at
/// green_max_threshold.
json wred(const QosIntent& q) {
  if (!ecn_rendered(q)) return false;
  json list = json::array();
  for (const EcnQueue& e : q.ecn) {
    json w = named(wred_profile_name(q, e.tc));
    w["ecn"] = "ecn_all";
    w["wred_green_enable"] = "true";
    w["green_min_threshold"] = std::to_string(e.min_bytes);           // bytes
    w["green_max_threshold"] = std::to_string(e.max_bytes);           // bytes
    w["green_drop_probability"] = std::to_string(e.probability_pct);  // percent
    list.push_back(std::move(w));
  }
  mark_last(list);
  return {{"profiles", std::move(list)}};
}

/// The device's ports in natural order (Ethernet2 before Ethernet10), the order SONiC tools print.
std::vector<const PortDesired*> natural_ports(const DeviceDesired& device) {
  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  return ports;
}

/// The list item base of a per-port entry.
json port_item(const PortDesired& p) { return {{"port", json_escape(p.name)}, {"port_ptr", json_pointer_token(p.name)}}; }

/// The PFC watchdog is rendered only with at least one lossless priority: SONiC's pfcwd runs only on
/// ports with pfc_enable ("SKIPPED: PFC is not enabled on port").
bool watchdog_rendered(const QosIntent& q) { return q.watchdog.enabled && !q.lossless_priorities().empty(); }

/// PORT_QOS_MAP entries. The whole entry is fabricctl's (the patch replaces it), so every binding
/// SONiC needs for RoCE is here. Exactly one classifier map is bound, the one of the trust mode.
/// UNCONFIRMED: SONiC's qos_config.j2 also binds pfc_to_pg_map (PFC_PRIORITY_TO_PRIORITY_GROUP_MAP) on
/// Mellanox and Barefoot ASICs; replacing the entry drops it there. DeviceDesired does not know the
/// ASIC, and binding it where the SAI lacks it may fail, so it is left out until that is settled.
json port_qos_maps(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  std::vector<std::string> prios;
  for (int p : q.lossless_priorities()) prios.push_back(std::to_string(p));
  const std::string pfc_enable = join(prios, ",");  // "3" or "3,4"; "" turns PFC off
  const std::string map = json_escape(kMapName);
  json list = json::array();
  for (const PortDesired* p : ports) {
    json e = port_item(*p);
    e["dscp_to_tc_map"] = q.trust == Trust::dscp ? json(map) : json(false);
    e["dot1p_to_tc_map"] = q.trust == Trust::pcp ? json(map) : json(false);
    e["tc_to_pg_map"] = map;
    e["tc_to_queue_map"] = map;
    e["pfc_to_queue_map"] = map;
    e["pfc_enable"] = pfc_enable;
    e["pfcwd_sw_enable"] = watchdog_rendered(q) ? json(pfc_enable) : json(false);
    list.push_back(std::move(e));
  }
  mark_last(list);
  return list;
}

/// QUEUE "<port>|<queue>" entries: one per port and used traffic class, with its scheduler, and the
/// WRED profile on ECN queues. A TC that no priority maps to carries no traffic and gets no entry.
json queues(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  json list = json::array();
  for (const PortDesired* p : ports) {
    for (int tc = 0; tc < kTrafficClasses; ++tc) {
      if (!q.tc.at(static_cast<size_t>(tc)).used) continue;
      const std::string key = p->name + "|" + std::to_string(tc);
      json e = {{"key", json_escape(key)}, {"key_ptr", json_pointer_token(key)}};
      e["scheduler"] = json_escape(scheduler_name(tc));
      e["wred_profile"] = false;
      if (ecn_rendered(q))
        for (const EcnQueue& ecn : q.ecn)
          if (ecn.tc == tc) e["wred_profile"] = json_escape(wred_profile_name(q, tc));
      list.push_back(std::move(e));
    }
  }
  mark_last(list);
  return list;
}

/// CABLE_LENGTH AZURE {port: "<metres>m"}; buffermgrd sizes the lossless PG headroom from it and the
/// port speed. A port without a known length (0) is left out: "0m" would make buffermgrd skip the
/// lossless PG profile, silently losing headroom. False when no port has a length.
json cable_length(const std::vector<const PortDesired*>& ports) {
  json entries = json::array();
  for (const PortDesired* p : ports) {
    if (p->cable_length_m <= 0) continue;
    json e = port_item(*p);
    e["length"] = std::to_string(p->cable_length_m) + "m";
    entries.push_back(std::move(e));
  }
  if (entries.empty()) return false;
  mark_last(entries);
  json c = named(kCableLengthKey);
  c["entries"] = std::move(entries);
  return c;
}

/// PFC_WD: GLOBAL {POLL_INTERVAL} and one entry per port, all in milliseconds. sonic-pfcwd.yang
/// requires detection_time and restoration_time >= POLL_INTERVAL; the profile validation owns that.
json pfc_wd(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  if (!watchdog_rendered(q)) return false;
  const Watchdog& w = q.watchdog;
  json entries = json::array();
  for (const PortDesired* p : ports) {
    json e = port_item(*p);
    e["action"] = std::string(to_string(w.action));  // drop|forward|alert, as sonic-pfcwd.yang spells them
    e["detection_time"] = std::to_string(w.detection_ms);
    e["restoration_time"] = std::to_string(w.restoration_ms);
    entries.push_back(std::move(e));
  }
  mark_last(entries);
  json c = named("GLOBAL");
  c["poll_interval"] = std::to_string(w.poll_interval_ms);
  c["entries"] = std::move(entries);
  return c;
}

/// PORT entries carry the MTU only: writing speed would flap links on a typo; verify checks speed.
json port_mtus(const std::vector<const PortDesired*>& ports) {
  json list = json::array();
  for (const PortDesired* p : ports) {
    json e = port_item(*p);
    e["mtu"] = std::to_string(p->mtu);  // L3 MTU, bytes, as SONiC's PORT.mtu
    list.push_back(std::move(e));
  }
  mark_last(list);
  return list;
}

/// Sets "op_last" on every operation of the patch, in the order config_db.patch.json.mustache writes
/// them, true only on the final one: the template ends each operation with "," unless op_last. Per-list
/// "last" cannot do this because optional tables may end the patch. Keep this order in step with it.
void mark_patch_ops(json& c) {
  std::vector<json*> ops;
  const auto one = [&](const char* key) {
    if (c[key].is_object()) ops.push_back(&c[key]);
  };
  const auto each = [&](json& list) {
    for (json& e : list) ops.push_back(&e);
  };
  one("dscp_map");
  one("dot1p_map");
  one("tc_to_pg_map");
  one("tc_to_queue_map");
  one("pfc_to_queue_map");
  each(c["schedulers"]);
  if (c["wred"].is_object()) each(c["wred"]["profiles"]);
  each(c["port_qos_maps"]);
  each(c["queues"]);
  if (c["cable_length"].is_object()) each(c["cable_length"]["entries"]);
  if (c["pfc_wd"].is_object()) {
    ops.push_back(&c["pfc_wd"]);  // the GLOBAL entry
    each(c["pfc_wd"]["entries"]);
  }
  each(c["port_mtus"]);
  for (json* op : ops) (*op)["op_last"] = false;
  if (!ops.empty()) (*ops.back())["op_last"] = true;
}

}  // namespace

nlohmann::json sonic_context(const DeviceDesired& device) {
  const QosIntent& q = device.qos;
  const std::vector<const PortDesired*> ports = natural_ports(device);
  json c = common_context(device);
  c["dscp_map"] = q.trust == Trust::dscp ? dscp_map(q) : json(false);
  c["dot1p_map"] = q.trust == Trust::pcp ? dot1p_map() : json(false);
  c["tc_to_pg_map"] = tc_to_pg_map(q);
  c["tc_to_queue_map"] = priority_to_queue_map(q, "tc");
  c["pfc_to_queue_map"] = priority_to_queue_map(q, "priority");
  c["schedulers"] = schedulers(q);
  c["wred"] = wred(q);
  c["port_qos_maps"] = port_qos_maps(q, ports);
  c["queues"] = queues(q, ports);
  c["cable_length"] = cable_length(ports);
  c["pfc_wd"] = pfc_wd(q, ports);
  c["port_mtus"] = port_mtus(ports);
  mark_patch_ops(c);
  return c;
}

}  // namespace fabricctl
