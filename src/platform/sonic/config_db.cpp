// SONiC vocabulary (reference/switch-nos.md "SONiC", sonic-yang-models, sonic-buildimage's
// qos_config.j2 and buffers_config.j2, sonic-swss's buffermgrd):
// - SONiC's "TC" is the class a packet is classified to on ingress. SONiC's own pipeline takes it to be
//   the 802.1p / PFC priority (TC 3 -> PG 3 -> pfc_enable "3"), so DSCP_TO_TC_MAP holds
//   dscp_to_priority, and the egress queue of each priority comes from TC_TO_QUEUE_MAP (priority_to_tc).
// - Every CONFIG_DB value is a string. WRED thresholds in bytes, probabilities in percent, PFC watchdog
//   times in milliseconds, PORT.mtu is the L3 MTU (the same unit as DeviceDesired).
// - Every artifact must configure the same switch from SONiC's default tables: config_db.json is
//   applied with `config load`, which merges field by field and can delete a whole entry (a null) but
//   never one field; config_db.patch.json with `config apply-patch` (RFC 6902). So each entry
//   fabricctl owns is written with every field it may have (a queue's WRED profile, a port's watchdog
//   priorities), and each default entry it does not want is a null: the two forms converge.
// - Buffers: on the traditional model (DeviceDesired::hardware has cable-length rows) buffermgrd
//   derives BUFFER_PG from pfc_enable and looks the headroom up by (speed, CABLE_LENGTH) in the SKU's
//   pg_profile_lookup.ini, exactly: CABLE_LENGTH is the cable rounded up to the next row. On the
//   dynamic model the lossless PGs are BUFFER_PG entries with profile "NULL" and the exact length.
#include "platform/sonic/config_db.h"

#include <algorithm>
#include <array>
#include <optional>
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

/// TC_TO_PRIORITY_GROUP_MAP ROCE: a lossless priority gets the ingress PG of the same number (SONiC
/// derives the lossless PGs from pfc_enable, so they must coincide); every lossy one shares PG 0.
ordered_json tc_to_pg_map(const QosIntent& q) {
  std::vector<std::pair<int, int>> pairs;
  for (int p = 0; p < kPriorities; ++p) pairs.emplace_back(p, q.lossless.at(static_cast<size_t>(p)) ? p : 0);
  return map_table(pairs);
}

