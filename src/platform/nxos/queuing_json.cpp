#include "platform/nxos/queuing_json.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

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
      const auto n = static_cast<uint64_t>(nxapi_number(*v, Path(at), 0, INT64_MAX));
      if (n > UINT64_MAX - total) jsonr::fail(Path(at), "the columns' sum is beyond 64 bits");
      total += n;
    }
  return total;
}

void count_once(PortObserved& p, const std::string& name, uint64_t value, const std::string& where) {
  if (!p.counters.emplace(name, value).second) jsonr::fail(Path(where), name + " is printed twice");
}

/// The counters of one ROW_queuing_interface row, into its port's.
void read_queuing_row(PortObserved& p, Value row, const std::string& where) {
  const std::vector<Value> groups = nxapi_rows(row, "qosgrp_egress_stats", where);
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::string at = where + ".TABLE_qosgrp_egress_stats.ROW_qosgrp_egress_stats[" + std::to_string(g) + "]";
    jsonr::expect_object(groups[g], Path(at));
    const std::string id_at = at + ".eq-qosgrp";
    const Value id = jsonr::required(groups[g], Path(at), "eq-qosgrp");
    // `CONTROL QOS GROUP`, `SPAN QOS GROUP`: the switch's own queues, which no profile sets.
    if (id.is_string() && !jsonr::string_value(id, Path(id_at)).empty() &&
        jsonr::string_value(id, Path(id_at)).find_first_of("0123456789") == std::string_view::npos)
      continue;
    const std::string q = std::to_string(nxapi_number(id, Path(id_at), 0, 7));
    const std::vector<Value> entries = nxapi_rows(groups[g], "qosgrp_egress_stats_entry", at);
    for (size_t e = 0; e < entries.size(); ++e) {
      const std::string ew =
          at + ".TABLE_qosgrp_egress_stats_entry.ROW_qosgrp_egress_stats_entry[" + std::to_string(e) + "]";
      jsonr::expect_object(entries[e], Path(ew));
      const std::optional<std::string_view> type = nxapi_text(entries[e], ew, "eq-stat-type");
      const std::optional<std::string_view> units = nxapi_text(entries[e], ew, "eq-stat-units");
      for (const QueueStat& stat : kQueueStats)
        if (type == stat.type && units == stat.units)
          count_once(p, std::string(stat.neutral) + q, entry_total(entries[e], ew), ew);
    }
  }
  const std::vector<Value> pfc = nxapi_rows(row, "pfc_stats", where);
  for (size_t i = 0; i < pfc.size(); ++i) {
    const std::string at = where + ".TABLE_pfc_stats.ROW_pfc_stats[" + std::to_string(i) + "]";
    jsonr::expect_object(pfc[i], Path(at));
    const std::string cos_at = at + ".cos";
    const std::string cos = std::to_string(nxapi_number(jsonr::required(pfc[i], Path(at), "cos"), Path(cos_at), 0, 7));
    for (const auto& [key, neutral] : kPfcStats)
      if (const auto v = jsonr::find(pfc[i], key)) {
        const std::string v_at = at + "." + std::string(key);
        count_once(p, std::string(neutral) + cos, static_cast<uint64_t>(nxapi_number(*v, Path(v_at), 0, INT64_MAX)),
                   at);
      }
  }
}

/// Of each ROW_qosgrp_stats_entry row of `show queuing pfc-queue detail` (one row a statistic, its label in
/// `q-stat-type`): the watchdog's counts fabricctl reads, and their neutral prefix.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kWatchdogStats{{
    {"q-shutdown", "watchdog_storms_"},
    {"q-restored", "watchdog_restored_"},
    {"q-pkt-dropped", "watchdog_drops_"},
}};

/// A `show queuing pfc-queue` QoS group: an integer, or a string holding the group as its one number
/// ("3", "3 ", "QOS GROUP 3": a client run on real switches takes the digit before a space).
int64_t watchdog_group(Value id, const std::string& where) {
  if (!id.is_string()) return nxapi_number(id, Path(where), 0, 7);
  const std::string_view s = jsonr::string_value(id, Path(where));
  const size_t first = s.find_first_of("0123456789");
  const size_t end = first == std::string_view::npos ? first : s.find_first_not_of("0123456789", first);
  if (first == std::string_view::npos ||
      (end != std::string_view::npos && s.find_first_of("0123456789", end) != std::string_view::npos))
    jsonr::fail(Path(where), jsonr::describe(id) + " does not name one QoS group");
  const std::optional<int64_t> n = parse_int(s.substr(first, end == std::string_view::npos ? end : end - first));
  if (!n || *n > 7) jsonr::fail(Path(where), jsonr::describe(id) + " is out of range 0-7");
  return *n;
}

/// The watchdog counters of one `show queuing pfc-queue detail` row, into its port's.
void read_pfc_queue_row(PortObserved& p, Value row, const std::string& where) {
  const std::vector<Value> groups = nxapi_rows(row, "qosgrp_stats", where);
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::string at = where + ".TABLE_qosgrp_stats.ROW_qosgrp_stats[" + std::to_string(g) + "]";
    jsonr::expect_object(groups[g], Path(at));
    const std::string q =
        std::to_string(watchdog_group(jsonr::required(groups[g], Path(at), "eq-qosgrp"), at + ".eq-qosgrp"));
    const std::vector<Value> entries = nxapi_rows(groups[g], "qosgrp_stats_entry", at);
    for (size_t e = 0; e < entries.size(); ++e) {
      const std::string ew = at + ".TABLE_qosgrp_stats_entry.ROW_qosgrp_stats_entry[" + std::to_string(e) + "]";
      jsonr::expect_object(entries[e], Path(ew));
      for (const auto& [key, neutral] : kWatchdogStats)
        if (const auto v = jsonr::find(entries[e], key)) {
          const std::string v_at = ew + "." + std::string(key);
          count_once(p, std::string(neutral) + q, static_cast<uint64_t>(nxapi_number(*v, Path(v_at), 0, INT64_MAX)),
                     ew);
        }
    }
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
  std::vector<std::pair<std::string, Value>> all;  // each ROW_queuing_interface row, and where it is
  try {
    const auto add = [&all](Value in, const std::string& where) {
      const std::vector<Value> found = nxapi_rows(in, "queuing_interface", where);
      const std::string at = (where.empty() ? "" : where + ".") + "TABLE_queuing_interface.ROW_queuing_interface[";
      for (size_t i = 0; i < found.size(); ++i) all.emplace_back(at + std::to_string(i) + "]", found[i]);
    };
    const std::vector<Value> modules = nxapi_rows(root, "module");
    for (size_t m = 0; m < modules.size(); ++m) {
      const std::string where = "TABLE_module.ROW_module[" + std::to_string(m) + "]";
      jsonr::expect_object(modules[m], Path(where));
      add(modules[m], where);
    }
    add(root, "");
  } catch (const jsonr::JsonError& e) {
    return unexpected(command + ": " + e.message);
  }
  PortTable<PortObserved> out;
  for (const auto& [where, row] : all) {
    std::string name;
    try {
      jsonr::expect_object(row, Path(where));
      std::string_view text_name = jsonr::string_value(jsonr::required(row, Path(where), "if_name_str"), Path(where));
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
