#include "ops/apply_record.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <nlohmann/json.hpp>

#include "ops/clock.h"
#include "util/diag.h"
#include "util/file_io.h"

namespace fabricctl::ops {

namespace {

using json = nlohmann::json;
using time_point = std::chrono::system_clock::time_point;

constexpr size_t kMaxRecordBytes = size_t{64} << 20;  // 64 MiB: a 100k-device apply is ~60 MB
constexpr size_t kMaxDepth = 8;                       // the deepest event (end's devices) is 3

/// Nesting of a JSON text, brackets in strings not counted: checked before the (recursive) parse.
size_t depth_of(std::string_view line) {
  size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == '}' || c == ']') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

/// "2026-12-06T05:48:52Z" (what AuditLog writes), or nullopt.
std::optional<time_point> parse_utc(const std::string& s) {
  std::tm tm{};
  const char* end = ::strptime(s.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return std::chrono::system_clock::from_time_t(::timegm(&tm));
}

class LineReader {
 public:
  LineReader(const std::string& name, size_t line) : where_(name + ":" + std::to_string(line) + ": ") {}
  std::string error(const std::string& what) const { return where_ + what; }
  /// A string member, or an error.
  Expected<std::string> text(const json& o, const char* key) const {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return unexpected(error(std::string("\"") + key + "\" is not a string"));
    return it->get<std::string>();
  }
  Expected<int> integer(const json& o, const char* key) const {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_number_integer() || it->get<int64_t>() < 0 || it->get<int64_t>() > 1'000'000)
      return unexpected(error(std::string("\"") + key + "\" is not a count"));
    return static_cast<int>(it->get<int64_t>());
  }

 private:
  std::string where_;
};

}  // namespace

const RecordedDevice* RecordedApply::find(const std::string& name) const {
  const auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : &devices[it->second];
}

size_t RecordedApply::count(RecordedState s) const {
  return static_cast<size_t>(
      std::count_if(devices.begin(), devices.end(), [s](const auto& d) { return d.state == s; }));
}

Expected<RecordedApply> read_apply_record(std::string_view text, const std::string& name) {
  RecordedApply r;
  bool started = false;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    const LineReader lr(name, line_no);
    if (line.empty()) continue;
    if (depth_of(line) > kMaxDepth) return unexpected(lr.error("nested deeper than any event"));
    const json o = json::parse(line, nullptr, false);
    if (o.is_discarded() || !o.is_object()) return unexpected(lr.error("not a JSON object"));
    auto event = lr.text(o, "event");
    if (!event) return unexpected(event.error());
    auto at_text = lr.text(o, "at");
    if (!at_text) return unexpected(at_text.error());
    const auto at = parse_utc(*at_text);
    if (!at) return unexpected(lr.error("\"at\" is not a time: " + quote(*at_text)));
    if (*event == "start") {
      if (started) return unexpected(lr.error("a second start event"));
      started = true;
      std::string bad;  // the first field that is not what the start event writes
      const auto take = [&bad](auto value, auto& into) {
        if (value) into = *value;
        else if (bad.empty()) bad = value.error();
      };
      take(lr.text(o, "transaction"), r.transaction);
      take(lr.text(o, "inventory"), r.inventory);
      take(lr.text(o, "batch"), r.batch);
      take(lr.text(o, "by"), r.by);
      take(lr.integer(o, "canary"), r.canary);
      take(lr.integer(o, "health_gate_s"), r.health_gate_s);
      take(lr.integer(o, "max_failures"), r.max_failures);
      take(lr.integer(o, "confirm_timeout_s"), r.confirm_timeout_s);
      if (!bad.empty()) return unexpected(bad);
      const auto devices = o.find("devices");
      if (devices == o.end() || !devices->is_array()) return unexpected(lr.error("\"devices\" is not a list"));
      for (const json& d : *devices) {
        if (!d.is_object()) return unexpected(lr.error("a device is not an object"));
        RecordedDevice rd;
        for (auto [field, key] :
             {std::pair{&rd.name, "device"}, {&rd.status, "status"}, {&rd.before_sha256, "before_sha256"}}) {
          auto v = lr.text(d, key);
          if (!v) return unexpected(v.error());
          *field = *v;
        }
        if (!r.by_name.emplace(rd.name, r.devices.size()).second)
          return unexpected(lr.error("device " + quote(rd.name) + " twice"));
        rd.last_at = *at;
        r.devices.push_back(std::move(rd));
      }
      continue;
    }
    if (!started) return unexpected(lr.error("an event before the start event"));
    if (*event == "end") {
      auto exit = lr.integer(o, "exit");
      if (!exit) return unexpected(exit.error());
      r.exit = *exit;
      continue;
    }
    if (*event == "step" || *event == "health_gate") continue;
    auto device_name = lr.text(o, "device");
    if (!device_name) return unexpected(device_name.error());
    const auto at_index = r.by_name.find(*device_name);
    if (at_index == r.by_name.end())
      return unexpected(lr.error("device " + quote(*device_name) + " is not in the start event"));
    RecordedDevice* d = &r.devices[at_index->second];
    d->last_at = *at;
    if (*event == "stage") {
      d->state = RecordedState::staging;
    } else if (*event == "staged") {
      d->state = RecordedState::staged;
    } else if (*event == "confirmed") {
      auto after = lr.text(o, "after_sha256");
      if (!after) return unexpected(after.error());
      d->state = RecordedState::confirmed;
      d->after_sha256 = *after;
    } else if (*event == "rolled_back") {
      const auto ok = o.find("ok");
      if (ok == o.end() || !ok->is_boolean()) return unexpected(lr.error("\"ok\" is not true or false"));
      d->state = ok->get<bool>() ? RecordedState::rolled_back : RecordedState::rollback_failed;
    } else if (*event == "check_failed") {
      d->state = RecordedState::planned;  // refused before anything was sent
    } else if (*event == "extended") {
      // The revert timer armed again: its window runs from this event (last_at), the device still staged.
    } else if (*event != "stage_failed" && *event != "verify_failed" && *event != "confirm_failed" &&
               *event != "extend_failed") {
      return unexpected(lr.error("unknown event " + quote(*event)));
    }
  }
  if (!started) return unexpected(name + ": no start event: not an apply's audit record");
  return r;
}

