// NVUE's defaults, for what the applied tree does not hold. Documented (Quality-of-Service, RoCE and
// NVUE-CLI pages of Cumulus Linux 5.x; shared/reference/switch-nos.md, NVUE): link mtu 9216; DSCP ->
// switch priority eight code points per priority (DSCP / 8); ECN on TC0 of default-global at 150000 -
// 1500000 bytes, probability 100; pfc-watchdog polling-interval 100 ms, robustness 3; RoCE mode (lossless):
// PFC on SP3, SP3 -> TC3, SP6 -> TC6, every other SP -> TC0, TC0 and TC3 DWRR 50 %, TC6 strict, ECN on TC0
// and TC3 at 150000 - 1500000 bytes with probability 100, trust pcp,dscp. Assumed: trust l2 (PCP) without
// RoCE mode; egress-queue-mapping SP n -> TC n; default-global egress-scheduler DWRR 12 % on TC0-3 and 13 %
// on TC4-7 ("12-13 %", nvue/context.cpp); a congestion-control traffic class entry without `ecn` marks
// (NVIDIA's example sets only thresholds and shows ECN enabled); thresholds and probability an entry
// lacks are the TC0 defaults; lossless-single-ipool differs from lossless only in its buffer pools.
//
// Units: thresholds bytes; bw-percent percent; polling-interval milliseconds; robustness polling
// intervals; link mtu the L3 (netdev) MTU, bytes. PFC watchdog: NVUE detects a storm after
// `robustness` polling intervals and restores PFC one polling interval after it ends, and has no
// action but drop (nvue/context.cpp), so detection = robustness x polling-interval, restoration =
// polling-interval, action drop.
#include "platform/nvue/config_reader.h"

#include <algorithm>
#include <array>
#include <optional>

