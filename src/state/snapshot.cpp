#include "state/snapshot.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <set>
#include <system_error>
#include <unordered_set>
#include <utility>

#include "util/diag.h"
#include "util/spell.h"
#include "util/text.h"

namespace fabricctl {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;          // reading: keys sorted, O(log n) lookup
using ojson = nlohmann::ordered_json;  // writing: keys in insertion order

// ---------------------------------------------------------------------------------------------
// Limits and character sets (docs/snapshots.md lists them; keep the two in step).

constexpr size_t kMaxDepth = 16;              // nesting of objects and arrays
constexpr size_t kMaxTextLength = 256;        // "source", LLDP strings
constexpr int64_t kMaxQueueBytes = 4294967295;  // ECN thresholds
constexpr int64_t kMaxSpeedMbps = 10'000'000;   // 10 Tb/s
constexpr int64_t kMaxWatchdogMs = 3'600'000;   // one hour
constexpr size_t kMaxJsonDetail = 200;         // characters of the JSON parser's own message kept

constexpr std::string_view kPortNameRule = "1-64 characters: letters, digits, / . _ : -";
constexpr std::string_view kDeviceNameRule = "1-64 characters: letters, digits, . _ -; starting with a letter or digit";
constexpr std::string_view kCounterNameRule = "1-64 characters: lowercase letters, digits, _";
constexpr std::string_view kRdmaDeviceRule = "1-64 characters: letters, digits, . _ -";

bool alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

template <typename Pred>
bool all_chars(std::string_view s, Pred pred) {
  return std::all_of(s.begin(), s.end(), pred);
}

bool valid_port_name(std::string_view s) {
  return !s.empty() && s.size() <= kMaxNameLength && all_chars(s, [](char c) {
           return alnum(c) || c == '/' || c == '.' || c == '_' || c == ':' || c == '-';
         });
}

// Device names become file names: no '/', no ':', no leading '.' or '-' (so never "." or "..").
bool valid_device_name(std::string_view s) {
  return !s.empty() && s.size() <= kMaxNameLength && alnum(s[0]) &&
         all_chars(s, [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

bool valid_counter_name(std::string_view s) {
  return !s.empty() && s.size() <= kMaxNameLength &&
         all_chars(s, [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

bool valid_rdma_device(std::string_view s) {
  return !s.empty() && s.size() <= kMaxNameLength &&
         all_chars(s, [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

// Free text (already valid UTF-8: the JSON parser checks): 1..max bytes, no C0 or C1 control
// characters and no DEL, so it can never drive a terminal.
bool valid_text(std::string_view s, size_t max) {
  if (s.empty() || s.size() > max) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < s.size()) {
      const auto n = static_cast<unsigned char>(s[i + 1]);
      if (n >= 0x80 && n <= 0x9f) return false;  // U+0080..U+009F
    }
  }
  return true;
}

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// RFC 3339 in UTC: YYYY-MM-DDTHH:MM:SS[.fraction]Z, with a real calendar date.
bool valid_time(std::string_view s) {
  if (s.size() < 20 || s.size() > 30) return false;
  auto num = [&](size_t pos, size_t n) {
    int v = 0;
    for (size_t i = pos; i < pos + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return -1;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  if (s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') return false;
  const int year = num(0, 4), month = num(5, 2), day = num(8, 2);
  const int hour = num(11, 2), minute = num(14, 2), second = num(17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 ||
      second < 0 || second > 60)
    return false;
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const int month_days = kDays[month - 1] + (month == 2 && leap(year) ? 1 : 0);
  if (day > month_days) return false;
  std::string_view rest = s.substr(19);
  if (rest.front() == '.') {
    rest.remove_prefix(1);
    size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits < 1 || digits > 9) return false;
    rest.remove_prefix(digits);
  }
  return rest == "Z";
}

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
// JSON paths: ports.Ethernet0.ets[1].tc. A key outside the port-name character set is quoted, so a
// hostile key can never inject text into a message.

std::string segment(std::string_view key) { return valid_port_name(key) ? std::string(key) : quote(key); }

std::string child(const std::string& path, std::string_view key) {
  return path.empty() ? segment(key) : path + "." + segment(key);
}

std::string index(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string with_path(const std::string& path, const std::string& what) {
  return path.empty() ? what : path + ": " + what;
}

// ---------------------------------------------------------------------------------------------
// Parsing: a SAX handler that builds the DOM, rejects duplicate keys and deep nesting, and keeps
// the parser's position for syntax errors.

std::string printable(std::string_view s) {
  std::string out;
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u >= 0x7f) ? '?' : c;
  }
  return out;
}

class DomBuilder final : public nlohmann::json_sax<json> {
 public:
  explicit DomBuilder(std::string_view text) : text_(text) {}

  json root;
  std::string error;  // set when parsing stopped early

  bool null() override { return place(json(nullptr)) != nullptr; }
  bool boolean(bool v) override { return place(json(v)) != nullptr; }
  bool number_integer(number_integer_t v) override { return place(json(v)) != nullptr; }
  bool number_unsigned(number_unsigned_t v) override { return place(json(v)) != nullptr; }
  bool number_float(number_float_t v, const string_t&) override { return place(json(v)) != nullptr; }
  bool string(string_t& v) override { return place(json(std::move(v))) != nullptr; }
  bool binary(binary_t&) override { return false; }  // never produced by the JSON parser
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& k) override {
    Frame& f = stack_.back();
    if (f.node->contains(k)) {
      error = child(path(), k) + ": duplicate key";
      return false;
    }
    f.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
    // position counts the bytes read, the bad one included.
    const size_t offset = std::min(position == 0 ? 0 : position - 1, text_.size());
    size_t line = 1, line_start = 0;
    for (size_t i = 0; i < offset; ++i)
      if (text_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    // "[json.exception.parse_error.101] parse error at line 1, column 8: syntax error while parsing
    // object key - unexpected '}'; expected string literal": keep the part after the location, drop
    // the echo of the input ("; last read: '...'"), which can be long and hostile.
    std::string detail = ex.what();
    if (size_t p = detail.find("column "); p != std::string::npos)
      if (size_t q = detail.find(": ", p); q != std::string::npos) detail = detail.substr(q + 2);
    if (size_t lr = detail.find("; last read: "); lr != std::string::npos) {
      const size_t exp = detail.rfind("; expected ");
      detail = detail.substr(0, lr) + (exp != std::string::npos && exp > lr ? detail.substr(exp) : "");
    }
    if (detail.size() > kMaxJsonDetail) detail = detail.substr(0, kMaxJsonDetail) + "...";
    error = "invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1) +
            " (byte offset " + std::to_string(offset) + "): " + printable(detail);
    return false;
  }

 private:
  struct Frame {
    json* node;
    std::string key;  // current key, when node is an object
  };

  // The path of the value about to be placed into the top container.
  std::string next_path() const {
    std::string p = path();
    if (stack_.empty()) return p;
    const Frame& f = stack_.back();
    return f.node->is_object() ? child(p, f.key) : index(p, f.node->size());
  }

  // The path of the top container.
  std::string path() const {
    std::string p;
    for (size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      p = f.node->is_object() ? child(p, f.key) : index(p, f.node->size() - 1);
    }
    return p;
  }

  json* place(json v) {
    if (stack_.empty()) {
      root = std::move(v);
      return &root;
    }
    Frame& f = stack_.back();
    if (f.node->is_object()) {
      json& slot = (*f.node)[f.key];
      slot = std::move(v);
      return &slot;
    }
    f.node->push_back(std::move(v));
    return &f.node->back();
  }

  bool open(json v) {
    if (stack_.size() >= kMaxDepth) {
      error = with_path(next_path(), "nesting deeper than " + std::to_string(kMaxDepth) + " levels");
      return false;
    }
    json* node = place(std::move(v));
    stack_.push_back({node, {}});
    return true;
  }

  bool close() {
    stack_.pop_back();
    return true;
  }

  std::string_view text_;
  std::vector<Frame> stack_;
};

// ---------------------------------------------------------------------------------------------
// Schema: every reader below throws Invalid with the first problem found.

struct Invalid {
  std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw Invalid{with_path(path, what)}; }

std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string " + quote(v.get_ref<const std::string&>());
    case json::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number " + quote(v.dump());
    default: return "a binary value";
  }
}

std::string num(int64_t v) { return std::to_string(v); }

const json* find(const json& obj, std::string_view key) {
  auto it = obj.find(std::string(key));
  return it == obj.end() ? nullptr : &*it;
}

const json& required(const json& obj, const std::string& path, std::string_view key) {
  const json* v = find(obj, key);
  if (!v) fail(path, "missing required key " + quote(key));
  return *v;
}

void expect_object(const json& v, const std::string& path) {
  if (!v.is_object()) fail(path, "expected an object, got " + describe(v));
}

void expect_array(const json& v, const std::string& path, size_t max, std::string_view what) {
  if (!v.is_array()) fail(path, "expected an array, got " + describe(v));
  if (v.size() > max)
    fail(path, std::to_string(v.size()) + " " + std::string(what) + " are more than the limit of " + std::to_string(max));
}

void check_keys(const json& obj, const std::string& path, const std::vector<std::string_view>& allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const std::string& k = it.key();
    if (std::find(allowed.begin(), allowed.end(), k) != allowed.end()) continue;
    std::string msg = "unknown key";
    if (std::string hint = closest_match(k, allowed); !hint.empty()) {
      msg += "; did you mean " + quote(hint) + "?";
    } else {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      msg += " (expected one of: " + join(names, ", ") + ")";
    }
    fail(child(path, k), msg);
  }
}

int64_t integer(const json& v, const std::string& path, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) fail(path, "expected an integer, got " + describe(v));
  bool ok = false;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    ok = u <= static_cast<uint64_t>(hi) && (lo <= 0 || u >= static_cast<uint64_t>(lo));
  } else {
    const int64_t i = v.get<int64_t>();
    ok = lo <= i && i <= hi;
  }
  if (!ok) fail(path, quote(v.dump()) + " is out of range " + num(lo) + "-" + num(hi));
  return v.is_number_unsigned() ? static_cast<int64_t>(v.get<uint64_t>()) : v.get<int64_t>();
}

int small_int(const json& v, const std::string& path, int lo, int hi) {
  return static_cast<int>(integer(v, path, lo, hi));
}

uint64_t counter_value(const json& v, const std::string& path) {
  if (!v.is_number_integer()) fail(path, "expected a non-negative integer, got " + describe(v));
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.get<int64_t>() < 0) fail(path, quote(v.dump()) + " is negative; counters are non-negative integers");
  return static_cast<uint64_t>(v.get<int64_t>());
}

const std::string& string_value(const json& v, const std::string& path) {
  if (!v.is_string()) fail(path, "expected a string, got " + describe(v));
  return v.get_ref<const std::string&>();
}

bool bool_value(const json& v, const std::string& path) {
  if (!v.is_boolean()) fail(path, "expected true or false, got " + describe(v));
  return v.get<bool>();
}

// The index of the value among `choices`.
size_t choice(const json& v, const std::string& path, const std::vector<std::string_view>& choices) {
  const std::string& s = string_value(v, path);
  for (size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == s) return i;
  std::vector<std::string> names;
  for (std::string_view c : choices) names.push_back(quote(c));
  fail(path, quote(s) + " is not one of " + join(names, ", "));
}

std::array<bool, kPriorities> priority_set(const json& v, const std::string& path) {
  expect_array(v, path, kPriorities, "priorities");
  std::array<bool, kPriorities> out{};
  for (size_t i = 0; i < v.size(); ++i) {
    const auto p = static_cast<size_t>(integer(v[i], index(path, i), 0, kPriorities - 1));
    if (out[p]) fail(index(path, i), "priority " + quote(std::to_string(p)) + " is listed twice");
    out[p] = true;
  }
  return out;
}

template <size_t N>
std::array<int, N> int_table(const json& v, const std::string& path, int hi, std::string_view what) {
  if (!v.is_array()) fail(path, "expected an array, got " + describe(v));
  if (v.size() != N) fail(path, "expected " + std::string(what) + ", got " + std::to_string(v.size()) + " entries");
  std::array<int, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = small_int(v[i], index(path, i), 0, hi);
  return out;
}

std::array<TcSchedule, kTrafficClasses> read_ets(const json& v, const std::string& path) {
  expect_array(v, path, kTrafficClasses, "entries");
  std::array<TcSchedule, kTrafficClasses> out{};
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string p = index(path, i);
    expect_object(v[i], p);
    check_keys(v[i], p, {"tc", "tsa", "bandwidth_pct"});
    const auto tc = static_cast<size_t>(small_int(required(v[i], p, "tc"), child(p, "tc"), 0, kTrafficClasses - 1));
    if (out[tc].used) fail(child(p, "tc"), "traffic class " + quote(std::to_string(tc)) + " is listed twice");
    TcSchedule& s = out[tc];
    s.used = true;
    s.strict = choice(required(v[i], p, "tsa"), child(p, "tsa"), {"ets", "strict"}) == 1;
    const json& bw = required(v[i], p, "bandwidth_pct");
    s.bandwidth_pct = small_int(bw, child(p, "bandwidth_pct"), 0, 100);
    if (s.strict && s.bandwidth_pct != 0)
      fail(child(p, "bandwidth_pct"), quote(bw.dump()) + " must be 0 for a strict-priority class");
  }
  return out;
}

std::vector<EcnQueue> read_ecn(const json& v, const std::string& path) {
  expect_array(v, path, kTrafficClasses, "entries");
  std::vector<EcnQueue> out;
  std::array<bool, kTrafficClasses> seen{};
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string p = index(path, i);
    expect_object(v[i], p);
    check_keys(v[i], p, {"tc", "min_bytes", "max_bytes", "probability_pct"});
    EcnQueue q;
    q.tc = small_int(required(v[i], p, "tc"), child(p, "tc"), 0, kTrafficClasses - 1);
    if (seen[static_cast<size_t>(q.tc)])
      fail(child(p, "tc"), "traffic class " + quote(std::to_string(q.tc)) + " is listed twice");
    seen[static_cast<size_t>(q.tc)] = true;
    q.min_bytes = static_cast<uint64_t>(integer(required(v[i], p, "min_bytes"), child(p, "min_bytes"), 0, kMaxQueueBytes));
    q.max_bytes = static_cast<uint64_t>(integer(required(v[i], p, "max_bytes"), child(p, "max_bytes"), 0, kMaxQueueBytes));
    q.probability_pct = small_int(required(v[i], p, "probability_pct"), child(p, "probability_pct"), 0, 100);
    out.push_back(q);
  }
  std::sort(out.begin(), out.end(), [](const EcnQueue& a, const EcnQueue& b) { return a.tc < b.tc; });
  return out;
}

Watchdog read_watchdog(const json& v, const std::string& path) {
  expect_object(v, path);
  check_keys(v, path, {"enabled", "poll_interval_ms", "detection_ms", "restoration_ms", "action"});
  Watchdog w;
  w.enabled = bool_value(required(v, path, "enabled"), child(path, "enabled"));
  // An enabled watchdog must say how it works; a disabled one may leave the rest out.
  auto field = [&](std::string_view key) { return w.enabled ? &required(v, path, key) : find(v, key); };
  if (const json* x = field("poll_interval_ms")) w.poll_interval_ms = small_int(*x, child(path, "poll_interval_ms"), 1, 60000);
  if (const json* x = field("detection_ms")) w.detection_ms = small_int(*x, child(path, "detection_ms"), 1, kMaxWatchdogMs);
  if (const json* x = field("restoration_ms"))
    w.restoration_ms = small_int(*x, child(path, "restoration_ms"), 0, kMaxWatchdogMs);
  if (const json* x = field("action"))
    w.action = static_cast<WatchdogAction>(choice(*x, child(path, "action"), {"drop", "forward", "alert"}));
  return w;
}

DcqcnObserved read_dcqcn(const json& v, const std::string& path) {
  expect_object(v, path);
  check_keys(v, path, {"rp_enabled", "np_enabled", "cnp_dscp", "cnp_priority"});
  DcqcnObserved d;
  d.rp_enabled = priority_set(required(v, path, "rp_enabled"), child(path, "rp_enabled"));
  d.np_enabled = priority_set(required(v, path, "np_enabled"), child(path, "np_enabled"));
  if (const json* x = find(v, "cnp_dscp")) d.cnp_dscp = small_int(*x, child(path, "cnp_dscp"), 0, kDscpValues - 1);
  if (const json* x = find(v, "cnp_priority")) d.cnp_priority = small_int(*x, child(path, "cnp_priority"), 0, kPriorities - 1);
  return d;
}

RdmaObserved read_rdma(const json& v, const std::string& path) {
  expect_object(v, path);
  check_keys(v, path, {"device", "port", "state", "active_mtu", "gids"});
  RdmaObserved r;
  const std::string dpath = child(path, "device");
  r.device = string_value(required(v, path, "device"), dpath);
  if (!valid_rdma_device(r.device))
    fail(dpath, quote(r.device) + " is not a valid RDMA device name (" + std::string(kRdmaDeviceRule) + ")");
  r.port = small_int(required(v, path, "port"), child(path, "port"), 1, 255);
  if (const json* x = find(v, "state")) r.active = choice(*x, child(path, "state"), {"active", "down"}) == 0;
  if (const json* x = find(v, "active_mtu")) {
    const int m = small_int(*x, child(path, "active_mtu"), 256, 4096);
    if (m != 256 && m != 512 && m != 1024 && m != 2048 && m != 4096)
      fail(child(path, "active_mtu"), quote(x->dump()) + " is not an RDMA MTU (256, 512, 1024, 2048, 4096)");
    r.active_mtu = m;
  }
  if (const json* x = find(v, "gids")) {
    const std::string gpath = child(path, "gids");
    expect_array(*x, gpath, kMaxRdmaGids, "GIDs");
    std::set<int> seen;
    for (size_t i = 0; i < x->size(); ++i) {
      const json& e = (*x)[i];
      const std::string p = index(gpath, i);
      expect_object(e, p);
      check_keys(e, p, {"index", "type", "gid"});
      GidObserved g;
      g.index = small_int(required(e, p, "index"), child(p, "index"), 0, 65535);
      if (!seen.insert(g.index).second) fail(child(p, "index"), "GID index " + quote(std::to_string(g.index)) + " is listed twice");
      static const std::vector<std::string_view> kTypes = {"RoCE v2", "RoCE v1", "IB"};
      g.type = std::string(kTypes[choice(required(e, p, "type"), child(p, "type"), kTypes)]);
      g.gid = string_value(required(e, p, "gid"), child(p, "gid"));
      if (!valid_gid(g.gid)) fail(child(p, "gid"), quote(g.gid) + " is not a GID (IPv6 address notation)");
      r.gids.push_back(std::move(g));
    }
    std::stable_sort(r.gids.begin(), r.gids.end(), [](const GidObserved& a, const GidObserved& b) { return a.index < b.index; });
  }
  return r;
}

LldpNeighbor read_lldp(const json& v, const std::string& path) {
  expect_object(v, path);
  check_keys(v, path, {"system_name", "port_id"});
  LldpNeighbor n;
  auto text = [&](std::string_view key, std::string& out) {
    const json* x = find(v, key);
    if (!x) return;
    const std::string p = child(path, key);
    out = string_value(*x, p);
    if (!valid_text(out, 255))
      fail(p, quote(out) + " is not 1-255 characters without control characters");
  };
  text("system_name", n.system_name);
  text("port_id", n.port_id);
  return n;
}

std::map<std::string, uint64_t> read_counters(const json& v, const std::string& path) {
  expect_object(v, path);
  if (v.size() > kMaxPortCounters)
    fail(path, std::to_string(v.size()) + " counters are more than the limit of " + std::to_string(kMaxPortCounters));
  std::map<std::string, uint64_t> out;
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (!valid_counter_name(it.key()))
      fail(path, "invalid counter name " + quote(it.key()) + " (" + std::string(kCounterNameRule) + ")");
    out.emplace(it.key(), counter_value(it.value(), child(path, it.key())));
  }
  return out;
}