Expected<RecordedApply> load_apply_record(const std::string& arg, const std::filesystem::path& audit_dir) {
  std::filesystem::path path = arg;
  if (arg.find('/') == std::string::npos && !arg.ends_with(".jsonl")) {
    // A transaction name: fabricctl-YYYYMMDDTHHMMSS-xxxxxx, nothing a path could be made of.
    if (arg.empty() || !std::all_of(arg.begin(), arg.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == 'T';
        }))
      return unexpected(quote(arg) + " is neither a transaction name nor an audit record's path");
    path = audit_dir / (arg + ".jsonl");
  }
  auto text = read_regular_file(path, {.max_bytes = kMaxRecordBytes, .what = "audit record"});
  if (!text) return unexpected(text.error().message);
  auto record = read_apply_record(*text, display_path(path));
  if (record) record->path = path;
  return record;
}

bool record_in_use(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;
  const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return busy;
}

std::vector<std::string> pending_reverts(const RecordedApply& r, time_point now) {
  std::vector<std::string> out;
  for (const RecordedDevice& d : r.devices) {
    if (d.state != RecordedState::staging && d.state != RecordedState::staged &&
        d.state != RecordedState::rollback_failed)
      continue;
    const time_point fires = d.last_at + std::chrono::seconds(r.confirm_timeout_s);
    if (fires <= now) continue;
    out.push_back(d.name + ": " +
                  (d.state == RecordedState::rollback_failed ? "its rollback by " + r.transaction + " failed"
                                                             : "staged by " + r.transaction + " and never confirmed") +
                  ": its revert timer fires by " + utc_text(fires));
  }
  return out;
}

}  // namespace fabricctl::ops