/// PFC_PRIORITY_TO_PRIORITY_GROUP_MAP ROCE (dynamic buffer model, where SONiC's template binds one as
/// pfc_to_pg_map): the PG a received pause of a lossless priority refers to, the same number.
ordered_json pfc_to_pg_map(const QosIntent& q) {
  std::vector<std::pair<int, int>> pairs;
  for (int p : q.lossless_priorities()) pairs.emplace_back(p, p);
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

/// Whether some used traffic class carries no ECN, so that its queue names kNoEcnWred.
bool has_plain_queue(const QosIntent& q) {
  for (int tc = 0; tc < kTrafficClasses; ++tc)
    if (q.tc.at(static_cast<size_t>(tc)).used && !q.ecn_queue(tc)) return true;
  return false;
}

/// WRED_PROFILE in ECN mode, one profile per ECN queue, and the one that does nothing for the others.
/// Only green is enabled: RoCE traffic is not policed, so it stays green; yellow/red keep SONiC's
/// defaults (disabled). UNCONFIRMED: green-only is our choice; SONiC's own AZURE_LOSSLESS enables all
/// three colours. "ecn_all" as AZURE_LOSSLESS; without ecn and wred_green_enable nothing is marked
/// (sonic-buildimage#4545). In ECN mode green_drop_probability is the marking probability at
/// green_max_threshold.
ordered_json wred(const QosIntent& q) {
  ordered_json table = ordered_json::object();
  if (q.ecn_enabled)
    for (const EcnQueue& e : q.ecn)
      table[wred_profile_name(q, e.tc)] = {
          {"ecn", "ecn_all"},
          {"wred_green_enable", "true"},
          {"green_min_threshold", std::to_string(e.min_bytes)},           // bytes
          {"green_max_threshold", std::to_string(e.max_bytes)},           // bytes
          {"green_drop_probability", std::to_string(e.probability_pct)},  // percent
      };
  if (has_plain_queue(q))
    table[kNoEcnWred] = {{"ecn", "ecn_none"},
                         {"wred_green_enable", "false"},
                         {"wred_yellow_enable", "false"},
                         {"wred_red_enable", "false"}};
  return table;
}

/// The PFC watchdog is rendered only with at least one lossless priority: SONiC's pfcwd runs only on
/// ports with pfc_enable ("SKIPPED: PFC is not enabled on port").
bool watchdog_rendered(const QosIntent& q) { return q.watchdog.enabled && !q.lossless_priorities().empty(); }

/// PORT_QOS_MAP: the switch-wide DSCP map ("global", which SONiC's template binds to AZURE), and each
/// port's entry with every field fabricctl or the template may set, so `config load` leaves none of
/// the template's behind: pfcwd_sw_enable "" when no watchdog runs, pfc_to_pg_map where the template
/// binds one (the dynamic model: Mellanox and Barefoot).
ordered_json port_qos_maps(const DeviceDesired& d, const std::vector<const PortDesired*>& ports) {
  const QosIntent& q = d.qos;
  std::vector<std::string> prios;
  for (int p : q.lossless_priorities()) prios.push_back(std::to_string(p));
  const std::string pfc_enable = join(prios, ",");  // "3" or "3,4"; "" turns PFC off
  ordered_json table = ordered_json::object();
  append_member(table, "global", {{"dscp_to_tc_map", kMapName}});
  for (const PortDesired* p : ports) {
    ordered_json e = ordered_json::object();
    e["dscp_to_tc_map"] = kMapName;
    e["tc_to_pg_map"] = kMapName;
    e["tc_to_queue_map"] = kMapName;
    e["pfc_to_queue_map"] = kMapName;
    if (dynamic_buffers(d) && !prios.empty()) e["pfc_to_pg_map"] = kMapName;
    e["pfc_enable"] = pfc_enable;
    e["pfcwd_sw_enable"] = watchdog_rendered(q) ? pfc_enable : std::string();
    append_member(table, p->name, std::move(e));
  }
  return table;
}

/// QUEUE "<port>|<queue>" entries: each used traffic class with its scheduler and WRED profile (ECN,
/// or kNoEcnWred); each queue SONiC's template configures (0-6) that no priority uses, null (deleted):
/// its AZURE_LOSSLESS on queue 4 would otherwise stay.
ordered_json queues(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  constexpr int kTemplateQueues = 7;  // qos_config.j2: queues 0-6 of every port with a neighbour
  ordered_json table = ordered_json::object();
  for (const PortDesired* p : ports) {
    for (int tc = 0; tc < kTrafficClasses; ++tc) {
      std::string key = p->name + "|" + std::to_string(tc);
      if (!q.tc.at(static_cast<size_t>(tc)).used) {
        if (tc < kTemplateQueues) append_member(table, std::move(key), nullptr);
        continue;
      }
      append_member(table, std::move(key),
                    {{"scheduler", scheduler_name(tc)},
                     {"wred_profile", q.ecn_queue(tc) ? wred_profile_name(q, tc) : std::string(kNoEcnWred)}});
    }
  }
  return table;
}

/// The egress queues that carry lossless traffic: those of the lossless priorities.
std::array<bool, kTrafficClasses> lossless_queues(const QosIntent& q) {
  std::array<bool, kTrafficClasses> out{};
  for (int p : q.lossless_priorities()) out.at(static_cast<size_t>(q.priority_to_tc.at(static_cast<size_t>(p)))) = true;
  return out;
}

/// BUFFER_QUEUE: the template's queue ranges (0-2, 3-4, 5-6), each with the lossless egress profile
/// when it holds a lossless queue, and 7 when queue 7 is lossless. Keeping the template's keys makes a
/// change one field of an existing entry: deleting a range releases every queue in it, and a new
/// entry written before that deletion lands would lose its profile.
ordered_json buffer_queues(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  const auto lossless = lossless_queues(q);
  struct Range {
    int first, last;
  };
  constexpr Range kRanges[] = {{0, 2}, {3, 4}, {5, 6}};
  ordered_json table = ordered_json::object();
  for (const PortDesired* p : ports) {
    for (const Range& r : kRanges) {
      bool any = false;
      for (int qi = r.first; qi <= r.last; ++qi) any = any || lossless.at(static_cast<size_t>(qi));
      append_member(table, p->name + "|" + std::to_string(r.first) + "-" + std::to_string(r.last),
                    {{"profile", any ? kEgressLossless : kEgressLossy}});
    }
    if (lossless[7]) append_member(table, p->name + "|7", {{"profile", kEgressLossless}});
  }
  return table;
}

/// BUFFER_PG: the template's "3-4" null (deleted) when it is not a run of lossless PGs, or PG 4 keeps
/// lossless headroom; on the dynamic model also each run ("3", "3-4") with profile "NULL", which
/// buffermgrd sizes from speed, cable length and MTU. The traditional model's buffermgrd writes each
/// run from pfc_enable itself, with the SKU's pg_lossless_<speed>_<cable>_profile, but never deletes a
/// PG entry (sonic-swss cfgmgr/buffermgr.cpp doSpeedUpdateTask: only `set`, and `del` only of an
/// admin-down port on mellanox/barefoot): a "3-4" left beside its new "3" overlaps it, and after a
/// `config save` and reload may give PG 3 the old entry's profile back.
ordered_json buffer_pgs(const QosIntent& q, const std::vector<const PortDesired*>& ports, bool dynamic) {
  std::vector<std::string> runs;
  for (int p = 0; p < kPriorities;) {
    if (!q.lossless.at(static_cast<size_t>(p))) {
      ++p;
      continue;
    }
    int last = p;
    while (last + 1 < kPriorities && q.lossless.at(static_cast<size_t>(last + 1))) ++last;
    runs.push_back(last == p ? std::to_string(p) : std::to_string(p) + "-" + std::to_string(last));
    p = last + 1;
  }
  const bool template_run = std::find(runs.begin(), runs.end(), "3-4") != runs.end();
  ordered_json table = ordered_json::object();
  // The deletion first: deleting "3-4" releases PG 3 too, so a "3" written before it lands would lose
  // its profile.
  for (const PortDesired* p : ports) {
    if (!template_run) append_member(table, p->name + "|3-4", nullptr);
    if (dynamic)
      for (const std::string& run : runs) append_member(table, p->name + "|" + run, {{"profile", "NULL"}});
  }
  return table;
}

/// CABLE_LENGTH AZURE {port: "<metres>m"}; buffermgrd sizes the lossless PG headroom from it and the
/// port speed. On the traditional model the length is the next row of the SKU's table at least as long
/// as the cable (resolve has refused cables longer than every row); on the dynamic model, the cable's.
/// A port without a known length (0) is left out: "0m" would make buffermgrd skip the lossless PG,
/// silently losing headroom. Empty when no port has a length.
ordered_json cable_length(const DeviceDesired& d, const std::vector<const PortDesired*>& ports) {
  ordered_json lengths = ordered_json::object();
  for (const PortDesired* p : ports) {
    if (p->cable_length_m <= 0) continue;
    const std::optional<int> row = d.hardware.headroom_row(p->cable_length_m);
    append_member(lengths, p->name, std::to_string(row.value_or(p->cable_length_m)) + "m");
  }
  if (lengths.empty()) return ordered_json::object();
  return {{kCableLengthKey, std::move(lengths)}};
}

/// PFC_WD: GLOBAL {POLL_INTERVAL} and one entry per port, all in milliseconds; without a watchdog,
/// each port's entry null (`pfcwd start_default` creates them on a switch with neighbours).
/// sonic-pfcwd.yang requires detection_time and restoration_time >= POLL_INTERVAL; the profile
/// validation owns that.
ordered_json pfc_wd(const QosIntent& q, const std::vector<const PortDesired*>& ports) {
  ordered_json table = ordered_json::object();
  if (!watchdog_rendered(q)) {
    for (const PortDesired* p : ports) append_member(table, p->name, nullptr);
    return table;
  }
  const Watchdog& w = q.watchdog;
  append_member(table, "GLOBAL", {{"POLL_INTERVAL", std::to_string(w.poll_interval_ms)}});
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

/// The tables of config_db(), with the entries of `ports` only.
ordered_json config_db_of(const DeviceDesired& device, const std::vector<const PortDesired*>& ports) {
  const QosIntent& q = device.qos;
  const bool dynamic = dynamic_buffers(device);
  ordered_json c = ordered_json::object();
  c["DSCP_TO_TC_MAP"] = dscp_map(q);  // trust is DSCP: the SONiC adapter row refuses PCP
  c["TC_TO_PRIORITY_GROUP_MAP"] = tc_to_pg_map(q);
  c["TC_TO_QUEUE_MAP"] = priority_to_queue_map(q);
  c["MAP_PFC_PRIORITY_TO_QUEUE"] = priority_to_queue_map(q);
  if (dynamic && !q.lossless_priorities().empty()) c["PFC_PRIORITY_TO_PRIORITY_GROUP_MAP"] = pfc_to_pg_map(q);
  c["SCHEDULER"] = schedulers(q);
  if (ordered_json w = wred(q); !w.empty()) c["WRED_PROFILE"] = std::move(w);
  c["PORT_QOS_MAP"] = port_qos_maps(device, ports);
  c["QUEUE"] = queues(q, ports);
  c["BUFFER_QUEUE"] = buffer_queues(q, ports);
  if (ordered_json pgs = buffer_pgs(q, ports, dynamic); !pgs.empty()) c["BUFFER_PG"] = std::move(pgs);
  if (ordered_json lengths = cable_length(device, ports); !lengths.empty()) c["CABLE_LENGTH"] = std::move(lengths);
  if (ordered_json wd = pfc_wd(q, ports); !wd.empty()) c["PFC_WD"] = std::move(wd);
  c["PORT"] = port_mtus(ports);
  return c;
}

}  // namespace

std::vector<const PortDesired*> natural_ports(const DeviceDesired& device) {
  std::vector<const PortDesired*> ports;
  for (const PortDesired& p : device.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortDesired* a, const PortDesired* b) { return natural_less(a->name, b->name); });
  return ports;
}

nlohmann::ordered_json config_db(const DeviceDesired& device) { return config_db_of(device, natural_ports(device)); }

nlohmann::ordered_json config_db(const DeviceDesired& device, const PortDesired& port) {
  return config_db_of(device, {&port});
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
