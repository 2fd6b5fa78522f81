#include "health/baseline.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>

#include "state/snapshot.h"
#include "util/diag.h"
#include "util/file_io.h"
#include "util/json_reader.h"
#include "util/names.h"

namespace fabricctl {

namespace {

constexpr std::string_view kFormat = "fabricctl.baseline/v1";
// A baseline of R100k's 409,600 ports with a few dozen counters each is some 100 MB; the strict
// reader's default of 16 MB would refuse it.
constexpr size_t kMaxBaselineBytes = size_t{512} * 1024 * 1024;

/// The earliest collected_at of a reading, or "".
std::string earliest(const FabricObserved& o) {
  std::string out;
  for (const auto& [name, d] : o.devices)
    if (!d.collected_at.empty() && (out.empty() || d.collected_at < out)) out = d.collected_at;
  return out;
}

}  // namespace

std::optional<double> Baseline::rate(const std::string& device, const std::string& port,
                                     const std::string& counter) const {
  const auto d = devices.find(device);
  if (d == devices.end() || d->second.window_ms == 0) return std::nullopt;
  const auto p = d->second.rises.find(port);
  if (p == d->second.rises.end()) return std::nullopt;
  const auto c = p->second.find(counter);
  if (c == p->second.end()) return std::nullopt;
  return static_cast<double>(c->second) * 1000.0 / static_cast<double>(d->second.window_ms);
}

Baseline baseline_between(const FabricObserved& before, const FabricObserved& after) {
  Baseline b;
  b.first_reading = earliest(before);
  b.second_reading = earliest(after);
  for (const auto& [name, a] : after.devices) {
    const auto it = before.devices.find(name);
    if (it == before.devices.end()) continue;
    const auto t0 = parse_utc_time(it->second.collected_at), t1 = parse_utc_time(a.collected_at);
    if (!t0 || !t1 || *t1 <= *t0) continue;
    DeviceBaseline d;
    d.window_ms = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(*t1 - *t0).count());
    for (const PortObserved& p : a.ports) {
      const PortObserved* q = it->second.port(p.name);
      if (q == nullptr) continue;
      for (const auto& [counter, value] : p.counters) {
        const auto was = q->counters.find(counter);
        if (was != q->counters.end() && value >= was->second) d.rises[p.name][counter] = value - was->second;
      }
    }
    if (d.window_ms > 0) b.devices.emplace(name, std::move(d));
  }
  return b;
}

std::string baseline_json(const Baseline& b) {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["saved_at"] = b.saved_at;
  j["first_reading"] = b.first_reading;
  j["second_reading"] = b.second_reading;
  j["findings"] = b.findings;
  nlohmann::ordered_json devices = nlohmann::ordered_json::object();
  for (const auto& [name, d] : b.devices) {
    nlohmann::ordered_json ports = nlohmann::ordered_json::object();
    for (const auto& [port, counters] : d.rises) {
      nlohmann::ordered_json c = nlohmann::ordered_json::object();
      for (const auto& [counter, rise] : counters) c[counter] = rise;
      ports[port] = std::move(c);
    }
    devices[name] = {{"window_ms", d.window_ms}, {"rises", std::move(ports)}};
  }
  j["devices"] = std::move(devices);
  return j.dump(1, ' ', true) + "\n";
}

Expected<Baseline> parse_baseline(std::string_view text) {
  using namespace jsonr;
  return read_json(text, {kMaxBaselineBytes, 8}, [](Value root) {
    const Path top;
    expect_object(root, top);
    const auto [format, saved_at, first, second, findings, devices] =
        fields(root, top,
               std::array<std::string_view, 6>{"format", "saved_at", "first_reading", "second_reading", "findings",
                                               "devices"});
    const std::string_view f = string_value(required(format, top, "format"), "format");
    if (f != kFormat) fail("format", quote(f) + " is not " + quote(kFormat));
    Baseline b;
    const auto time = [&](const std::optional<Value>& v, std::string_view key) -> std::string {
      if (!v) return "";
      const std::string_view s = string_value(*v, std::string(key));
      if (!parse_utc_time(s)) fail(std::string(key), quote(s) + " is not an RFC 3339 UTC time");
      return std::string(s);
    };
    b.saved_at = time(saved_at, "saved_at");
    b.first_reading = time(first, "first_reading");
    b.second_reading = time(second, "second_reading");
    if (findings) b.findings = unsigned_integer(*findings, "findings");
    const Value all = required(devices, top, "devices");
    expect_object(all, "devices");
    for (const auto& [name, dv] : all.members()) {
      const std::string dpath = "devices." + std::string(name);
      if (!valid_device_name(name)) fail("devices", "invalid device name " + quote(name));
      const auto [window, rises] = fields(dv, dpath, std::array<std::string_view, 2>{"window_ms", "rises"});
      DeviceBaseline d;
      d.window_ms = unsigned_integer(required(window, dpath, "window_ms"), dpath + ".window_ms");
      if (d.window_ms == 0) fail(dpath + ".window_ms", "0 is not a window");
      const Value ports = required(rises, dpath, "rises");
      expect_object(ports, dpath + ".rises");
      for (const auto& [port, pv] : ports.members()) {
        const std::string ppath = dpath + ".rises." + std::string(port);
        if (!valid_port_name(port)) fail(dpath + ".rises", "invalid port name " + quote(port));
        expect_object(pv, ppath);
        auto& counters = d.rises[std::string(port)];
        for (const auto& [counter, cv] : pv.members()) {
          if (!valid_counter_name(counter))
            fail(ppath, "invalid counter name " + quote(counter) + " (" + std::string(kCounterNameRule) + ")");
          counters[std::string(counter)] = unsigned_integer(cv, ppath + "." + std::string(counter));
        }
      }
      b.devices.emplace(std::string(name), std::move(d));
    }
    return b;
  });
}

Expected<void> save_baseline(const Baseline& b, const FabricObserved& state, const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return unexpected(dir.string() + ": cannot create: " + ec.message());
  if (auto w = write_snapshot_dir(state, dir / "snapshots"); !w) return unexpected(w.error());
  return write_file_atomic(dir / "baseline.json", baseline_json(b));
}

Expected<Baseline> load_baseline(const std::filesystem::path& dir) {
  const std::filesystem::path path = dir / "baseline.json";
  auto text = read_regular_file(path, {kMaxBaselineBytes, "baseline file"});
  if (!text) return unexpected(text.error().message);
  auto b = parse_baseline(*text);
  if (!b) return unexpected(path.string() + ": " + b.error());
  return b;
}

}  // namespace fabricctl
