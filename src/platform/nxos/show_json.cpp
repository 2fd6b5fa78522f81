#include "platform/nxos/show_json.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "platform/neighbor_text.h"
#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nxos {
namespace {

using jsonr::Path;
using jsonr::Value;

// `show interface` of a 512-port switch is a few MB (each row carries ~100 counters); rows are 3 levels
// deep, and NX-API's envelope is never part of what the CLI prints.
const jsonr::JsonLimits kLimits{size_t{64} << 20, 8};
constexpr size_t kMaxRows = 100000;

/// An Ethernet port: Ethernet1/1, breakouts Ethernet1/1/1 (NX-OS never prints Ethernet1 alone).
bool ethernet(std::string_view name) { return name.rfind("Ethernet", 0) == 0; }

/// A number NX-OS prints as a JSON integer or as a string of decimal digits, depending on the release
/// (docs/reference-nxos.md, section D: `eth_bw`, `ttl`).
int64_t number(Value v, const Path& path, int64_t lo, int64_t hi) {
  if (!v.is_string()) return jsonr::integer(v, path, lo, hi);
  const std::string_view s = jsonr::string_value(v, path);
  const std::optional<int64_t> n =
      s.find_first_not_of("0123456789") == std::string_view::npos ? parse_int(s) : std::nullopt;
  if (!n) jsonr::fail(path, jsonr::describe(v) + " is not a number");
  if (*n < lo || *n > hi)
    jsonr::fail(path, jsonr::describe(v) + " is out of range " + std::to_string(lo) + "-" + std::to_string(hi));
  return *n;
}

/// The rows of TABLE_<name>.ROW_<name> in `root` (at `where`): a list, or one row as an object. No
/// table: no rows.
std::vector<Value> rows(Value root, std::string_view name, const std::string& where = "") {
  const std::string table = "TABLE_" + std::string(name), row = "ROW_" + std::string(name);
  const std::optional<Value> t = jsonr::find(root, table);
  if (!t) return {};
  const std::string at = (where.empty() ? "" : where + ".") + table;
  jsonr::expect_object(*t, Path(at));
  const Value r = jsonr::required(*t, Path(at), row);
  if (r.is_object()) return {r};
  jsonr::expect_array(r, Path(at + "." + row), kMaxRows, "rows");
  std::vector<Value> out;
  for (const Value e : r.elements()) out.push_back(e);
  return out;
}

/// The string at `key` of a row, or nothing when the row lacks it.
std::optional<std::string_view> text_field(Value row, const std::string& where, std::string_view key) {
  const std::optional<Value> v = jsonr::find(row, key);
  if (!v) return std::nullopt;
  const std::string at = where + "." + std::string(key);
  return jsonr::string_value(*v, Path(at));
}

/// The counters of a `show interface` row fabricctl keeps, in neutral names (docs/counters-reference.md),
/// each a number NX-OS prints as a string or an integer. `eth_inpause` / `eth_outpause` are not read:
/// whether they count PFC frames or only 802.3x pause is UNCONFIRMED.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kCounters{{
    {"eth_crc", "fcs_errors"},
    {"eth_indiscard", "rx_discards"},
    {"eth_outdiscard", "tx_discards"},
}};

