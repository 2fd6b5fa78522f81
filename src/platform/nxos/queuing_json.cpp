#include "platform/nxos/queuing_json.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "platform/counter_json.h"
#include "platform/nxos/nxapi_json.h"
#include "platform/nxos/show_json.h"
#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nxos {
namespace {

using jsonr::Path;
using jsonr::Value;

/// `show queuing interface` nests four tables deep (module, interface, queue, entry): 12 levels.
const jsonr::JsonLimits kQueuingLimits{size_t{64} << 20, 16};

/// The entries of `show queuing interface`'s egress statistics that are read, by `eq-stat-type` and
/// `eq-stat-units` (the text form's row labels, "Tx Pkts", "WRED/AFD & Tail Drop Pkts", in a real
/// switch's capture: docs/reference-nxos.md D), and the prefix of their neutral name.
struct QueueStat {
  std::string_view type, units, neutral;
};
constexpr std::array<QueueStat, 4> kQueueStats{{
    {"Tx", "Pkts", "queue_tx_packets_"},
    {"WRED/AFD & Tail Drop", "Pkts", "queue_drops_"},
    {"Dropped", "Pkts", "queue_drops_"},  // 7.0(3)I5, as a client tested there reads it (UNCONFIRMED)
    {"ECN", "Pkts", "ecn_marked_"},       // named by a client, in no capture (UNCONFIRMED)
}};

/// Of each TABLE_pfc_stats row (one a CoS): PFC frames sent and received, and their neutral prefix.
constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kPfcStats{{
    {"tx-pause-count", "pfc_tx_pause_"},
    {"rx-pause-count", "pfc_rx_pause_"},
}};

/// An egress statistics entry's columns, summed: unicast, OOBFC unicast and multicast, each absent where
/// the switch has no such column.
uint64_t entry_total(Value entry, const std::string& where) {
  uint64_t total = 0;
  for (const std::string_view key : {"eq-uc-stat-value", "eq-oobfc-uc-stat-value", "eq-mc-stat-value"})
    if (const auto v = jsonr::find(entry, key)) {
      const std::string at = where + "." + std::string(key);
      const uint64_t n = nxapi_count(*v, Path(at));
      if (n > UINT64_MAX - total) jsonr::fail(Path(at), "the columns' sum is beyond 64 bits");
      total += n;
    }
  return total;
}

/// The QoS group of a TABLE_qosgrp_* row at `at` (nxapi_qos_group()): nothing for the switch's own.
std::optional<std::string> group_of(Value row, const std::string& at) {
  const std::string id_at = at + ".eq-qosgrp";
  const std::optional<int> q = nxapi_qos_group(jsonr::required(row, Path(at), "eq-qosgrp"), Path(id_at));
  if (!q) return std::nullopt;
  return std::to_string(*q);
}

/// The per-queue counters of an Egress row (the clients read them from those rows only; a row without
/// `dir` is taken as one).
void read_egress_stats(PortObserved& p, Value row, const std::string& where) {
  if (const auto dir = nxapi_text(row, where, "dir"); dir && *dir != "Egress") return;
  for (const auto& [at, group] : nxapi_rows(row, "qosgrp_egress_stats", where)) {
    const std::optional<std::string> q = group_of(group, at);
    if (!q) continue;
    for (const auto& [ew, entry] : nxapi_rows(group, "qosgrp_egress_stats_entry", at)) {
      const std::optional<std::string_view> type = nxapi_text(entry, ew, "eq-stat-type");
      const std::optional<std::string_view> units = nxapi_text(entry, ew, "eq-stat-units");
      for (const QueueStat& stat : kQueueStats)
        if (type == stat.type && units == stat.units)
          set_counter(p, Path(ew), std::string(stat.neutral) + *q, entry_total(entry, ew));
    }
  }
}

/// The PFC counts per CoS of a row. Which row prints them (Ingress, Egress, or both alike) is
/// UNCONFIRMED: a count a second row prints again is taken when it is the same, refused when it differs.
void read_pfc_stats(PortObserved& p, Value row, const std::string& where) {
  PortObserved here;
  for (const auto& [at, pfc] : nxapi_rows(row, "pfc_stats", where)) {
    const std::string cos_at = at + ".cos";
    const std::string cos = std::to_string(nxapi_number(jsonr::required(pfc, Path(at), "cos"), Path(cos_at), 0, 7));
    for (const auto& [key, neutral] : kPfcStats)
      if (const auto v = jsonr::find(pfc, key)) {
        const std::string v_at = at + "." + std::string(key);
        set_counter(here, Path(at), std::string(neutral) + cos, nxapi_count(*v, Path(v_at)));
      }
  }
  for (const auto& [name, value] : here.counters)
    if (const auto [it, added] = p.counters.emplace(name, value); !added && it->second != value)
      jsonr::fail(Path(where),
                  name + " is printed twice, " + std::to_string(it->second) + " and " + std::to_string(value));
}

/// The counters of one `show queuing interface` row, into its port's.
void read_queuing_row(PortObserved& p, Value row, const std::string& where) {
  read_egress_stats(p, row, where);
  read_pfc_stats(p, row, where);
}

/// Of each ROW_qosgrp_stats_entry row of `show queuing pfc-queue detail` (one row a statistic, its label in
/// `q-stat-type`): the watchdog's counts fabricctl reads, and their neutral prefix. Its drops are those
/// of both directions, as SONiC's watchdog_drops_<q> are: egress (`q-pkt-dropped`) and ingress
/// (`q-ing-pkt-dropped`), summed.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kWatchdogStats{{
    {"q-shutdown", "watchdog_storms_"},
    {"q-restored", "watchdog_restored_"},
    {"q-pkt-dropped", "watchdog_drops_"},
    {"q-ing-pkt-dropped", "watchdog_drops_"},
}};

