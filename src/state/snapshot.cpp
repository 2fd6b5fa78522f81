#include "state/snapshot.h"

#include <arpa/inet.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "util/diag.h"
#include "util/file_io.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/parallel.h"
#include "util/spell.h"
#include "util/text.h"

namespace fabricctl {
namespace {

namespace fs = std::filesystem;
using json = jsonr::Value;             // reading: a view into a simdjson document, members in document order
using ojson = nlohmann::ordered_json;  // writing: keys in insertion order
using jsonr::bool_value;
using jsonr::child;
using jsonr::choice;
using jsonr::describe;
using jsonr::element;
using jsonr::expect_array;
using jsonr::expect_object;
using jsonr::fail;
using jsonr::find;
using jsonr::integer;
using jsonr::Path;
using jsonr::required;
using jsonr::string_value;

// ---------------------------------------------------------------------------------------------
// Limits (docs/snapshots.md lists them; keep the two in step). Name character sets: util/names.h.

constexpr size_t kMaxDepth = 16;                // nesting of objects and arrays
constexpr size_t kMaxStrayNamesShown = 5;       // file names listed in the stray-files warning
constexpr size_t kMaxTextLength = 256;          // "source", LLDP strings
constexpr size_t kMaxUnreadableReason = 1024;   // why a port could not be read, as its collector said
constexpr int64_t kMaxQueueBytes = 4294967295;  // ECN thresholds
constexpr int64_t kMaxSpeedMbps = 10'000'000;   // 10 Tb/s
constexpr int64_t kMaxWatchdogMs = 3'600'000;   // one hour
constexpr int kMaxNicParam = 0x7fffffff;        // DCQCN firmware parameters (the sysfs files take a signed int)

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

}  // namespace

std::optional<std::chrono::system_clock::time_point> parse_utc_time(std::string_view s) {
  if (s.size() < 20 || s.size() > 30) return std::nullopt;
  auto num = [&](size_t pos, size_t n) {
    int v = 0;
    for (size_t i = pos; i < pos + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return -1;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') return std::nullopt;
  const int year = num(0, 4), month = num(5, 2), day = num(8, 2);
  const int hour = num(11, 2), minute = num(14, 2), second = num(17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 60)
    return std::nullopt;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const int month_days = kDays[month - 1] + (month == 2 && leap(year) ? 1 : 0);
  if (day > month_days) return std::nullopt;
  std::string_view rest = s.substr(19);
  int64_t nanos = 0;
  if (rest.front() == '.') {
    rest.remove_prefix(1);
    size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits < 1 || digits > 9) return std::nullopt;
    for (size_t i = 0; i < 9; ++i) nanos = nanos * 10 + (i < digits ? rest[i] - '0' : 0);
    rest.remove_prefix(digits);
  }
  if (rest != "Z") return std::nullopt;
  using namespace std::chrono;
  const sys_days date = year_month_day{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                                       std::chrono::day{static_cast<unsigned>(day)}};
  return time_point_cast<system_clock::duration>(date + hours{hour} + minutes{minute} + seconds{second} +
                                                 nanoseconds{nanos});
}

namespace {

bool valid_gid(const std::string& s) {
  if (s.empty() || s.size() > 45) return false;
  unsigned char buf[16];
  return ::inet_pton(AF_INET6, s.c_str(), buf) == 1;
}

std::string too_large(size_t bytes) {
  return "snapshot is " + std::to_string(bytes) + " bytes, more than the limit of " +
         std::to_string(kMaxSnapshotBytes) + " bytes (16 MiB)";
}

// ---------------------------------------------------------------------------------------------
// Schema: every reader below throws jsonr::JsonError (through jsonr::fail and the typed
// accessors) with the first problem found; parse_snapshot turns it into the error.

int small_int(json v, const Path& path, int lo, int hi) { return static_cast<int>(integer(v, path, lo, hi)); }

std::array<bool, kPriorities> priority_set(json v, const Path& path) {
  expect_array(v, path, kPriorities, "priorities");
  std::array<bool, kPriorities> out{};
  size_t i = 0;
  for (const json e : v.elements()) {
    const auto p = static_cast<size_t>(integer(e, element(path, i), 0, kPriorities - 1));
    if (out[p]) fail(element(path, i), "priority " + quote(std::to_string(p)) + " is listed twice");
    out[p] = true;
    ++i;
  }
  return out;
}

template <size_t N>
std::array<int, N> int_table(json v, const Path& path, int hi, std::string_view what) {
  if (!v.is_array()) fail(path, "expected an array, got " + describe(v));
  if (v.size() != N) fail(path, "expected " + std::string(what) + ", got " + std::to_string(v.size()) + " entries");
  std::array<int, N> out{};
  size_t i = 0;
  for (const json e : v.elements()) {
    out[i] = small_int(e, element(path, i), 0, hi);
    ++i;
  }
  return out;
}

// Keys of each object, in the documented order; known_fields() picks them out in one pass.
template <size_t N>
using Keys = std::array<std::string_view, N>;
constexpr Keys<3> kEtsKeys = {"tc", "tsa", "bandwidth_pct"};
constexpr Keys<4> kEcnKeys = {"tc", "min_bytes", "max_bytes", "probability_pct"};
constexpr Keys<5> kWatchdogKeys = {"enabled", "poll_interval_ms", "detection_ms", "restoration_ms", "action"};
constexpr Keys<6> kDcqcnKeys = {"rp_enabled", "np_enabled", "cnp_dscp", "cnp_priority", "rp", "min_time_between_cnps"};
constexpr Keys<7> kRdmaKeys = {"device", "port", "state", "active_mtu", "gids", "cm_tos", "tos_override"};
constexpr Keys<2> kNcclKeys = {"traffic_class", "gid_index"};
constexpr Keys<3> kGidKeys = {"index", "type", "gid"};
constexpr Keys<2> kLldpKeys = {"system_name", "port_id"};
constexpr Keys<14> kPortKeys = {"mtu",         "speed_mbps",     "oper_status", "trust",   "dscp_to_priority",
                                "pfc_enabled", "priority_to_tc", "ets",         "ecn",     "pfc_watchdog",
                                "dcqcn",       "rdma",           "lldp",        "counters"};
constexpr Keys<8> kDeviceKeys = {"schema", "device", "platform", "collected_at",
                                 "source", "ports",  "nccl",     "unreadable"};

// A key this reader does not know: a newer collector's, or a typo. It is skipped, not an error, so
// that collectors can be rolled out before the readers (docs/snapshots.md#versions); every one is
// counted, and only the first kMaxUnknownKeysShown are worded (a hostile file may hold millions).
void note_unknown(UnknownKeys& unknown, const Path& object, std::string_view key,
                  std::span<const std::string_view> known) {
  if (unknown.count++ >= kMaxUnknownKeysShown) return;
  const std::string where = object.str();
  unknown.shown.push_back((where.empty() ? "" : where + ": ") + "unknown key " + quote(key) + " ignored" +
                          did_you_mean(key, std::vector<std::string_view>(known.begin(), known.end())));
}

// The members of `obj` named in `keys`, in the order of `keys` (nothing for a key it lacks), found in
// one pass; any other key is noted in `unknown` and skipped.
template <size_t N>
std::array<std::optional<json>, N> known_fields(json obj, const Path& path, const Keys<N>& keys, UnknownKeys& unknown) {
  std::array<std::optional<json>, N> out;
  for (const auto& [k, v] : obj.members()) {
    size_t i = 0;
    while (i < N && keys[i] != k) ++i;
    if (i < N) out[i] = v;
    else note_unknown(unknown, path, k, keys);
  }
  return out;
}

std::array<TcSchedule, kTrafficClasses> read_ets(json v, const Path& path, UnknownKeys& unknown) {
  expect_array(v, path, kTrafficClasses, "entries");
  std::array<TcSchedule, kTrafficClasses> out{};
  size_t i = 0;
  for (const json e : v.elements()) {
    const Path p = element(path, i++);
    expect_object(e, p);
    const auto [tc_field, tsa, bandwidth] = known_fields(e, p, kEtsKeys, unknown);
    const auto tc = static_cast<size_t>(small_int(required(tc_field, p, "tc"), child(p, "tc"), 0, kTrafficClasses - 1));
    if (out[tc].used) fail(child(p, "tc"), "traffic class " + quote(std::to_string(tc)) + " is listed twice");
    TcSchedule& s = out[tc];
    s.used = true;
    s.strict = choice(required(tsa, p, "tsa"), child(p, "tsa"), {"ets", "strict"}) == 1;
    const json bw = required(bandwidth, p, "bandwidth_pct");
    s.bandwidth_pct = small_int(bw, child(p, "bandwidth_pct"), 0, 100);
    if (s.strict && s.bandwidth_pct != 0)
      fail(child(p, "bandwidth_pct"), quote(bw.number_text()) + " must be 0 for a strict-priority class");
  }
  return out;
}

std::vector<EcnQueue> read_ecn(json v, const Path& path, UnknownKeys& unknown) {
  expect_array(v, path, kTrafficClasses, "entries");
  std::vector<EcnQueue> out;
  std::array<bool, kTrafficClasses> seen{};
  size_t i = 0;
  for (const json e : v.elements()) {
    const Path p = element(path, i++);
    expect_object(e, p);
    const auto [tc, min_bytes, max_bytes, probability] = known_fields(e, p, kEcnKeys, unknown);
    EcnQueue q;
    q.tc = small_int(required(tc, p, "tc"), child(p, "tc"), 0, kTrafficClasses - 1);
    if (seen[static_cast<size_t>(q.tc)])
      fail(child(p, "tc"), "traffic class " + quote(std::to_string(q.tc)) + " is listed twice");
    seen[static_cast<size_t>(q.tc)] = true;
    q.min_bytes =
        static_cast<uint64_t>(integer(required(min_bytes, p, "min_bytes"), child(p, "min_bytes"), 0, kMaxQueueBytes));
    q.max_bytes =
        static_cast<uint64_t>(integer(required(max_bytes, p, "max_bytes"), child(p, "max_bytes"), 0, kMaxQueueBytes));
    q.probability_pct = small_int(required(probability, p, "probability_pct"), child(p, "probability_pct"), 0, 100);
    out.push_back(q);
  }
  std::sort(out.begin(), out.end(), [](const EcnQueue& a, const EcnQueue& b) { return a.tc < b.tc; });
  return out;
}

Watchdog read_watchdog(json v, const Path& path, UnknownKeys& unknown) {
  expect_object(v, path);
  const auto [enabled, poll, detection, restoration, action] = known_fields(v, path, kWatchdogKeys, unknown);
  Watchdog w;
  w.enabled = bool_value(required(enabled, path, "enabled"), child(path, "enabled"));
  // An enabled watchdog must say how it works; a disabled one may leave the rest out.
  auto field = [&](const std::optional<json>& x, std::string_view key) {
    if (w.enabled) required(x, path, key);
    return x;
  };
  if (const auto x = field(poll, "poll_interval_ms"))
    w.poll_interval_ms = small_int(*x, child(path, "poll_interval_ms"), 1, 60000);
  if (const auto x = field(detection, "detection_ms"))
    w.detection_ms = small_int(*x, child(path, "detection_ms"), 1, kMaxWatchdogMs);
  if (const auto x = field(restoration, "restoration_ms"))
    w.restoration_ms = small_int(*x, child(path, "restoration_ms"), 0, kMaxWatchdogMs);
  if (const auto x = field(action, "action"))
    w.action = static_cast<WatchdogAction>(choice(*x, child(path, "action"), {"drop", "forward", "alert"}));
  return w;
}

DcqcnObserved read_dcqcn(json v, const Path& path, UnknownKeys& unknown) {
  expect_object(v, path);
  const auto [rp, np, cnp_dscp, cnp_priority, params, min_gap] = known_fields(v, path, kDcqcnKeys, unknown);
  DcqcnObserved d;
  d.rp_enabled = priority_set(required(rp, path, "rp_enabled"), child(path, "rp_enabled"));
  d.np_enabled = priority_set(required(np, path, "np_enabled"), child(path, "np_enabled"));
  if (cnp_dscp) d.cnp_dscp = small_int(*cnp_dscp, child(path, "cnp_dscp"), 0, kDscpValues - 1);
  if (cnp_priority) d.cnp_priority = small_int(*cnp_priority, child(path, "cnp_priority"), 0, kPriorities - 1);
  if (params) {
    // The names are the parameters a profile can set; another name (a newer firmware's) is skipped.
    const Path ppath = child(path, "rp");
    expect_object(*params, ppath);
    for (const auto& [name, value] : params->members()) {
      if (std::find(kDcqcnRpParams.begin(), kDcqcnRpParams.end(), name) == kDcqcnRpParams.end())
        note_unknown(unknown, ppath, name, kDcqcnRpParams);
      else d.rp.emplace(std::string(name), small_int(value, child(ppath, name), 0, kMaxNicParam));
    }
  }
  if (min_gap) d.min_time_between_cnps = small_int(*min_gap, child(path, "min_time_between_cnps"), 0, kMaxNicParam);
  return d;
}

std::vector<GidObserved> read_gids(json v, const Path& path, UnknownKeys& unknown) {
  expect_array(v, path, kMaxRdmaGids, "GIDs");
  std::vector<GidObserved> gids;
  size_t i = 0;
  for (const json e : v.elements()) {
    const Path p = element(path, i++);
    expect_object(e, p);
    const auto [index, type, gid] = known_fields(e, p, kGidKeys, unknown);
    GidObserved g;
    g.index = small_int(required(index, p, "index"), child(p, "index"), 0, 65535);
    // A linear search: at most kMaxRdmaGids entries, usually two.
    if (std::any_of(gids.begin(), gids.end(), [&](const GidObserved& o) { return o.index == g.index; }))
      fail(child(p, "index"), "GID index " + quote(std::to_string(g.index)) + " is listed twice");
    static constexpr std::array<std::string_view, 3> kTypes = {"RoCE v2", "RoCE v1", "IB"};
    g.type = std::string(kTypes[choice(required(type, p, "type"), child(p, "type"), kTypes)]);
    g.gid = string_value(required(gid, p, "gid"), child(p, "gid"));
    if (!valid_gid(g.gid)) fail(child(p, "gid"), quote(g.gid) + " is not a GID (IPv6 address notation)");
    gids.push_back(std::move(g));
  }
  std::stable_sort(gids.begin(), gids.end(),
                   [](const GidObserved& a, const GidObserved& b) { return a.index < b.index; });
  return gids;
}

RdmaObserved read_rdma(json v, const Path& path, UnknownKeys& unknown) {
  expect_object(v, path);
  const auto [device, port, state, active_mtu, gids, cm_tos, tos_override] = known_fields(v, path, kRdmaKeys, unknown);
  RdmaObserved r;
  const Path dpath = child(path, "device");
  r.device = string_value(required(device, path, "device"), dpath);
  if (!valid_rdma_device_name(r.device))
    fail(dpath, quote(r.device) + " is not a valid RDMA device name (" + std::string(kRdmaDeviceNameRule) + ")");
  r.port = small_int(required(port, path, "port"), child(path, "port"), 1, 255);
  if (state) r.active = choice(*state, child(path, "state"), {"active", "down"}) == 0;
  if (active_mtu) {
    const int m = small_int(*active_mtu, child(path, "active_mtu"), 256, 4096);
    if (m != 256 && m != 512 && m != 1024 && m != 2048 && m != 4096)
      fail(child(path, "active_mtu"),
           quote(active_mtu->number_text()) + " is not an RDMA MTU (256, 512, 1024, 2048, 4096)");
    r.active_mtu = m;
  }
  if (gids) r.gids = read_gids(*gids, child(path, "gids"), unknown);
  if (cm_tos) r.cm_tos = small_int(*cm_tos, child(path, "cm_tos"), 0, 255);
  if (tos_override) r.tos_override = small_int(*tos_override, child(path, "tos_override"), kNoTosOverride, 255);
  return r;
}

NcclObserved read_nccl(json v, const Path& path, UnknownKeys& unknown) {
  expect_object(v, path);
  const auto [traffic_class, gid_index] = known_fields(v, path, kNcclKeys, unknown);
  NcclObserved n;
  if (traffic_class) n.traffic_class = small_int(*traffic_class, child(path, "traffic_class"), 0, 255);
  if (gid_index) n.gid_index = small_int(*gid_index, child(path, "gid_index"), 0, 255);
  return n;
}

LldpNeighbor read_lldp(json v, const Path& path, UnknownKeys& unknown) {
  expect_object(v, path);
  const auto [system_name, port_id] = known_fields(v, path, kLldpKeys, unknown);
  LldpNeighbor n;
  auto text = [&](const std::optional<json>& x, std::string_view key, std::string& out) {
    if (!x) return;
    const Path p = child(path, key);
    out = string_value(*x, p);
    if (!valid_text(out, 255)) fail(p, quote(out) + " is not 1-255 characters without control characters");
  };
  text(system_name, "system_name", n.system_name);
  text(port_id, "port_id", n.port_id);
  return n;
}

std::map<std::string, uint64_t> read_counters(json v, const Path& path) {
  expect_object(v, path);
  if (const size_t n = v.size(); n > kMaxPortCounters)
    fail(path, std::to_string(n) + " counters are more than the limit of " + std::to_string(kMaxPortCounters));
  auto counter = [&](std::string_view name, json value) {
    if (!valid_counter_name(name))
      fail(path, "invalid counter name " + quote(name) + " (" + std::string(kCounterNameRule) + ")");
    return jsonr::unsigned_integer(value, child(path, name));
  };
  std::map<std::string, uint64_t> out;
  try {
    // The writer puts counters in sorted order, so the hint makes each insertion O(1).
    for (const auto& [name, value] : v.members()) out.emplace_hint(out.end(), name, counter(name, value));
  } catch (const jsonr::JsonError&) {
    // Of several bad counters, report the first in sorted order, as when objects were std::maps.
    std::vector<jsonr::Member> sorted(v.members().begin(), v.members().end());
    std::sort(sorted.begin(), sorted.end(),
              [](const jsonr::Member& a, const jsonr::Member& b) { return a.key < b.key; });
    for (const auto& [name, value] : sorted) counter(name, value);
    throw;  // not reached: the loop above fails on the same counter or an earlier one
  }
  return out;
}

PortObserved read_port(std::string_view name, json v, const Path& path, UnknownKeys& unknown) {
  expect_object(v, path);
  const auto [mtu, speed, oper_status, trust, dscp_to_priority, pfc_enabled, priority_to_tc, ets, ecn, watchdog, dcqcn,
              rdma, lldp, counters] = known_fields(v, path, kPortKeys, unknown);
  PortObserved p;
  p.name = name;
  if (mtu) p.mtu = small_int(*mtu, child(path, "mtu"), 1, 65535);
  if (speed) p.speed_mbps = static_cast<int>(integer(*speed, child(path, "speed_mbps"), 1, kMaxSpeedMbps));
  if (oper_status) p.oper_up = choice(*oper_status, child(path, "oper_status"), {"up", "down"}) == 0;
  if (trust) p.trust = choice(*trust, child(path, "trust"), {"dscp", "pcp"}) == 0 ? Trust::dscp : Trust::pcp;
  if (dscp_to_priority)
    p.dscp_to_priority = int_table<kDscpValues>(*dscp_to_priority, child(path, "dscp_to_priority"), kPriorities - 1,
                                                "64 priorities, one per DSCP 0-63");
  if (pfc_enabled) p.lossless = priority_set(*pfc_enabled, child(path, "pfc_enabled"));
  if (priority_to_tc)
    p.priority_to_tc = int_table<kPriorities>(*priority_to_tc, child(path, "priority_to_tc"), kTrafficClasses - 1,
                                              "8 traffic classes, one per priority 0-7");
  if (ets) p.tc = read_ets(*ets, child(path, "ets"), unknown);
  if (ecn) p.ecn = read_ecn(*ecn, child(path, "ecn"), unknown);
  if (watchdog) p.watchdog = read_watchdog(*watchdog, child(path, "pfc_watchdog"), unknown);
  if (dcqcn) p.dcqcn = read_dcqcn(*dcqcn, child(path, "dcqcn"), unknown);
  if (rdma) p.rdma = read_rdma(*rdma, child(path, "rdma"), unknown);
  if (lldp) p.lldp = read_lldp(*lldp, child(path, "lldp"), unknown);
  if (counters) p.counters = read_counters(*counters, child(path, "counters"));
  return p;
}

DeviceObserved read_device(json root, UnknownKeys& unknown) {
  if (!root.is_object()) fail("", "expected a JSON object at the top level, got " + describe(root));
  // The schema first: a file of another version must not fail on keys this version does not know.
  const auto schema = find(root, "schema");
  if (!schema) fail("", "missing required key \"schema\"; is this a fabricctl snapshot?");
  const std::string_view s = string_value(*schema, "schema");
  if (s != kSnapshotSchema) {
    if (s.starts_with("fabricctl.snapshot/"))
      fail("schema", "unsupported snapshot schema " + quote(s) + "; this fabricctl reads " + quote(kSnapshotSchema));
    fail("schema", quote(s) + " is not a fabricctl snapshot schema; expected " + quote(kSnapshotSchema));
  }
  const auto [schema_field, device, platform, collected_at, source, ports_field, nccl, unreadable] =
      known_fields(root, "", kDeviceKeys, unknown);

  DeviceObserved d;
  d.name = string_value(required(device, "", "device"), "device");
  if (!valid_device_name(d.name))
    fail("device", quote(d.name) + " is not a valid device name (" + std::string(kDeviceNameRule) + ")");
  if (platform) d.platform = kPlatformNames[choice(*platform, "platform", platform_names())].id;
  if (collected_at) {
    d.collected_at = string_value(*collected_at, "collected_at");
    if (!parse_utc_time(d.collected_at))
      fail("collected_at", quote(d.collected_at) + " is not an RFC 3339 UTC time such as \"2026-11-30T06:00:00Z\"");
  }
  if (source) {
    d.source = string_value(*source, "source");
    if (!valid_text(d.source, kMaxTextLength))
      fail("source", quote(d.source) + " is not 1-256 characters without control characters");
  }

  if (nccl) d.nccl = read_nccl(*nccl, "nccl", unknown);
  // Ports the collector could not read, with why (its words): kept as written, shown, never compared.
  if (unreadable) {
    expect_object(*unreadable, "unreadable");
    if (unreadable->size() > kMaxSnapshotPorts)
      fail("unreadable", std::to_string(unreadable->size()) + " ports are more than the limit of " +
                             std::to_string(kMaxSnapshotPorts));
    for (const auto& [name, why] : unreadable->members()) {
      const std::string reason(string_value(why, child("unreadable", name)));
      if (!valid_text(name, kMaxTextLength) || !valid_text(reason, kMaxUnreadableReason))
        fail(child("unreadable", name), quote(reason) + " is not a port name and reason of 1-" +
                                            std::to_string(kMaxUnreadableReason) +
                                            " characters without control characters");
      d.unreadable_ports.emplace(std::string(name), reason);
    }
  }
  const json ports = required(ports_field, "", "ports");
  expect_object(ports, "ports");
  if (ports.size() > kMaxSnapshotPorts)
    fail("ports",
         std::to_string(ports.size()) + " ports are more than the limit of " + std::to_string(kMaxSnapshotPorts));
  // One bad port (a name outside the character set, a bad value) makes that port unreadable, not the
  // device: the rest of its ports are still compared.
  // Each port is judged on its own, so the order of the members does not matter: ports are sorted
  // below (natural_less is a total order) and the unreadable ones are keyed by name.
  d.ports.reserve(ports.size());
  for (const auto& [name, value] : ports.members()) {
    if (!valid_port_name(name)) {
      d.unreadable_ports.emplace(quote(name),
                                 "ports: invalid port name " + quote(name) + " (" + std::string(kPortNameRule) + ")");
      continue;
    }
    try {
      d.ports.push_back(read_port(name, value, child("ports", name), unknown));
    } catch (const jsonr::JsonError& e) {
      d.unreadable_ports.emplace(name, e.message);
    }
  }
  // Files written by fabricctl have their ports in this order already; a port is ~600 bytes to move.
  auto by_name = [](const PortObserved& a, const PortObserved& b) { return natural_less(a.name, b.name); };
  if (!std::is_sorted(d.ports.begin(), d.ports.end(), by_name)) std::sort(d.ports.begin(), d.ports.end(), by_name);
  return d;
}

// ---------------------------------------------------------------------------------------------
// Writing.

ojson priority_list(const std::array<bool, kPriorities>& set) {
  ojson out = ojson::array();
  for (size_t p = 0; p < set.size(); ++p)
    if (set[p]) out.push_back(p);
  return out;
}

ojson port_json(const PortObserved& p) {
  ojson j = ojson::object();
  if (p.mtu) j["mtu"] = *p.mtu;
  if (p.speed_mbps) j["speed_mbps"] = *p.speed_mbps;
  if (p.oper_up) j["oper_status"] = *p.oper_up ? "up" : "down";
  if (p.trust) j["trust"] = to_string(*p.trust);
  if (p.dscp_to_priority) j["dscp_to_priority"] = *p.dscp_to_priority;
  if (p.lossless) j["pfc_enabled"] = priority_list(*p.lossless);
  if (p.priority_to_tc) j["priority_to_tc"] = *p.priority_to_tc;
  if (p.tc) {
    ojson ets = ojson::array();
    for (size_t tc = 0; tc < p.tc->size(); ++tc) {
      const TcSchedule& s = (*p.tc)[tc];
      if (!s.used) continue;
      ojson e = ojson::object();
      e["tc"] = tc;
      e["tsa"] = s.strict ? "strict" : "ets";
      e["bandwidth_pct"] = s.bandwidth_pct;
      ets.push_back(std::move(e));
    }
    j["ets"] = std::move(ets);
  }
  if (p.ecn) {
    std::vector<EcnQueue> queues = *p.ecn;
    std::stable_sort(queues.begin(), queues.end(), [](const EcnQueue& a, const EcnQueue& b) { return a.tc < b.tc; });
    ojson ecn = ojson::array();
    for (const EcnQueue& q : queues) {
      ojson e = ojson::object();
      e["tc"] = q.tc;
      e["min_bytes"] = q.min_bytes;
      e["max_bytes"] = q.max_bytes;
      e["probability_pct"] = q.probability_pct;
      ecn.push_back(std::move(e));
    }
    j["ecn"] = std::move(ecn);
  }
  if (p.watchdog) {
    const Watchdog& w = *p.watchdog;
    ojson e = ojson::object();
    e["enabled"] = w.enabled;
    e["poll_interval_ms"] = w.poll_interval_ms;
    e["detection_ms"] = w.detection_ms;
    e["restoration_ms"] = w.restoration_ms;
    e["action"] = to_string(w.action);
    j["pfc_watchdog"] = std::move(e);
  }
  if (p.dcqcn) {
    ojson e = ojson::object();
    e["rp_enabled"] = priority_list(p.dcqcn->rp_enabled);
    e["np_enabled"] = priority_list(p.dcqcn->np_enabled);
    if (p.dcqcn->cnp_dscp) e["cnp_dscp"] = *p.dcqcn->cnp_dscp;
    if (p.dcqcn->cnp_priority) e["cnp_priority"] = *p.dcqcn->cnp_priority;
    if (!p.dcqcn->rp.empty()) {
      ojson rp = ojson::object();
      for (std::string_view name : kDcqcnRpParams)  // in mlx5's order, as apply.sh writes them
        if (const auto it = p.dcqcn->rp.find(name); it != p.dcqcn->rp.end()) rp[std::string(name)] = it->second;
      e["rp"] = std::move(rp);
    }
    if (p.dcqcn->min_time_between_cnps) e["min_time_between_cnps"] = *p.dcqcn->min_time_between_cnps;
    j["dcqcn"] = std::move(e);
  }
  if (p.rdma) {
    const RdmaObserved& r = *p.rdma;
    ojson e = ojson::object();
    e["device"] = r.device;
    e["port"] = r.port;
    if (r.active) e["state"] = *r.active ? "active" : "down";
    if (r.active_mtu) e["active_mtu"] = *r.active_mtu;
    if (!r.gids.empty()) {
      std::vector<GidObserved> gids = r.gids;
      std::stable_sort(gids.begin(), gids.end(),
                       [](const GidObserved& a, const GidObserved& b) { return a.index < b.index; });
      ojson list = ojson::array();
      for (const GidObserved& g : gids) {
        ojson ge = ojson::object();
        ge["index"] = g.index;
        ge["type"] = g.type;
        ge["gid"] = g.gid;
        list.push_back(std::move(ge));
      }
      e["gids"] = std::move(list);
    }
    if (r.cm_tos) e["cm_tos"] = *r.cm_tos;
    if (r.tos_override) e["tos_override"] = *r.tos_override;
    j["rdma"] = std::move(e);
  }
  if (p.lldp) {
    ojson e = ojson::object();
    if (!p.lldp->system_name.empty()) e["system_name"] = p.lldp->system_name;
    if (!p.lldp->port_id.empty()) e["port_id"] = p.lldp->port_id;
    j["lldp"] = std::move(e);
  }
  if (!p.counters.empty()) {
    ojson e = ojson::object();
    for (const auto& [name, value] : p.counters) e[name] = value;
    j["counters"] = std::move(e);
  }
  return j;
}

std::string scalar_text(const ojson& v) { return v.dump(-1, ' ', true, ojson::error_handler_t::replace); }

// Objects one member per line, indented by 2; arrays of plain values, and objects of plain values
// inside arrays, on one line. ASCII only (ensure_ascii), so the bytes never depend on a locale.
void emit(const ojson& v, size_t indent, bool in_array, std::string& out) {
  auto plain = [](const ojson& c) {
    return std::all_of(c.begin(), c.end(), [](const ojson& e) { return !e.is_structured(); });
  };
  if (v.is_object() || v.is_array()) {
    const bool object = v.is_object();
    if (v.empty()) {
      out += object ? "{}" : "[]";
      return;
    }
    const bool one_line = plain(v) && (!object || in_array);
    out += object ? '{' : '[';
    size_t i = 0;
    for (auto it = v.begin(); it != v.end(); ++it, ++i) {
      if (one_line) {
        if (i) out += ", ";
      } else {
        out += i ? ",\n" : "\n";
        out.append(indent + 2, ' ');
      }
      if (object) out += scalar_text(ojson(it.key())) + ": ";
      emit(*it, indent + 2, !object, out);
    }
    if (!one_line) {
      out += '\n';
      out.append(indent, ' ');
    }
    out += object ? '}' : ']';
    return;
  }
  out += scalar_text(v);
}

// ---------------------------------------------------------------------------------------------
// Files.

std::string show(const fs::path& p) { return display_path(p); }

// Reads one snapshot file: a regular file, not through a link, at most kMaxSnapshotBytes.
Expected<std::string> read_snapshot_file(const fs::path& path) {
  auto text = read_regular_file(path, {kMaxSnapshotBytes, "snapshot file"});
  if (text) return std::move(*text);
  const FileError& e = text.error();
  if (e.kind == FileError::Kind::too_large) return unexpected(show(path) + ": " + too_large(e.size));
  return unexpected(e.message);
}

// `text` is write_snapshot(d): it must read back as `d` was.
std::string check_writable(const std::string& key, const DeviceObserved& d, const std::string& text) {
  if (!valid_device_name(key))
    return "cannot write a snapshot for device " + quote(key) + ": not a valid device name (" +
           std::string(kDeviceNameRule) + ")";
  if (d.name != key) return "device " + quote(key) + " holds the state of a device named " + quote(d.name);
  std::unordered_set<std::string> names;
  for (const PortObserved& p : d.ports)
    if (!names.insert(p.name).second) return "device " + quote(key) + ": port " + quote(p.name) + " appears twice";
  auto parsed = parse_snapshot(text);
  if (!parsed) return "device " + quote(key) + ": the snapshot would not read back: " + parsed.error();
  for (const auto& [port, why] : parsed->unreadable_ports)
    if (!d.unreadable_ports.contains(port))
      return "device " + quote(key) + ": the snapshot would not read back: " + why;
  return "";
}

// One warning for all snapshot files of devices the inventory does not know, however many: a
// directory shared with another fabric can hold thousands, and thousands of lines would bury the
// report. Names in natural order; the first kMaxStrayNamesShown of them are shown.
std::string stray_files_warning(const fs::path& dir, std::vector<std::string> names) {
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  if (names.size() == 1) return "ignoring " + show(dir / names[0]) + ": device not in the inventory";
  std::string out = "ignoring " + std::to_string(names.size()) + " snapshot files in " + show(dir) +
                    " of devices not in the inventory: ";
  const size_t shown = std::min(names.size(), kMaxStrayNamesShown);
  for (size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + display_path(names[i]);
  if (shown < names.size()) out += ", ... (" + std::to_string(names.size() - shown) + " more)";
  return out;
}

// The unknown keys of every file read, as warnings: the first kMaxUnknownKeysShown of the run in
// device order, each with its file, then one line for the rest, however many (100,000 stray keys are
// 21 lines, not 100,000). Keys of a file that did not read are not reported: its error is.
void add_unknown_key_warnings(const fs::path& dir, const std::vector<std::string>& devices,
                              const std::vector<Expected<DeviceObserved>>& parsed,
                              const std::vector<UnknownKeys>& unknown, std::vector<std::string>& warnings) {
  size_t total = 0, files = 0, shown = 0;
  for (size_t i = 0; i < devices.size(); ++i) {
    if (!parsed[i] || unknown[i].count == 0) continue;
    total += unknown[i].count;
    ++files;
    for (const std::string& message : unknown[i].shown) {
      if (shown == kMaxUnknownKeysShown) break;
      warnings.push_back(show(dir / (devices[i] + ".json")) + ": " + message);
      ++shown;
    }
  }
  if (total > shown)
    warnings.push_back("ignored " + std::to_string(total - shown) + " more unknown keys (" + std::to_string(total) +
                       " in " + std::to_string(files) + (files == 1 ? " snapshot file" : " snapshot files") + ")");
}

}  // namespace

std::string write_snapshot(const DeviceObserved& d) {
  ojson j = ojson::object();
  j["schema"] = kSnapshotSchema;
  j["device"] = d.name;
  if (d.platform) j["platform"] = to_string(*d.platform);
  if (!d.collected_at.empty()) j["collected_at"] = d.collected_at;
  if (!d.source.empty()) j["source"] = d.source;
  std::vector<const PortObserved*> ports;
  for (const PortObserved& p : d.ports) ports.push_back(&p);
  std::stable_sort(ports.begin(), ports.end(),
                   [](const PortObserved* a, const PortObserved* b) { return natural_less(a->name, b->name); });
  ojson pj = ojson::object();
  for (const PortObserved* p : ports) pj[p->name] = port_json(*p);
  j["ports"] = std::move(pj);
  if (d.nccl) {
    ojson n = ojson::object();
    if (d.nccl->traffic_class) n["traffic_class"] = *d.nccl->traffic_class;
    if (d.nccl->gid_index) n["gid_index"] = *d.nccl->gid_index;
    j["nccl"] = std::move(n);
  }
  if (!d.unreadable_ports.empty()) {
    ojson u = ojson::object();
    for (const auto& [name, why] : d.unreadable_ports) u[name] = why;
    j["unreadable"] = std::move(u);
  }
  std::string out;
  emit(j, 0, false, out);
  out += '\n';
  return out;
}

Expected<DeviceObserved> parse_snapshot(std::string_view text, UnknownKeys* unknown) {
  if (text.size() > kMaxSnapshotBytes) return unexpected(too_large(text.size()));
  UnknownKeys found;
  auto d = jsonr::read_json(text, {kMaxSnapshotBytes, kMaxDepth}, [&](json root) { return read_device(root, found); });
  if (d && unknown) *unknown = std::move(found);
  return d;
}

SnapshotSet read_snapshot_dir(const fs::path& dir, const std::vector<std::string>& expected_devices,
                              const std::vector<std::string>& inventory_devices) {
  SnapshotSet out;
  FabricObserved& obs = out.observed;
  const std::unordered_set<std::string> expected(expected_devices.begin(), expected_devices.end());
  const std::unordered_set<std::string> known(inventory_devices.begin(), inventory_devices.end());
  auto unreadable = [&](const std::string& device, std::string why) {
    obs.record_failure({device, FailureStage::snapshot, std::move(why)});
  };
  // Reading and parsing are independent per device: spread them over the cores, each worker taking the
  // next device, then merge in the expected order so that the result does not depend on scheduling.
  std::vector<std::string> devices;
  {
    std::unordered_set<std::string> seen;
    for (const std::string& d : expected_devices)
      if (seen.insert(d).second) devices.push_back(d);
  }
  std::vector<Expected<DeviceObserved>> parsed(devices.size(), unexpected(std::string()));
  std::vector<UnknownKeys> unknown(devices.size());
  auto read_one = [&](size_t i) {
    const std::string& device = devices[i];
    if (!valid_device_name(device)) {
      parsed[i] = unexpected("invalid device name " + quote(device) + "; no snapshot file can hold it");
      return;
    }
    const fs::path path = dir / (device + ".json");
    auto text = read_snapshot_file(path);
    if (!text) {
      parsed[i] = unexpected(text.error());
      return;
    }
    auto dev = parse_snapshot(*text, &unknown[i]);
    if (!dev) {
      parsed[i] = unexpected(show(path) + ": " + dev.error());
    } else if (dev->name != device) {
      parsed[i] = unexpected(show(path) + ": device " + quote(dev->name) + " does not match the file name; expected " +
                             quote(device));
    } else {
      parsed[i] = std::move(dev);
    }
  };
  // At most 8 workers: beyond that the disk, not the parser, is the limit. Small sets stay on one thread.
  parallel_for(devices.size(), worker_count(devices.size(), 8, 64), [&](size_t, size_t i) { read_one(i); });
  for (size_t i = 0; i < devices.size(); ++i) {
    if (parsed[i]) obs.devices.emplace(devices[i], std::move(*parsed[i]));
    else unreadable(devices[i], parsed[i].error());
  }
  add_unknown_key_warnings(dir, devices, parsed, unknown, out.warnings);

  // Snapshot files of devices the inventory does not know: probably stale or misnamed files.
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    out.warnings.push_back("cannot list " + show(dir) + ": " + errno_text(ec.value()));
    return out;
  }
  std::vector<std::string> extra;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const std::string name = it->path().filename().string();
    if (name.starts_with('.') || !name.ends_with(".json")) continue;
    const std::string stem = name.substr(0, name.size() - 5);
    if (!expected.count(stem) && !known.count(stem)) extra.push_back(name);
  }
  if (ec) out.warnings.push_back("cannot list " + show(dir) + ": " + errno_text(ec.value()));
  if (!extra.empty()) out.warnings.push_back(stray_files_warning(dir, std::move(extra)));
  return out;
}

std::string snapshot_problem(const std::string& name, const DeviceObserved& device) {
  return check_writable(name, device, write_snapshot(device));
}

Expected<void> write_snapshot_dir(const FabricObserved& observed, const fs::path& dir, bool sync) {
  // Every snapshot is written to text and read back first, on all cores: invalid state writes nothing.
  std::vector<std::pair<const std::string*, const DeviceObserved*>> devices;
  devices.reserve(observed.devices.size());
  for (const auto& [name, device] : observed.devices) devices.emplace_back(&name, &device);
  std::vector<std::string> texts(devices.size()), errors(devices.size());
  const size_t workers = worker_count(devices.size(), 8, 64);
  parallel_for(devices.size(), workers, [&](size_t, size_t i) {
    texts[i] = write_snapshot(*devices[i].second);
    errors[i] = check_writable(*devices[i].first, *devices[i].second, texts[i]);
  });
  for (std::string& err : errors)
    if (!err.empty()) return unexpected(std::move(err));  // the first in device order
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return unexpected("cannot create " + show(dir) + ": " + errno_text(ec.value()));
  // Each file is replaced atomically (rename); one syncfs at the end makes them all durable instead
  // of an fsync per file (a fabric has tens of thousands of devices), and each file's writeback
  // starts when it is written, so that the syncfs finds little left.
  std::vector<std::string> write_errors(devices.size());
  parallel_for(devices.size(), workers, [&](size_t, size_t i) {
    if (auto written = write_file_atomic(dir / (*devices[i].first + ".json"), texts[i],
                                         {.mode = 0644, .sync = false, .start_writeback = true});
        !written)
      write_errors[i] = written.error();
    std::string().swap(texts[i]);
  });
  for (std::string& err : write_errors)
    if (!err.empty()) return unexpected(std::move(err));
  if (!sync) return {};
  return sync_filesystem(dir);
}

}  // namespace fabricctl
