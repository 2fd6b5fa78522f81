// Fuzzes verify over a snapshot set with parts missing: the bundled lab's set (each device's state as
// its intent) is cut by the input, read as up to 8 operations of 4 bytes [kind, a, b, c]:
//   0  a device's snapshot missing (recorded as read_snapshot_dir records it)
//   1  a port taken out of a device's snapshot
//   2  a key taken out of a device's snapshot, at any depth
//   3  an array of a device's snapshot truncated (a DSCP map, PFC priorities, ETS, GIDs)
//   4  a device's snapshot text truncated (it no longer parses: the device is unreadable)
// Verify must never crash or throw, must exit 0, 1 or 3, and must word every result. When only parts
// were taken away (kinds 0-2), nothing may read as a fault: no failure, exit 0 or 3.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "model/fabric.h"
#include "model/inventory.h"
#include "model/profile_set.h"
#include "platform/platform.h"
#include "state/snapshot.h"
#include "verify/engine.h"

namespace {

using namespace fabricctl;
using nlohmann::json;

struct LabSet {
  Fabric fabric;
  std::vector<json> snapshots;  // per device, in desired order
  std::set<std::string> all;
  std::vector<const Check*> checks;
};

const LabSet& lab() {
  static const LabSet set = [] {
    LabSet s;
    Diags diags;
    auto profiles = load_profiles(fuzz::source_dir() / "profiles", diags);
    auto inv = load_inventory(fuzz::source_dir() / "inventory" / "lab", diags);
    if (!profiles || !inv) fuzz::fail("the lab does not load", diags);
    s.fabric = resolve_fabric(*inv, *profiles, diags);
    if (diags.has_errors()) fuzz::fail("the lab does not resolve", diags);
    for (const DeviceDesired& d : s.fabric.desired.devices) {
      s.snapshots.push_back(json::parse(write_snapshot(observed_from_desired(d))));
      s.all.insert(d.name);
    }
    std::string error;
    s.checks = select_checks({}, error);
    if (!error.empty()) fuzz::fail("no checks");
    return s;
  }();
  return set;
}

/// Paths of every object key (`keys`) and every array (`arrays`) in `j`, at any depth.
void paths(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& keys,
           std::vector<json::json_pointer>& arrays) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      keys.push_back(at / key);
      paths(value, at / key, keys, arrays);
    }
  } else if (j.is_array()) {
    arrays.push_back(at);
    for (size_t i = 0; i < j.size(); ++i) paths(j[i], at / i, keys, arrays);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const LabSet& set = lab();
  const size_t n = set.snapshots.size();
  std::map<size_t, json> changed;         // device index -> its cut snapshot
  std::map<size_t, std::string> text_of;  // device index -> its truncated text
  std::set<size_t> missing;               // devices whose snapshot is missing
  bool only_taken_away = true;
  constexpr size_t kMaxOps = 8;
  for (size_t op = 0; op < kMaxOps && (op + 1) * 4 <= size; ++op) {
    const uint8_t* b = data + op * 4;
    const size_t dev = b[1] % n;
    if (!changed.count(dev)) changed[dev] = set.snapshots[dev];
    json& snap = changed[dev];
    std::vector<json::json_pointer> keys, arrays;
    paths(snap, json::json_pointer(), keys, arrays);
    const size_t pick = size_t{b[2]} << 8 | b[3];
    switch (b[0] % 5) {
      case 0: missing.insert(dev); break;
      case 1:
        if (snap.contains("ports") && snap["ports"].is_object() && !snap["ports"].empty())
          snap["ports"].erase(std::next(snap["ports"].begin(), b[2] % snap["ports"].size()));
        break;
      case 2:
        if (!keys.empty()) {
          const json::json_pointer& p = keys[pick % keys.size()];
          snap[p.parent_pointer()].erase(p.back());
        }
        break;
      case 3:
        if (!arrays.empty()) {
          json& a = snap[arrays[b[2] % arrays.size()]];
          if (!a.empty()) a.erase(a.begin() + static_cast<std::ptrdiff_t>(b[3] % a.size()), a.end());
        }
        only_taken_away = false;
        break;
      default: {
        const std::string whole = snap.dump();
        text_of[dev] = whole.substr(0, pick % whole.size());
        only_taken_away = false;
      }
    }
  }

  FabricObserved observed;
  for (size_t i = 0; i < n; ++i) {
    const std::string& name = set.fabric.desired.devices[i].name;
    if (missing.count(i)) {
      observed.record_failure({name, FailureStage::snapshot, "no snapshot file " + name + ".json"});
      continue;
    }
    const auto t = text_of.find(i);
    const auto c = changed.find(i);
    const std::string text =
        t != text_of.end() ? t->second : (c != changed.end() ? c->second : set.snapshots[i]).dump();
    auto parsed = parse_snapshot(text);
    if (parsed) observed.devices.emplace(name, std::move(*parsed));
    else observed.record_failure({name, FailureStage::snapshot, name + ".json: " + parsed.error()});
  }

  const VerifyReport r = run_verify(
      set.fabric.desired, observed,
      {.checks = set.checks, .scope = set.all, .needed = set.all, .passes = Passes::counted, .fix_text = fix_text});
  const int code = verify_exit_code(r);
  if (code != 0 && code != 1 && code != 3) fuzz::fail("verify exit code outside 0, 1, 3");
  for (const Result& x : r.results) {
    if (x.message.empty()) fuzz::fail("a result without a message");
    if (only_taken_away && x.status == Status::fail)
      fuzz::fail(("a part taken away reads as a fault: " + x.check + " " + x.object() + ": " + x.message).c_str());
  }
  if (only_taken_away && code == 1) fuzz::fail("a part taken away exits 1");
  return 0;
}