const std::vector<std::string_view> kPortKeys = {
    "mtu",    "speed_mbps", "oper_status",  "trust", "dscp_to_priority", "pfc_enabled", "priority_to_tc",
    "ets",    "ecn",        "pfc_watchdog", "dcqcn", "rdma",             "lldp",        "counters"};

PortObserved read_port(const std::string& name, const json& v, const std::string& path) {
  expect_object(v, path);
  check_keys(v, path, kPortKeys);
  PortObserved p;
  p.name = name;
  if (const json* x = find(v, "mtu")) p.mtu = small_int(*x, child(path, "mtu"), 1, 65535);
  if (const json* x = find(v, "speed_mbps"))
    p.speed_mbps = static_cast<int>(integer(*x, child(path, "speed_mbps"), 1, kMaxSpeedMbps));
  if (const json* x = find(v, "oper_status")) p.oper_up = choice(*x, child(path, "oper_status"), {"up", "down"}) == 0;
  if (const json* x = find(v, "trust"))
    p.trust = choice(*x, child(path, "trust"), {"dscp", "pcp"}) == 0 ? Trust::dscp : Trust::pcp;
  if (const json* x = find(v, "dscp_to_priority"))
    p.dscp_to_priority = int_table<kDscpValues>(*x, child(path, "dscp_to_priority"), kPriorities - 1,
                                                "64 priorities, one per DSCP 0-63");
  if (const json* x = find(v, "pfc_enabled")) p.lossless = priority_set(*x, child(path, "pfc_enabled"));
  if (const json* x = find(v, "priority_to_tc"))
    p.priority_to_tc = int_table<kPriorities>(*x, child(path, "priority_to_tc"), kTrafficClasses - 1,
                                              "8 traffic classes, one per priority 0-7");
  if (const json* x = find(v, "ets")) p.tc = read_ets(*x, child(path, "ets"));
  if (const json* x = find(v, "ecn")) p.ecn = read_ecn(*x, child(path, "ecn"));
  if (const json* x = find(v, "pfc_watchdog")) p.watchdog = read_watchdog(*x, child(path, "pfc_watchdog"));
  if (const json* x = find(v, "dcqcn")) p.dcqcn = read_dcqcn(*x, child(path, "dcqcn"));
  if (const json* x = find(v, "rdma")) p.rdma = read_rdma(*x, child(path, "rdma"));
  if (const json* x = find(v, "lldp")) p.lldp = read_lldp(*x, child(path, "lldp"));
  if (const json* x = find(v, "counters")) p.counters = read_counters(*x, child(path, "counters"));
  return p;
}

