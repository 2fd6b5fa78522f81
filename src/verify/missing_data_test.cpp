// An unreachable device, a port a collector could not read, a field an older release does not report:
// this is exactly when a drift audit must keep going. Every check runs here over the bundled fabrics'
// snapshot sets (each device's state as its intent, the way `snapshot --from-intent` writes it) with
// one part taken away at a time: each device (absent, or recorded as unreadable the way
// read_snapshot_dir records a missing file), each port and each key at any depth of its snapshot.
// Devices are taken away on both fabrics; ports and keys on every lab device, and on one device of each
// platform and role of rail-optimized, each key once per kind of port (snapshots of one kind have one
// shape). No variant may crash, and
// none may invent a failure: a gap is reported as missing data (exit 3), or passes when nothing needs
// what was taken away (the lists below say which keys, and why). Under the sanitizer build this also
// catches a read through a missing end of a link.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/fabric.h"
#include "model/inventory.h"
#include "model/profile_set.h"
#include "platform/platform.h"
#include "source_dir.h"
#include "state/snapshot.h"
#include "util/text.h"
#include "verify/engine.h"

using namespace fabricctl;
using nlohmann::json;

namespace {

/// Snapshot keys (the last token of the key's path) whose removal is no gap, by docs/snapshots.md:
/// what no check reads, and what one end of a link proves for both (the LLDP neighbour either end sees).
const std::set<std::string> kNotNeeded = {
    "collected_at", "source", "platform", "counters", "unreadable_ports", "lldp", "system_name", "port_id",
};

/// Keys whose absence the format defines as a value, not as "not collected" (docs/snapshots.md): no GID
/// entries, NCCL's default traffic class (0) and GID index, no ToS override. Taking them away changes
/// the state, so a finding about the new value is right; only a crash is wrong.
const std::set<std::string> kAbsenceIsValue = {"gids", "traffic_class", "gid_index", "tos_override"};

/// A fabric and the snapshot set of its intent.
struct SnapshotSet {
  Fabric fabric;
  std::vector<json> snapshots;          // per device, in desired order
  std::vector<DeviceObserved> devices;  // the same, read back
  std::set<std::string> all;            // every device name: the scope

  explicit SnapshotSet(const std::string& inventory) {
    Diags diags;
    auto profiles = load_profiles(test::kSourceDir + "/profiles", diags);
    auto inv = load_inventory(test::kSourceDir + "/inventory/" + inventory, diags);
    REQUIRE(profiles);
    REQUIRE(inv);
    fabric = resolve_fabric(*inv, *profiles, diags);
    REQUIRE_FALSE(diags.has_errors());
    for (const DeviceDesired& d : fabric.desired.devices) {
      const std::string text = write_snapshot(observed_from_desired(d));
      snapshots.push_back(json::parse(text));
      auto parsed = parse_snapshot(text);
      REQUIRE(parsed);
      devices.push_back(std::move(*parsed));
      all.insert(d.name);
    }
  }

  /// The observed fabric with device `changed` as `text` says (nullptr: its file is missing), holding
  /// the devices in `needed` (nullptr: all).
  [[nodiscard]] FabricObserved observed_with(size_t changed, const json* text,
                                             const std::set<std::string>* needed = nullptr) const {
    FabricObserved o;
    for (size_t i = 0; i < devices.size(); ++i) {
      const std::string& name = fabric.desired.devices[i].name;
      if (needed && needed->count(name) == 0) continue;
      if (i != changed) {
        o.devices.emplace(name, devices[i]);
        continue;
      }
      // As read_snapshot_dir records them: a missing or unparsable file makes the device unreadable.
      if (!text) {
        o.record_failure({name, FailureStage::snapshot, "no snapshot file " + name + ".json"});
        continue;
      }
      auto parsed = parse_snapshot(text->dump());
      if (parsed) o.devices.emplace(name, std::move(*parsed));
      else o.record_failure({name, FailureStage::snapshot, name + ".json: " + parsed.error()});
    }
    return o;
  }

  /// Verify over the whole set as collected.
  [[nodiscard]] VerifyReport verify_all() const { return verify(observed_with(devices.size(), nullptr), all, all); }

  /// Verify of device `changed` (`--limit` to it: its ports and every link it is an end of), with its
  /// snapshot as `text` says (nullptr: missing); `drop_failure`: absent without a recorded failure.
  [[nodiscard]] VerifyReport verify_device(size_t changed, const json* text, bool drop_failure = false) const {
    const std::set<std::string> scope{fabric.desired.devices[changed].name};
    const std::set<std::string> needed = devices_needed(fabric.desired, scope);
    FabricObserved o = observed_with(changed, text, &needed);
    if (drop_failure) {
      o.failures.clear();
      o.unreadable.clear();
    }
    return verify(o, scope, needed);
  }

