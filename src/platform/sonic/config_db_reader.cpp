// Vocabulary as in config_db.cpp: DSCP_TO_TC_MAP holds dscp -> priority, TC_TO_QUEUE_MAP priority ->
// traffic class (egress queue), pfc_enable the lossless priorities; SCHEDULER weights are ETS shares;
// a WRED profile marks ECN on green when its `ecn` mode includes green and wred_green_enable is "true",
// with green_min/max_threshold in bytes and green_drop_probability as the marking percent at max; PFC_WD
// times are milliseconds. Every CONFIG_DB value is a string. A null entry (what config_db.json writes for
// an entry `config load` deletes; a running CONFIG_DB has none) is read as absent.
#include "platform/sonic/config_db_reader.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::sonic {
namespace {

using jsonr::Path;
using jsonr::Value;

// SONiC's default PFC watchdog polling interval (pfcwd start_default), milliseconds: what the
// watchdog uses when CONFIG_DB has no PFC_WD|GLOBAL.
constexpr int kDefaultPollMs = 200;

// Locations are CONFIG_DB paths as text ("QUEUE.Ethernet0|3.scheduler"), each held in a named
// std::string while a jsonr::Path refers to it.
using Where = std::string;

std::string at(const Where& w, std::string_view key) { return w + "." + std::string(key); }

/// A CONFIG_DB integer: a string of decimal digits in [lo, hi].
int int_string(Value v, const Where& where, int lo, int hi) {
  const Path path(where);
  const std::string_view s = jsonr::string_value(v, path);
  const bool digits =
      !s.empty() && s.size() <= 10 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  const std::optional<int64_t> n = digits ? parse_int(s) : std::nullopt;
  if (!n || *n < lo || *n > hi)
    jsonr::fail(path, quote(s) + " is not an integer " + std::to_string(lo) + "-" + std::to_string(hi));
  return static_cast<int>(*n);
}

std::string_view string_at(Value v, const Where& where) { return jsonr::string_value(v, Path(where)); }
void object_at(Value v, const Where& where) { jsonr::expect_object(v, Path(where)); }
Value required_at(Value obj, const Where& where, std::string_view key) {
  const Path path(where);
  return jsonr::required(obj, path, key);
}

/// The tables the reader uses; an absent table is an empty one.
struct Tables {
  std::optional<Value> port, port_qos_map, queue, scheduler, wred, dscp_to_tc, tc_to_queue, pfc_wd;
};

/// The entry `name` of `table`, which must exist: a port's binding to a missing entry is a
/// misconfiguration orchagent refuses, so the port's state is unknown.
Value referenced(const std::optional<Value>& table, std::string_view table_name, std::string_view name,
                 const Where& from) {
  const std::optional<Value> e = table ? jsonr::find(*table, name) : std::nullopt;
  if (!e || e->is_null()) jsonr::fail(Path(from), "\"" + std::string(name) + "\" is not in " + std::string(table_name));
  return *e;
}

/// A map table entry {"from": "to"} as an array indexed by `from` (< N); absent keys map to 0.
template <size_t N>
std::array<int, N> map_of(Value map, const Where& where, int max_to) {
  object_at(map, where);
  std::array<int, N> out{};
  for (const auto& [key, value] : map.members()) {
    const Where w = at(where, key);
    const std::optional<int64_t> from = parse_int(key);
    if (!from || *from < 0 || *from >= static_cast<int64_t>(N))
      jsonr::fail(Path(w), "key is not an integer 0-" + std::to_string(N - 1));
    out.at(static_cast<size_t>(*from)) = int_string(value, w, 0, max_to);
  }
  return out;
}

bool marks_green(std::string_view ecn_mode) {
  return ecn_mode == "ecn_green" || ecn_mode == "ecn_green_yellow" || ecn_mode == "ecn_green_red" ||
         ecn_mode == "ecn_all";
}

/// The queue `tc` of a port: its scheduling and, where its WRED profile marks green, its ECN.
void read_queue(const Tables& t, Value entry, const Where& where, int tc, PortObserved& p) {
  object_at(entry, where);
  TcSchedule& s = p.tc->at(static_cast<size_t>(tc));
  if (const auto name = jsonr::find(entry, "scheduler")) {
    const Where from = at(where, "scheduler");
    const std::string_view sched_name = string_at(*name, from);
    const Value sched = referenced(t.scheduler, "SCHEDULER", sched_name, from);
    const Where sw = "SCHEDULER." + std::string(sched_name);
    object_at(sched, sw);
    const Where type_at = at(sw, "type");
    const size_t type = jsonr::choice(required_at(sched, sw, "type"), Path(type_at), {"STRICT", "DWRR", "WRR"});
    s.used = true;
    s.strict = type == 0;
    s.bandwidth_pct = s.strict ? 0 : int_string(required_at(sched, sw, "weight"), at(sw, "weight"), 1, 100);
  }
  if (const auto name = jsonr::find(entry, "wred_profile")) {
    const Where from = at(where, "wred_profile");
    const std::string_view profile = string_at(*name, from);
    const Value w = referenced(t.wred, "WRED_PROFILE", profile, from);
    const Where ww = "WRED_PROFILE." + std::string(profile);
    object_at(w, ww);
    const auto mode = jsonr::find(w, "ecn");
    const auto green = jsonr::find(w, "wred_green_enable");
    const bool on = mode && marks_green(string_at(*mode, at(ww, "ecn"))) && green &&
                    string_at(*green, at(ww, "wred_green_enable")) == "true";
    if (on) {
      constexpr int kMaxBytes = 2'000'000'000;
      EcnQueue e;
      e.tc = tc;
      e.min_bytes = static_cast<uint64_t>(
          int_string(required_at(w, ww, "green_min_threshold"), at(ww, "green_min_threshold"), 0, kMaxBytes));
      e.max_bytes = static_cast<uint64_t>(
          int_string(required_at(w, ww, "green_max_threshold"), at(ww, "green_max_threshold"), 0, kMaxBytes));
      e.probability_pct =
          int_string(required_at(w, ww, "green_drop_probability"), at(ww, "green_drop_probability"), 0, 100);
      p.ecn->push_back(e);
    }
  }
}

/// The priorities of a pfc_enable value ("3,4"; "" is none).
std::array<bool, kPriorities> priorities_of(Value v, const Where& where) {
  const std::string_view list = string_at(v, where);
  std::array<bool, kPriorities> out{};
  for (size_t start = 0; !list.empty() && start <= list.size();) {
    const size_t comma = std::min(list.find(',', start), list.size());
    const std::optional<int64_t> prio = parse_int(list.substr(start, comma - start));
    if (!prio || *prio < 0 || *prio >= kPriorities)
      jsonr::fail(Path(where), quote(list) + " is not a list of priorities 0-7");
    out.at(static_cast<size_t>(*prio)) = true;
    start = comma + 1;
  }
  return out;
}

Watchdog watchdog_of(const Tables& t, Value entry, const std::string& port) {
  const Where wp = "PFC_WD." + port;
  object_at(entry, wp);
  Watchdog w;
  w.enabled = true;
  w.detection_ms = int_string(required_at(entry, wp, "detection_time"), at(wp, "detection_time"), 1, 60000);
  w.restoration_ms = int_string(required_at(entry, wp, "restoration_time"), at(wp, "restoration_time"), 1, 600000);
  if (const auto action = jsonr::find(entry, "action")) {
    const Where aw = at(wp, "action");
    const size_t a = jsonr::choice(*action, Path(aw), {"drop", "forward", "alert"});
    w.action = a == 0 ? WatchdogAction::drop : a == 1 ? WatchdogAction::forward : WatchdogAction::alert;
  }
  w.poll_interval_ms = kDefaultPollMs;
  if (const auto g = jsonr::find(*t.pfc_wd, "GLOBAL")) {
    const Where gw = "PFC_WD.GLOBAL";
    object_at(*g, gw);
    if (const auto poll = jsonr::find(*g, "POLL_INTERVAL"))
      w.poll_interval_ms = int_string(*poll, at(gw, "POLL_INTERVAL"), 1, 60000);
  }
  return w;
}

PortObserved read_port(const Tables& t, const std::string& name, const std::vector<std::pair<int, Value>>& queues) {
  PortObserved p;
  p.name = name;
  if (const auto e = t.port ? jsonr::find(*t.port, name) : std::nullopt) {
    const Where w = "PORT." + name;
    object_at(*e, w);
    if (const auto mtu = jsonr::find(*e, "mtu")) p.mtu = int_string(*mtu, at(w, "mtu"), 68, 9216);
    if (const auto speed = jsonr::find(*e, "speed")) p.speed_mbps = int_string(*speed, at(w, "speed"), 1, 1'600'000);
  }
  // The port's QoS bindings, over the switch-wide "global" entry (newer SONiC binds the DSCP map there).
  const std::optional<Value> own = t.port_qos_map ? jsonr::find(*t.port_qos_map, name) : std::nullopt;
  const std::optional<Value> global = t.port_qos_map ? jsonr::find(*t.port_qos_map, "global") : std::nullopt;
  const Where own_at = "PORT_QOS_MAP." + name, global_at = "PORT_QOS_MAP.global";
  if (own) object_at(*own, own_at);
  if (global) object_at(*global, global_at);
  struct Binding {
    std::string_view name;
    Where where;
  };
  auto binding = [&](std::string_view field) -> std::optional<Binding> {
    for (const auto& [entry, where] : {std::pair{own, &own_at}, std::pair{global, &global_at}})
      if (entry)
        if (const auto v = jsonr::find(*entry, field)) {
          Where w = at(*where, field);
          const std::string_view value = string_at(*v, w);
          return Binding{value, std::move(w)};
        }
    return std::nullopt;
  };
  if (const auto dscp = binding("dscp_to_tc_map")) {
    p.trust = Trust::dscp;
    const Value map = referenced(t.dscp_to_tc, "DSCP_TO_TC_MAP", dscp->name, dscp->where);
    p.dscp_to_priority = map_of<kDscpValues>(map, "DSCP_TO_TC_MAP." + std::string(dscp->name), kPriorities - 1);
  } else if (binding("dot1p_to_tc_map")) {
    p.trust = Trust::pcp;
  }
  if (const auto queue_map = binding("tc_to_queue_map")) {
    const Value map = referenced(t.tc_to_queue, "TC_TO_QUEUE_MAP", queue_map->name, queue_map->where);
    p.priority_to_tc = map_of<kPriorities>(map, "TC_TO_QUEUE_MAP." + std::string(queue_map->name), kTrafficClasses - 1);
  }
  p.lossless.emplace();
  bool watchdog_on = false;
  if (own) {
    if (const auto v = jsonr::find(*own, "pfc_enable")) p.lossless = priorities_of(*v, at(own_at, "pfc_enable"));
    if (const auto v = jsonr::find(*own, "pfcwd_sw_enable"))
      watchdog_on = !string_at(*v, at(own_at, "pfcwd_sw_enable")).empty();
  }
  // Queues: a queue with a scheduler is used; ECN where its WRED profile marks green.
  p.tc.emplace();
  p.ecn.emplace();
  for (const auto& [tc, entry] : queues)
    if (!entry.is_null()) read_queue(t, entry, "QUEUE." + name + "|" + std::to_string(tc), tc, p);
  std::sort(p.ecn->begin(), p.ecn->end(), [](const EcnQueue& a, const EcnQueue& b) { return a.tc < b.tc; });
  // The watchdog runs where pfcwd_sw_enable lists priorities and PFC_WD has the port.
  const std::optional<Value> wd = t.pfc_wd ? jsonr::find(*t.pfc_wd, name) : std::nullopt;
  p.watchdog = watchdog_on && wd && !wd->is_null() ? watchdog_of(t, *wd, name) : Watchdog{};
  return p;
}

}  // namespace