const std::vector<std::string_view> kDeviceKeys = {"schema", "device", "platform", "collected_at", "source", "ports"};

DeviceObserved read_device(const json& root) {
  if (!root.is_object()) fail("", "expected a JSON object at the top level, got " + describe(root));
  // The schema first: a file of another version must not fail on keys this version does not know.
  const json* schema = find(root, "schema");
  if (!schema) fail("", "missing required key \"schema\"; is this a fabricctl snapshot?");
  const std::string& s = string_value(*schema, "schema");
  if (s != kSnapshotSchema) {
    if (s.starts_with("fabricctl.snapshot/"))
      fail("schema", "unsupported snapshot schema " + quote(s) + "; this fabricctl reads " + quote(kSnapshotSchema));
    fail("schema", quote(s) + " is not a fabricctl snapshot schema; expected " + quote(kSnapshotSchema));
  }
  check_keys(root, "", kDeviceKeys);

  DeviceObserved d;
  d.name = string_value(required(root, "", "device"), "device");
  if (!valid_device_name(d.name))
    fail("device", quote(d.name) + " is not a valid device name (" + std::string(kDeviceNameRule) + ")");
  if (const json* x = find(root, "platform")) d.platform = kPlatformNames[choice(*x, "platform", platform_names())].id;
  if (const json* x = find(root, "collected_at")) {
    d.collected_at = string_value(*x, "collected_at");
    if (!valid_time(d.collected_at))
      fail("collected_at", quote(d.collected_at) + " is not an RFC 3339 UTC time such as \"2026-11-30T06:00:00Z\"");
  }
  if (const json* x = find(root, "source")) {
    d.source = string_value(*x, "source");
    if (!valid_text(d.source, kMaxTextLength))
      fail("source", quote(d.source) + " is not 1-256 characters without control characters");
  }

  const json& ports = required(root, "", "ports");
  expect_object(ports, "ports");
  if (ports.size() > kMaxSnapshotPorts)
    fail("ports", std::to_string(ports.size()) + " ports are more than the limit of " + std::to_string(kMaxSnapshotPorts));
  for (auto it = ports.begin(); it != ports.end(); ++it)
    if (!valid_port_name(it.key()))
      fail("ports", "invalid port name " + quote(it.key()) + " (" + std::string(kPortNameRule) + ")");
  for (auto it = ports.begin(); it != ports.end(); ++it)
    d.ports.push_back(read_port(it.key(), it.value(), child("ports", it.key())));
  std::sort(d.ports.begin(), d.ports.end(),
            [](const PortObserved& a, const PortObserved& b) { return natural_less(a.name, b.name); });
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
      std::stable_sort(gids.begin(), gids.end(), [](const GidObserved& a, const GidObserved& b) { return a.index < b.index; });
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

std::string show(const fs::path& p) {
  const std::string s = p.string();
  const bool safe = all_chars(s, [](char c) { return c >= 0x20 && c < 0x7f; });
  return safe ? s : quote(s);
}

std::string errno_text(int e) {
  std::string m = std::error_code(e, std::generic_category()).message();
  if (!m.empty()) m[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(m[0])));
  return m;
}