#include "platform/nvue/ranges.h"
#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nvue {
namespace {

using jsonr::Path;
using jsonr::Value;

constexpr int kDefaultMtu = 9216;
constexpr uint64_t kEcnMinBytes = 150000;
constexpr uint64_t kEcnMaxBytes = 1500000;
constexpr int kEcnProbability = 100;
constexpr int kDefaultPollMs = 100;
constexpr int kDefaultRobustness = 3;
constexpr std::array<int, kTrafficClasses> kDefaultBwPercent = {12, 12, 12, 12, 13, 13, 13, 13};
constexpr int kRocePriority = 3;
constexpr int kCnpPriority = 6;

/// The device-wide QoS the default-global profiles (or RoCE mode) give every port.
struct Qos {
  std::optional<Trust> trust;
  std::array<int, kDscpValues> dscp{};
  std::array<bool, kPriorities> lossless{};
  std::array<int, kPriorities> priority_to_tc{};
  std::array<TcSchedule, kTrafficClasses> tc{};  // `used` filled at the end
  std::array<std::optional<EcnQueue>, kTrafficClasses> ecn{};
  int poll_ms = kDefaultPollMs;
  int robustness = kDefaultRobustness;
};

EcnQueue default_ecn(int tc) { return {tc, kEcnMinBytes, kEcnMaxBytes, kEcnProbability}; }

Qos nvue_defaults() {
  Qos q;
  q.trust = Trust::pcp;
  for (int d = 0; d < kDscpValues; ++d) q.dscp.at(static_cast<size_t>(d)) = d / 8;
  for (int p = 0; p < kPriorities; ++p) q.priority_to_tc.at(static_cast<size_t>(p)) = p;
  for (size_t tc = 0; tc < kTrafficClasses; ++tc) q.tc.at(tc) = {false, false, kDefaultBwPercent.at(tc)};
  q.ecn[0] = default_ecn(0);
  return q;
}

Qos roce_defaults() {
  Qos q = nvue_defaults();
  q.trust.reset();  // pcp,dscp: neither alone (a trust the profile can state is adjusted afterwards)
  q.lossless.fill(false);
  q.lossless[kRocePriority] = true;
  q.priority_to_tc.fill(0);
  q.priority_to_tc[kRocePriority] = kRocePriority;
  q.priority_to_tc[kCnpPriority] = kCnpPriority;
  q.tc.fill({});
  q.tc[0] = {false, false, 50};
  q.tc[kRocePriority] = {false, false, 50};
  q.tc[kCnpPriority] = {false, true, 0};
  q.ecn.fill(std::nullopt);
  q.ecn[0] = default_ecn(0);
  q.ecn[kRocePriority] = default_ecn(kRocePriority);
  return q;
}

/// The member `key` of `obj`, which must be an object when present.
std::optional<Value> object_member(Value obj, const Path& path, std::string_view key) {
  const auto v = jsonr::find(obj, key);
  if (v) jsonr::expect_object(*v, child(path, key));
  return v;
}

/// A collection key that is an index: decimal 0..max ("26" of dscp.26).
size_t index_key(std::string_view key, const Path& path, int max) {
  const std::optional<int64_t> n = parse_int(key);
  if (!n || *n < 0 || *n > max || key.size() > 2) jsonr::fail(path, "key is not an integer 0-" + std::to_string(max));
  return static_cast<size_t>(*n);
}

/// The members a key names (ranges.h), or the error at its path.
std::vector<std::string> members_of(std::string_view key, const Path& path) {
  auto members = expand_key(key);
  if (!members) jsonr::fail(path, members.error());
  return std::move(*members);
}

/// Runs `read(index, value, path)` on each member of the collection `obj` keyed by index 0..max (a key
/// may be a range or comma list, "24-31", as `nv config show` prints them from 5.15); each value must be
/// an object. The range keys are read first, so a member's own key wins.
template <typename F>
void each_index(Value obj, const Path& path, int max, F&& read) {
  jsonr::expect_object(obj, path);
  for (const bool ranges : {true, false})
    for (const auto& [key, value] : obj.members()) {
      if (is_range_key(key) != ranges) continue;
      const Path at = child(path, key);
      jsonr::expect_object(value, at);
      for (const std::string& member : members_of(key, at)) read(index_key(member, at, max), value, at);
    }
}

/// qos.mapping.default-global: trust and the DSCP map (PCP entries are PCP n -> SP n, the profile's
/// only PCP map, and are not observed).
void read_mapping(Value m, const Path& path, Qos& q) {
  if (const auto t = jsonr::find(m, "trust")) {
    // `both` is pcp,dscp and `port` neither: no one trust mode the checks can compare.
    const size_t i = jsonr::choice(*t, child(path, "trust"), {"l2", "l3", "both", "port"});
    q.trust = i == 0 ? std::optional(Trust::pcp) : i == 1 ? std::optional(Trust::dscp) : std::nullopt;
  }
  if (const auto d = jsonr::find(m, "dscp"))
    each_index(*d, child(path, "dscp"), kDscpValues - 1, [&](size_t dscp, Value v, const Path& at) {
      q.dscp.at(dscp) = static_cast<int>(
          jsonr::integer(jsonr::required(v, at, "switch-priority"), child(at, "switch-priority"), 0, 7));
    });
}

/// qos.pfc.default-global: the lossless priorities, where pause frames are both sent and honoured.
void read_pfc(Value pfc, const Path& path, Qos& q) {
  bool on = true;
  for (const std::string_view dir : {"tx", "rx"})
    if (const auto v = jsonr::find(pfc, dir))
      on = on && jsonr::choice(*v, child(path, dir), {"enable", "disable"}) == 0;
  if (const auto sp = jsonr::find(pfc, "switch-priority"))
    each_index(*sp, child(path, "switch-priority"), kPriorities - 1,
               [&](size_t p, Value, const Path&) { q.lossless.at(p) = on; });
}

void read_scheduler(Value tc, const Path& path, TcSchedule& s) {
  if (const auto mode = jsonr::find(tc, "mode"))
    s.strict = jsonr::choice(*mode, child(path, "mode"), {"dwrr", "strict"}) == 1;
  if (const auto bw = jsonr::find(tc, "bw-percent"))
    s.bandwidth_pct = static_cast<int>(jsonr::integer(*bw, child(path, "bw-percent"), 1, 100));
  if (s.strict) s.bandwidth_pct = 0;
}

void read_congestion(Value tc, const Path& path, size_t i, Qos& q) {
  EcnQueue e = q.ecn.at(i).value_or(default_ecn(static_cast<int>(i)));
  bool on = true;
  if (const auto ecn = jsonr::find(tc, "ecn")) on = jsonr::choice(*ecn, child(path, "ecn"), {"enable", "disable"}) == 0;
  constexpr int64_t kMaxBytes = 4'294'967'295;
  if (const auto v = jsonr::find(tc, "min-threshold"))
    e.min_bytes = static_cast<uint64_t>(jsonr::integer(*v, child(path, "min-threshold"), 1, kMaxBytes));
  if (const auto v = jsonr::find(tc, "max-threshold"))
    e.max_bytes = static_cast<uint64_t>(jsonr::integer(*v, child(path, "max-threshold"), 1, kMaxBytes));
  if (const auto v = jsonr::find(tc, "probability"))
    e.probability_pct = static_cast<int>(jsonr::integer(*v, child(path, "probability"), 1, 100));
  q.ecn.at(i) = on ? std::optional(e) : std::nullopt;
}

/// The default-global profile `name` under qos.<what>, when present.
std::optional<Value> default_global(Value qos, const Path& qos_path, std::string_view what, Path& at, Path& profile) {
  const auto v = object_member(qos, qos_path, what);
  if (!v) return std::nullopt;
  at = child(qos_path, what);
  profile = child(at, "default-global");
  return object_member(*v, at, "default-global");
}

/// Whether qos.roce puts the switch in RoCE lossless mode. Both generations of the switch are read:
/// `enable on|off` until Cumulus Linux 5.14, `state enabled|disabled` from 5.15 (New-and-Changed-NVUE-
/// Commands.md, 5.15). RoCE turned off is not RoCE mode, whatever its `mode` says.
bool roce_mode(Value qos, const Path& path) {
  const auto roce = object_member(qos, path, "roce");
  if (!roce) return false;
  const Path rp = child(path, "roce");
  bool on = true;
  if (const auto enable = jsonr::find(*roce, "enable"))
    on = jsonr::choice(*enable, child(rp, "enable"), {"on", "off"}) == 0 && on;
  if (const auto state = jsonr::find(*roce, "state"))
    on = jsonr::choice(*state, child(rp, "state"), {"enabled", "disabled"}) == 0 && on;
  if (!on) return false;
  if (const auto mode = jsonr::find(*roce, "mode"))
    jsonr::choice(*mode, child(rp, "mode"), {"lossless", "lossless-single-ipool"});
  return true;  // `nv set qos roce` alone is mode lossless
}

Qos read_qos(std::optional<Value> qos, const Path& path) {
  if (!qos) return nvue_defaults();
  jsonr::expect_object(*qos, path);
  const bool roce = roce_mode(*qos, path);
  Qos q = roce ? roce_defaults() : nvue_defaults();
  Path at, profile;
  if (const auto m = default_global(*qos, path, "mapping", at, profile)) read_mapping(*m, profile, q);
  if (!roce) {
    if (const auto pfc = default_global(*qos, path, "pfc", at, profile)) read_pfc(*pfc, profile, q);
    if (const auto eqm = default_global(*qos, path, "egress-queue-mapping", at, profile))
      if (const auto sp = jsonr::find(*eqm, "switch-priority"))
        each_index(*sp, child(profile, "switch-priority"), kPriorities - 1, [&](size_t p, Value v, const Path& a) {
          q.priority_to_tc.at(p) = static_cast<int>(jsonr::integer(jsonr::required(v, a, "traffic-class"),
                                                                   child(a, "traffic-class"), 0, kTrafficClasses - 1));
        });
    if (const auto sched = default_global(*qos, path, "egress-scheduler", at, profile))
      if (const auto tcs = jsonr::find(*sched, "traffic-class"))
        each_index(*tcs, child(profile, "traffic-class"), kTrafficClasses - 1,
                   [&](size_t tc, Value v, const Path& a) { read_scheduler(v, a, q.tc.at(tc)); });
    if (const auto cc = default_global(*qos, path, "congestion-control", at, profile))
      if (const auto tcs = jsonr::find(*cc, "traffic-class"))
        each_index(*tcs, child(profile, "traffic-class"), kTrafficClasses - 1,
                   [&](size_t tc, Value v, const Path& a) { read_congestion(v, a, tc, q); });
  }
  if (const auto wd = object_member(*qos, path, "pfc-watchdog")) {
    const Path wp = child(path, "pfc-watchdog");
    if (const auto v = jsonr::find(*wd, "polling-interval"))
      q.poll_ms = static_cast<int>(jsonr::integer(*v, child(wp, "polling-interval"), 1, 60000));
    if (const auto v = jsonr::find(*wd, "robustness"))
      q.robustness = static_cast<int>(jsonr::integer(*v, child(wp, "robustness"), 1, 1000));
  }
  for (size_t tc = 0; tc < kTrafficClasses; ++tc) {
    const bool used =
        std::find(q.priority_to_tc.begin(), q.priority_to_tc.end(), static_cast<int>(tc)) != q.priority_to_tc.end();
    q.tc.at(tc) = used ? TcSchedule{true, q.tc.at(tc).strict, q.tc.at(tc).bandwidth_pct} : TcSchedule{};
  }
  return q;
}

PortObserved port_of(const Qos& q) {
  PortObserved p;
  p.mtu = kDefaultMtu;
  p.trust = q.trust;
  p.dscp_to_priority = q.dscp;
  p.lossless = q.lossless;
  p.priority_to_tc = q.priority_to_tc;
  p.tc = q.tc;
  p.ecn.emplace();
  for (const auto& e : q.ecn)
    if (e) p.ecn->push_back(*e);
  p.watchdog = Watchdog{};
  return p;
}

/// The watchdog of a port with `qos pfc-watchdog`: it runs only where PFC is on.
Watchdog watchdog_of(const Qos& q) {
  Watchdog w;
  w.enabled = std::find(q.lossless.begin(), q.lossless.end(), true) != q.lossless.end();
  w.poll_interval_ms = q.poll_ms;
  w.detection_ms = q.robustness * q.poll_ms;
  w.restoration_ms = q.poll_ms;
  w.action = WatchdogAction::drop;
  return w;
}

/// interface.<key>: its MTU and watchdog over what `p` holds (the device-wide port, or what a range key
/// that names the port set). A port's `qos pfc-watchdog` object runs the watchdog unless its `state` is
/// `disable` (NVUE command reference, `nv set interface <id> qos pfc-watchdog state`, Cumulus Linux 5.6
/// and later; `nv set interface <id> qos pfc-watchdog` enables it, Quality-of-Service page).
void read_port(const Qos& q, PortObserved& p, Value v, const Path& path) {
  if (const auto link = object_member(v, path, "link"))
    if (const auto mtu = jsonr::find(*link, "mtu"))
      p.mtu = static_cast<int>(jsonr::integer(*mtu, child(child(path, "link"), "mtu"), 552, 9216));
  if (const auto qos = object_member(v, path, "qos")) {
    const Path qp = child(path, "qos");
    for (const auto& [key, value] : qos->members()) {
      // Per-port profiles (qos pfc profile, congestion-control profile, ...) override default-global;
      // fabricctl renders none and does not read them, so such a port's state is not known.
      const Path wp = child(qp, key);
      if (key != "pfc-watchdog") jsonr::fail(wp, "per-port QoS settings are not read by fabricctl");
      jsonr::expect_object(value, wp);
      jsonr::check_keys(value, wp, {"state"});
      const auto state = jsonr::find(value, "state");
      const bool on = !state || jsonr::choice(*state, child(wp, "state"), {"enable", "disable"}) == 0;
      p.watchdog = on ? watchdog_of(q) : Watchdog{};
    }
  }
}

/// The configuration tree of `root`: startup.yaml's list form or a bare tree; none when empty.
std::optional<Value> tree_of(Value root) {
  if (root.is_object()) return root;
  if (!root.is_array()) jsonr::fail(Path(), "not a JSON object or a list of header and set");
  std::optional<Value> tree;
  const Path top;
  size_t i = 0;
  for (const Value e : root.elements()) {
    const Path at = element(top, i++);
    jsonr::expect_object(e, at);
    jsonr::check_keys(e, at, {"header", "set"});
    if (const auto set = object_member(e, at, "set")) tree = set;
  }
  return tree;
}

}  // namespace