  [[nodiscard]] VerifyReport verify(const FabricObserved& o, const std::set<std::string>& scope,
                                    const std::set<std::string>& needed) const {
    std::string error;
    const std::vector<const Check*> selected = select_checks({}, error);
    REQUIRE(error.empty());
    // With the platforms' fix phrasing, which reads the desired side of whatever failed.
    return run_verify(
        fabric.desired, o,
        {.checks = selected, .scope = scope, .needed = needed, .passes = Passes::counted, .fix_text = fix_text});
  }
};

/// The path of every key of every object in `j`, at any depth (array elements are descended into,
/// not listed).
void key_paths(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (j.is_object()) {
    for (const auto& [key, value] : j.items()) {
      out.push_back(at / key);
      key_paths(value, at / key, out);
    }
  } else if (j.is_array()) {
    for (size_t i = 0; i < j.size(); ++i) key_paths(j[i], at / i, out);
  }
}

/// The failures in `r`: a part taken away must never read as a fault of the device.
std::vector<std::string> failures(const VerifyReport& r) {
  std::vector<std::string> out;
  for (const Result& x : r.results)
    if (x.status == Status::fail) out.push_back(x.check + " " + x.object() + ": " + x.message);
  return out;
}

/// A report that names `device` as missing data, a part of `device` as not compared, or nothing.
bool reports_gap(const VerifyReport& r) { return verify_exit_code(r) == 3; }

/// The devices whose ports and keys are taken away one by one: all of them (`all`), or the first of
/// each platform and role, whose snapshots have the shape of every other of its kind.
std::vector<size_t> part_devices(const SnapshotSet& set, bool all) {
  std::vector<size_t> out;
  std::set<std::pair<Platform, Role>> seen;
  for (size_t i = 0; i < set.devices.size(); ++i) {
    const DeviceDesired& d = set.fabric.desired.devices[i];
    if (all || seen.insert({d.platform, d.role}).second) out.push_back(i);
  }
  return out;
}

/// A key's path with its port named by what the port is cabled to ("/ports/<to a host>/mtu"): the keys
/// of ports cabled alike are read by the same checks the same way.
std::string port_shape(const SnapshotSet& set, size_t device, const json::json_pointer& path) {
  std::string s = path.to_string();
  const std::string prefix = "/ports/";
  if (!s.starts_with(prefix)) return s;
  const size_t end = s.find('/', prefix.size());
  const std::string port = s.substr(prefix.size(), end - prefix.size());
  std::string kind = "<uncabled>";
  for (const PortDesired& p : set.fabric.desired.devices[device].ports) {
    if (p.name != port || p.peer_device.empty()) continue;
    kind = "<to a switch>";
    for (const DeviceDesired& d : set.fabric.desired.devices)
      if (d.name == p.peer_device && d.role == Role::host) kind = "<to a host>";
  }
  return prefix + kind + (end == std::string::npos ? "" : s.substr(end));
}

void check_every_deletion(const std::string& inventory, bool parts_of_every_device,
                          const std::set<std::string>& also_not_needed = {}) {
  const SnapshotSet set(inventory);
  REQUIRE(set.devices.size() > 1);
  // The set as collected is clean: every variant's gap is the variant's.
  const VerifyReport clean = set.verify_all();
  REQUIRE(verify_exit_code(clean) == 0);
  REQUIRE(failures(clean).empty());

  size_t variants = 0;
  std::map<std::string, size_t> passed_keys;  // keys whose removal passed: each must be unjudged
  for (size_t i = 0; i < set.devices.size(); ++i) {
    const std::string& device = set.fabric.desired.devices[i].name;
    CAPTURE(device);

    // The device's snapshot missing, and the device absent without a recorded failure.
    for (const bool recorded : {true, false}) {
      const VerifyReport r = set.verify_device(i, nullptr, !recorded);
      CHECK_MESSAGE(reports_gap(r), device << " missing (recorded: " << recorded << ") exits " << verify_exit_code(r));
      CHECK_MESSAGE(failures(r).empty(), join(failures(r), "\n"));
      ++variants;
    }

    const std::vector<size_t> parted = part_devices(set, parts_of_every_device);
    if (std::find(parted.begin(), parted.end(), i) == parted.end()) continue;
    const json& snapshot = set.snapshots[i];
    // Each port taken away.
    for (const auto& item : snapshot.at("ports").items()) {
      const std::string& port = item.key();
      json changed = snapshot;
      changed["ports"].erase(port);
      const VerifyReport r = set.verify_device(i, &changed);
      CHECK_MESSAGE(reports_gap(r), device << ":" << port << " missing exits " << verify_exit_code(r));
      CHECK_MESSAGE(failures(r).empty(), join(failures(r), "\n"));
      ++variants;
    }

    // Each key, at any depth, taken away.
    std::vector<json::json_pointer> paths;
    key_paths(snapshot, json::json_pointer(), paths);
    std::set<std::string> shapes;
    for (const json::json_pointer& path : paths) {
      if (!parts_of_every_device && !shapes.insert(port_shape(set, i, path)).second) continue;
      json changed = snapshot;
      changed[path.parent_pointer()].erase(path.back());
      const VerifyReport r = set.verify_device(i, &changed);
      CAPTURE(path.to_string());
      ++variants;
      if (kAbsenceIsValue.count(path.back()) == 1) continue;
      CHECK_MESSAGE(failures(r).empty(), join(failures(r), "\n"));
      if (!reports_gap(r)) {
        CHECK(verify_exit_code(r) == 0);
        ++passed_keys[path.back()];
      }
    }
  }
  for (const auto& [key, count] : passed_keys) {
    const std::string& k = key;
    const size_t times = count;
    CHECK_MESSAGE(
        kNotNeeded.count(k) + also_not_needed.count(k) == 1,
        "taking \"" << k << "\" away passed " << times << " times: a check reads it without saying it is missing");
  }
  MESSAGE(inventory << ": " << variants << " single deletions verified");
  CHECK(variants > 100);
}

}  // namespace

TEST_CASE("verify over the lab's snapshot set with any device, port or key missing") {
  check_every_deletion("lab", true);
}

TEST_CASE("verify over rail-optimized's snapshot set with any device, port or key missing") {
  // Its profile runs PFC only, without DCQCN: the NICs' CNP marking is not judged.
  check_every_deletion("rail-optimized", false, {"cnp_dscp", "cnp_priority"});
}