std::string kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// Reads a snapshot file without following links or opening anything but a regular file; "" or why not.
std::string read_file(const fs::path& path, std::string& text) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    const int e = errno;
    if (e == ENOENT || e == ENOTDIR) return "no snapshot file " + show(path);
    return show(path) + ": cannot read: " + errno_text(e);
  }
  if (S_ISLNK(st.st_mode)) return show(path) + ": is a symbolic link; snapshot files are not read through links";
  if (!S_ISREG(st.st_mode)) return show(path) + ": is " + kind(st.st_mode) + ", not a regular file";
  // Open without following a link swapped in since lstat, and check again what was opened.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    const int e = errno;
    if (e == ELOOP) return show(path) + ": is a symbolic link; snapshot files are not read through links";
    return show(path) + ": cannot read: " + errno_text(e);
  }
  if (::fstat(fd.get(), &st) != 0) return show(path) + ": cannot read: " + errno_text(errno);
  if (!S_ISREG(st.st_mode)) return show(path) + ": is " + kind(st.st_mode) + ", not a regular file";
  if (static_cast<uint64_t>(st.st_size) > kMaxSnapshotBytes)
    return show(path) + ": " + too_large(static_cast<size_t>(st.st_size));
  text.clear();
  char buf[65536];
  while (text.size() <= kMaxSnapshotBytes) {  // the file may grow while it is read
    const ssize_t n = ::read(fd.get(), buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      return show(path) + ": cannot read: " + errno_text(errno);
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return "";
}

// Writes `text` to a hidden temporary file beside `target` and renames it into place.
std::string write_file(const fs::path& target, const std::string& text) {
  const fs::path tmp =
      target.parent_path() / ("." + target.filename().string() + "." + std::to_string(::getpid()) + ".tmp");
  Fd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (fd.get() < 0) return show(tmp) + ": cannot create: " + errno_text(errno);
  auto abandon = [&](int e) {
    ::close(fd.release());
    ::unlink(tmp.c_str());
    return show(target) + ": cannot write: " + errno_text(e);
  };
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd.get(), text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return abandon(errno);
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd.get()) != 0) return abandon(errno);
  if (::close(fd.release()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return show(target) + ": cannot write: " + errno_text(e);
  }
  if (::rename(tmp.c_str(), target.c_str()) != 0) {
    const int e = errno;
    ::unlink(tmp.c_str());
    return show(target) + ": cannot write: " + errno_text(e);
  }
  return "";
}