PortObserved interface_of(std::string_view name, Value row, const std::string& where) {
  PortObserved p;
  p.name = std::string(name);
  if (const auto mtu = jsonr::find(row, "eth_mtu")) {
    const std::string at = where + ".eth_mtu";
    p.mtu = static_cast<int>(number(*mtu, Path(at), 68, 65535));
  }
  if (const auto bw = jsonr::find(row, "eth_bw")) {
    const std::string at = where + ".eth_bw";
    const int64_t kbits = number(*bw, Path(at), 0, int64_t{1'600'000} * 1'000);  // up to 1.6 Tb/s
    if (kbits > 0) p.speed_mbps = static_cast<int>(kbits / 1'000);
  }
  if (const auto state = text_field(row, where, "state")) p.oper_up = *state == "up";
  for (const auto& [key, neutral] : kCounters)
    if (const auto v = jsonr::find(row, key)) {
      const std::string at = where + "." + std::string(key);
      p.counters[std::string(neutral)] = static_cast<uint64_t>(number(*v, Path(at), 0, INT64_MAX));
    }
  return p;
}

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
      const auto n = static_cast<uint64_t>(number(*v, Path(at), 0, INT64_MAX));
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
  const std::vector<Value> groups = rows(row, "qosgrp_egress_stats", where);
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::string at = where + ".TABLE_qosgrp_egress_stats.ROW_qosgrp_egress_stats[" + std::to_string(g) + "]";
    jsonr::expect_object(groups[g], Path(at));
    const std::string id_at = at + ".eq-qosgrp";
    const Value id = jsonr::required(groups[g], Path(at), "eq-qosgrp");
    // `CONTROL QOS GROUP`, `SPAN QOS GROUP`: the switch's own queues, which no profile sets.
    if (id.is_string() && !jsonr::string_value(id, Path(id_at)).empty() &&
        jsonr::string_value(id, Path(id_at)).find_first_of("0123456789") == std::string_view::npos)
      continue;
    const std::string q = std::to_string(number(id, Path(id_at), 0, 7));
    const std::vector<Value> entries = rows(groups[g], "qosgrp_egress_stats_entry", at);
    for (size_t e = 0; e < entries.size(); ++e) {
      const std::string ew =
          at + ".TABLE_qosgrp_egress_stats_entry.ROW_qosgrp_egress_stats_entry[" + std::to_string(e) + "]";
      jsonr::expect_object(entries[e], Path(ew));
      const std::optional<std::string_view> type = text_field(entries[e], ew, "eq-stat-type");
      const std::optional<std::string_view> units = text_field(entries[e], ew, "eq-stat-units");
      for (const QueueStat& stat : kQueueStats)
        if (type == stat.type && units == stat.units)
          count_once(p, std::string(stat.neutral) + q, entry_total(entries[e], ew), ew);
    }
  }
  const std::vector<Value> pfc = rows(row, "pfc_stats", where);
  for (size_t i = 0; i < pfc.size(); ++i) {
    const std::string at = where + ".TABLE_pfc_stats.ROW_pfc_stats[" + std::to_string(i) + "]";
    jsonr::expect_object(pfc[i], Path(at));
    const std::string cos_at = at + ".cos";
    const std::string cos = std::to_string(number(jsonr::required(pfc[i], Path(at), "cos"), Path(cos_at), 0, 7));
    for (const auto& [key, neutral] : kPfcStats)
      if (const auto v = jsonr::find(pfc[i], key)) {
        const std::string v_at = at + "." + std::string(key);
        count_once(p, std::string(neutral) + cos, static_cast<uint64_t>(number(*v, Path(v_at), 0, INT64_MAX)), at);
      }
  }
}

}  // namespace

std::string long_port_name(std::string_view name) {
  if (name.rfind("Eth", 0) == 0 && !ethernet(name) && name.size() > 3 && name[3] >= '0' && name[3] <= '9')
    return "Ethernet" + std::string(name.substr(3));
  return std::string(name);
}