Expected<ConfigPorts> ports_from_config(std::string_view text) {
  // What collect keeps of it: the QoS tree and the interfaces, tens of kB for 64 ports.
  const jsonr::JsonLimits limits{size_t{32} << 20, 12};
  auto doc = jsonr::parse_json(text, limits);
  if (!doc) return unexpected("nv config show: " + doc.error());
  ConfigPorts out;
  std::optional<Value> interfaces;
  Qos q;
  try {
    const std::optional<Value> tree = tree_of(doc->root());
    const Path qos_path("qos");
    q = read_qos(tree ? jsonr::find(*tree, "qos") : std::nullopt, qos_path);
    const Path top;
    if (tree) interfaces = object_member(*tree, top, "interface");
  } catch (const jsonr::JsonError& e) {
    return unexpected("nv config show: " + e.message);
  }
  out.defaults = port_of(q);
  if (!interfaces) return out;
  const Path iface("interface");
  // A key may name several ports ("swp1-32", "swp1,swp3": ranges.h). Range keys are read first, so that
  // a port's own key wins; a port one of its keys cannot be read for is unreadable as a whole.
  std::map<std::string, PortObserved, NaturalLess> ports;
  size_t named = 0;
  for (const bool ranges : {true, false})
    for (const auto& [key, value] : interfaces->members()) {
      if (is_range_key(key) != ranges) continue;
      // Switch ports only: eth0, lo, bridges, bonds and SVIs are in the same tree.
      const auto type = value.is_object() ? jsonr::find(value, "type") : std::nullopt;
      const bool swp = type ? type->is_string() && type->string() == "swp" : key.rfind("swp", 0) == 0;
      if (!swp) continue;
      auto members = expand_key(key);
      if (!members) {
        out.unreadable.emplace(printable(key, 64), "nv config show: interface: " + members.error());
        continue;
      }
      named += members->size();
      if (named > 16 * kMaxRangeMembers) return unexpected("nv config show: interface: ranges name too many ports");
      for (const std::string& name : *members) {
        if (out.unreadable.count(name) != 0) continue;
        if (!valid_port_name(name)) {
          out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
          continue;
        }
        auto [it, fresh] = ports.try_emplace(name, out.defaults);
        if (fresh) it->second.name = name;
        try {
          const Path at = child(iface, key);
          jsonr::expect_object(value, at);
          read_port(q, it->second, value, at);
        } catch (const jsonr::JsonError& e) {
          out.unreadable.emplace(name, "nv config show: " + e.message);
          ports.erase(it);
        }
      }
    }
  for (auto& [name, port] : ports) out.ports.push_back(std::move(port));
  return out;
}

}  // namespace fabricctl::nvue