/// The watchdog counters of one `show queuing pfc-queue detail` row, into its port's.
void read_pfc_queue_row(PortObserved& p, Value row, const std::string& where) {
  for (const auto& [at, stats] : nxapi_rows(row, "qosgrp_stats", where)) {
    const std::optional<std::string> q = group_of(stats, at);
    if (!q) continue;
    PortObserved group;  // each statistic once: a second value of one cannot be told from the first
    for (const auto& [ew, entry] : nxapi_rows(stats, "qosgrp_stats_entry", at))
      for (const auto& [key, neutral] : kWatchdogStats)
        if (const auto v = jsonr::find(entry, key))
          set_counter(group, Path(ew), std::string(key), nxapi_count(*v, Path(ew + "." + std::string(key))));
    std::map<std::string, uint64_t> totals;  // by neutral name: the drops are two statistics summed
    for (const auto& [key, neutral] : kWatchdogStats) {
      const auto it = group.counters.find(std::string(key));
      if (it == group.counters.end()) continue;
      uint64_t& total = totals[std::string(neutral) + *q];
      if (it->second > UINT64_MAX - total) jsonr::fail(Path(at), std::string(neutral) + *q + " is beyond 64 bits");
      total += it->second;
    }
    for (const auto& [name, value] : totals) set_counter(p, Path(at), name, value);
  }
}

/// The ports of a `show queuing ...` reply: each TABLE_module.ROW_module.TABLE_queuing_interface row (or
/// of a TABLE_queuing_interface at the top) names its port in `if_name_str`, as its first word where
/// `first_word` (pfc-queue prints "Ethernet1/1 Interface PFC watchdog ..." there); an Ethernet port's
/// rows are read by `read_row` into its counters, and one it cannot read makes the port unreadable.
Expected<PortTable<PortObserved>> queuing_ports(std::string_view text, const std::string& command,
                                                void (*read_row)(PortObserved&, Value, const std::string&),
                                                bool first_word) {
  auto doc = jsonr::parse_json(text, kQueuingLimits);
  if (!doc) return unexpected(command + ": " + doc.error());
  const Value root = doc->root();
  if (!root.is_object()) return unexpected(command + ": not a JSON object");
  std::vector<NxapiRow> all;  // each ROW_queuing_interface row
  try {
    for (const auto& [where, module] : nxapi_rows(root, "module")) {
      std::vector<NxapiRow> rows = nxapi_rows(module, "queuing_interface", where);
      all.insert(all.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
    }
    std::vector<NxapiRow> top = nxapi_rows(root, "queuing_interface");
    all.insert(all.end(), std::make_move_iterator(top.begin()), std::make_move_iterator(top.end()));
  } catch (const jsonr::JsonError& e) {
    return unexpected(command + ": " + e.message);
  }
  PortTable<PortObserved> out;
  for (const auto& [where, row] : all) {
    std::string name;
    try {
      const std::string name_at = where + ".if_name_str";
      std::string_view text_name = jsonr::string_value(jsonr::required(row, Path(where), "if_name_str"), Path(name_at));
      if (first_word) text_name = text_name.substr(0, text_name.find(' '));
      name = long_port_name(text_name);
    } catch (const jsonr::JsonError& e) {
      return unexpected(command + ": " + e.message);  // a row without its name is no port's
    }
    if (!ethernet(name) || out.unreadable.count(name)) continue;
    if (!valid_port_name(name)) {
      out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    PortObserved& p = out.ports[name];
    p.name = name;
    try {
      read_row(p, row, where);
    } catch (const jsonr::JsonError& e) {
      out.ports.erase(name);
      out.unreadable.emplace(name, command + ": " + e.message);
    }
  }
  return out;
}

}  // namespace

Expected<PortTable<PortObserved>> queuing_json(std::string_view text) {
  return queuing_ports(text, "show queuing interface", read_queuing_row, false);
}

Expected<PortTable<PortObserved>> pfc_queue_json(std::string_view text) {
  return queuing_ports(text, "show queuing pfc-queue detail", read_pfc_queue_row, true);
}

}  // namespace fabricctl::nxos