// "" if `d`, stored under `key`, writes a snapshot that reads back; else why not.
std::string check_writable(const std::string& key, const DeviceObserved& d) {
  if (!valid_device_name(key))
    return "cannot write a snapshot for device " + quote(key) + ": not a valid device name (" +
           std::string(kDeviceNameRule) + ")";
  if (d.name != key) return "device " + quote(key) + " holds the state of a device named " + quote(d.name);
  std::unordered_set<std::string> names;
  for (const PortObserved& p : d.ports)
    if (!names.insert(p.name).second) return "device " + quote(key) + ": port " + quote(p.name) + " appears twice";
  auto parsed = parse_snapshot(write_snapshot(d));
  if (const auto* e = std::get_if<SnapshotError>(&parsed))
    return "device " + quote(key) + ": the snapshot would not read back: " + e->message;
  return "";
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
  std::string out;
  emit(j, 0, false, out);
  out += '\n';
  return out;
}

std::variant<DeviceObserved, SnapshotError> parse_snapshot(std::string_view text) {
  if (text.size() > kMaxSnapshotBytes) return SnapshotError{too_large(text.size())};
  DomBuilder builder(text);
  try {
    const bool ok = json::sax_parse(text.begin(), text.end(), &builder, json::input_format_t::json, true, false);
    if (!ok || !builder.error.empty())
      return SnapshotError{builder.error.empty() ? std::string("invalid JSON") : builder.error};
    return read_device(builder.root);
  } catch (const Invalid& e) {
    return SnapshotError{e.message};
  } catch (const json::exception& e) {
    return SnapshotError{"invalid JSON: " + printable(e.what())};
  }
}