Expected<PortTable<PortObserved>> interfaces_json(std::string_view text) {
  auto doc = jsonr::parse_json(text, kLimits);
  if (!doc) return unexpected("show interface: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object() || !jsonr::find(root, "TABLE_interface"))
    return unexpected("show interface: not a JSON object with a \"TABLE_interface\"");
  PortTable<PortObserved> out;
  std::vector<Value> all;
  try {
    all = rows(root, "interface");
  } catch (const jsonr::JsonError& e) {
    return unexpected("show interface: " + e.message);
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string where = "TABLE_interface.ROW_interface[" + std::to_string(i) + "]";
    std::string name;
    try {
      jsonr::expect_object(all[i], Path(where));
      name = std::string(jsonr::string_value(jsonr::required(all[i], Path(where), "interface"), Path(where)));
    } catch (const jsonr::JsonError& e) {
      return unexpected("show interface: " + e.message);  // a row without its name cannot be one port's
    }
    if (!ethernet(name)) continue;
    if (!valid_port_name(name)) {
      out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    try {
      out.ports.insert_or_assign(name, interface_of(name, all[i], where));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.insert_or_assign(name, "show interface: " + e.message);
    }
  }
  return out;
}

Expected<PortTable<LldpNeighbor>> lldp_neighbors_json(std::string_view text) {
  auto doc = jsonr::parse_json(text, kLimits);
  if (!doc) return unexpected("show lldp neighbors detail: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object()) return unexpected("show lldp neighbors detail: not a JSON object");
  PortTable<LldpNeighbor> out;
  std::vector<Value> all;
  try {
    all = rows(root, "nbor_detail");
  } catch (const jsonr::JsonError& e) {
    return unexpected("show lldp neighbors detail: " + e.message);
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const std::string where = "TABLE_nbor_detail.ROW_nbor_detail[" + std::to_string(i) + "]";
    std::string port;
    try {
      jsonr::expect_object(all[i], Path(where));
      port = long_port_name(jsonr::string_value(jsonr::required(all[i], Path(where), "l_port_id"), Path(where)));
    } catch (const jsonr::JsonError& e) {
      return unexpected("show lldp neighbors detail: " + e.message);  // no port to charge the row to
    }
    if (!ethernet(port) || out.ports.count(port) || out.unreadable.count(port)) continue;
    if (!valid_port_name(port)) continue;  // not a port this switch can have: nothing to pair it with
    try {
      const std::optional<std::string_view> system = text_field(all[i], where, "sys_name");
      const std::optional<std::string_view> remote = text_field(all[i], where, "port_id");
      LldpNeighbor n{std::string(system.value_or("")), std::string(remote.value_or(""))};
      if (const std::string bad = neighbor_text_problem(n, where + ".sys_name", where + ".port_id"); !bad.empty()) {
        out.unreadable.emplace(port, "show lldp neighbors detail: " + bad);
        continue;
      }
      if (!n.system_name.empty() || !n.port_id.empty()) out.ports.emplace(port, std::move(n));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.emplace(port, "show lldp neighbors detail: " + e.message);
    }
  }
  return out;
}

Expected<PortTable<PortObserved>> queuing_json(std::string_view text) {
  auto doc = jsonr::parse_json(text, kQueuingLimits);
  if (!doc) return unexpected("show queuing interface: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object()) return unexpected("show queuing interface: not a JSON object");
  std::vector<std::pair<std::string, Value>> all;  // each ROW_queuing_interface row, and where it is
  try {
    const auto add = [&all](Value in, const std::string& where) {
      const std::vector<Value> found = rows(in, "queuing_interface", where);
      const std::string at = (where.empty() ? "" : where + ".") + "TABLE_queuing_interface.ROW_queuing_interface[";
      for (size_t i = 0; i < found.size(); ++i) all.emplace_back(at + std::to_string(i) + "]", found[i]);
    };
    const std::vector<Value> modules = rows(root, "module");
    for (size_t m = 0; m < modules.size(); ++m) {
      const std::string where = "TABLE_module.ROW_module[" + std::to_string(m) + "]";
      jsonr::expect_object(modules[m], Path(where));
      add(modules[m], where);
    }
    add(root, "");
  } catch (const jsonr::JsonError& e) {
    return unexpected("show queuing interface: " + e.message);
  }
  PortTable<PortObserved> out;
  for (const auto& [where, row] : all) {
    std::string name;
    try {
      jsonr::expect_object(row, Path(where));
      name = long_port_name(jsonr::string_value(jsonr::required(row, Path(where), "if_name_str"), Path(where)));
    } catch (const jsonr::JsonError& e) {
      return unexpected("show queuing interface: " + e.message);  // a row without its name is no port's
    }
    if (!ethernet(name) || out.unreadable.count(name)) continue;
    if (!valid_port_name(name)) {
      out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    PortObserved& p = out.ports[name];
    p.name = name;
    try {
      read_queuing_row(p, row, where);
    } catch (const jsonr::JsonError& e) {
      out.ports.erase(name);
      out.unreadable.emplace(name, "show queuing interface: " + e.message);
    }
  }
  return out;
}

}  // namespace fabricctl::nxos