bool namespace_name(std::string_view key) {
  if (key == "localhost") return true;
  return key.size() > 4 && key.starts_with("asic") &&
         std::all_of(key.begin() + 4, key.end(), [](char c) { return c >= '0' && c <= '9'; });
}

Expected<ConfigDbPorts> ports_from_config_db(std::string_view text) {
  // A whole switch's CONFIG_DB: a few MB for 64 ports with their maps; tables are 3 levels deep.
  const jsonr::JsonLimits limits{size_t{64} << 20, 8};
  auto doc = jsonr::parse_json(text, limits);
  if (!doc) return unexpected("CONFIG_DB: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object()) return unexpected("CONFIG_DB: not a JSON object of tables");
  for (const auto& m : root.members())
    if (namespace_name(m.key)) return unexpected("CONFIG_DB: " + std::string(kMultiAsic));
  Tables t;
  const std::pair<const char*, std::optional<Value>*> wanted[] = {{"PORT", &t.port},
                                                                  {"PORT_QOS_MAP", &t.port_qos_map},
                                                                  {"QUEUE", &t.queue},
                                                                  {"SCHEDULER", &t.scheduler},
                                                                  {"WRED_PROFILE", &t.wred},
                                                                  {"DSCP_TO_TC_MAP", &t.dscp_to_tc},
                                                                  {"TC_TO_QUEUE_MAP", &t.tc_to_queue},
                                                                  {"PFC_WD", &t.pfc_wd}};
  for (const auto& [name, slot] : wanted) {
    *slot = jsonr::find(root, name);
    if (*slot && !(*slot)->is_object()) return unexpected(std::string("CONFIG_DB: ") + name + " is not an object");
  }
  // The ports, and each one's queue entries ("Ethernet0|3").
  std::set<std::string, NaturalLess> names;
  std::map<std::string, std::vector<std::pair<int, Value>>> queues;
  std::map<std::string, std::string> unreadable;
  if (t.port) {
    for (const auto& m : t.port->members()) names.emplace(m.key);
  } else if (t.port_qos_map) {
    for (const auto& m : t.port_qos_map->members())
      if (m.key != "global") names.emplace(m.key);
  }
  if (t.queue)
    for (const auto& m : t.queue->members()) {
      const size_t bar = m.key.rfind('|');
      const std::string port(m.key.substr(0, bar == std::string_view::npos ? m.key.size() : bar));
      int64_t q = -1;
      if (bar != std::string_view::npos) q = parse_int(m.key.substr(bar + 1)).value_or(-1);
      if (!t.port && !t.port_qos_map) names.emplace(port);
      if (q < 0 || q >= kTrafficClasses) {
        unreadable.emplace(port, "QUEUE." + std::string(m.key) + ": not a key <port>|<queue 0-7>");
        continue;
      }
      queues[port].emplace_back(static_cast<int>(q), m.value);
    }
  ConfigDbPorts out;
  for (const std::string& name : names) {
    if (!valid_port_name(name)) {
      out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    if (const auto it = unreadable.find(name); it != unreadable.end()) {
      out.unreadable.emplace(name, it->second);
      continue;
    }
    try {
      out.ports.push_back(read_port(t, name, queues[name]));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.emplace(name, e.message);
    }
  }
  return out;
}

}  // namespace fabricctl::sonic