SnapshotSet read_snapshot_dir(const fs::path& dir, const std::vector<std::string>& expected_devices,
                              const std::vector<std::string>& inventory_devices) {
  SnapshotSet out;
  FabricObserved& obs = out.observed;
  const std::unordered_set<std::string> expected(expected_devices.begin(), expected_devices.end());
  const std::unordered_set<std::string> known(inventory_devices.begin(), inventory_devices.end());
  for (const std::string& device : expected_devices) {
    if (obs.devices.count(device) || obs.unreadable.count(device)) continue;
    if (!valid_device_name(device)) {
      obs.unreadable[device] = "invalid device name " + quote(device) + "; no snapshot file can hold it";
      continue;
    }
    const fs::path path = dir / (device + ".json");
    std::string text;
    if (std::string err = read_file(path, text); !err.empty()) {
      obs.unreadable[device] = err;
      continue;
    }
    auto parsed = parse_snapshot(text);
    if (auto* e = std::get_if<SnapshotError>(&parsed)) {
      obs.unreadable[device] = show(path) + ": " + e->message;
      continue;
    }
    DeviceObserved& d = std::get<DeviceObserved>(parsed);
    if (d.name != device) {
      obs.unreadable[device] =
          show(path) + ": device " + quote(d.name) + " does not match the file name; expected " + quote(device);
      continue;
    }
    obs.devices.emplace(device, std::move(d));
  }

  // Snapshot files of devices the inventory does not know: probably a stale or misnamed file.
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
  std::sort(extra.begin(), extra.end(), [](const std::string& a, const std::string& b) { return natural_less(a, b); });
  for (const std::string& name : extra)
    out.warnings.push_back("ignoring " + show(dir / name) + ": device not in the inventory");
  return out;
}

std::string write_snapshot_dir(const FabricObserved& observed, const fs::path& dir) {
  // Check everything first: invalid state writes nothing.
  for (const auto& [name, device] : observed.devices)
    if (std::string err = check_writable(name, device); !err.empty()) return err;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create " + show(dir) + ": " + errno_text(ec.value());
  for (const auto& [name, device] : observed.devices)
    if (std::string err = write_file(dir / (name + ".json"), write_snapshot(device)); !err.empty()) return err;
  return "";
}

}  // namespace fabricctl
