#include "cli/two_readings.h"

#include <filesystem>
#include <iostream>

#include "cli/args.h"
#include "cli/device_scope.h"
#include "util/diag.h"
#include "verify/engine.h"

namespace fabricctl {

namespace po = boost::program_options;

void add_two_readings_options(po::options_description& desc, TwoReadingsOptions& o) {
  desc.add_options()("since", po::value(&o.since)->value_name("DIR"),
                     "the first reading: snapshot files DIR/<device>.json a collect wrote (required)")(
      "snapshots,s", po::value(&o.snapshots)->value_name("DIR"),
      "the second reading, saved too (without it: read the devices now)")(
      "limit,l", po::value(&o.limit)->value_name("GLOB")->composing(),
      "only devices (or groups) matching GLOB; repeatable")("quiet,q", po::bool_switch(&o.quiet),
                                                            "no progress on stderr; errors are still printed");
  po::options_description live_desc("reading the devices (without --snapshots)");
  add_read_options(live_desc, o.live);
  desc.add(live_desc);
}

std::string check_two_readings_options(const TwoReadingsOptions& o) {
  if (std::string e = check_read_options(o.live); !e.empty()) return e;
  if (o.since.empty()) return "--since DIR is required: the first reading (a collect's snapshots) to judge against";
  std::error_code ec;
  for (const std::string& dir : {o.since, o.snapshots})
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) return quote(dir) + " is not a directory";
  return "";
}

void add_baseline_option(po::options_description& desc, std::string& dir) {
  desc.add_options()("baseline", po::value(&dir)->value_name("DIR"),
                     "also judge every counter against the fabric's normal that `baseline save --out DIR` wrote");
}

bool load_baseline_option(const std::string& dir, std::optional<Baseline>& out) {
  out.reset();
  if (dir.empty()) return true;
  auto b = load_baseline(dir);
  if (!b) {
    std::cerr << "fabricctl: error: " << b.error() << "\n";
    return false;
  }
  out = std::move(*b);
  return true;
}

std::optional<ScopedFabric> load_scoped_fabric(FabricOptions& o, const std::vector<std::string>& limit,
                                               const std::string& baseline_dir) {
  std::optional<Baseline> baseline;
  if (!load_baseline_option(baseline_dir, baseline)) return std::nullopt;
  auto fabric = load_fabric(o);
  if (!fabric) return std::nullopt;
  auto scope = device_scope(fabric->desired, limit, "");
  if (!scope) {
    std::cerr << usage_error(scope.error());
    return std::nullopt;
  }
  return ScopedFabric{std::move(*fabric), std::move(*scope), std::move(baseline)};
}

std::optional<std::set<std::string>> devices_to_read(const Fabric& fabric, const std::set<std::string>& scope,
                                                     bool live, const std::string& what) {
  std::set<std::string> needed = devices_needed(fabric.desired, scope);
  if (live && !connect_settings_complete(fabric, what + " reads every device it needs", needed)) return std::nullopt;
  return needed;
}

std::optional<TwoReadings> read_two_readings(const Fabric& fabric, const TwoReadingsOptions& o,
                                             std::set<std::string> scope, const std::string& what) {
  const auto needed = devices_to_read(fabric, scope, o.snapshots.empty(), what + " without --snapshots");
  if (!needed) return std::nullopt;
  const std::vector<std::string> names(needed->begin(), needed->end());
  // Files of inventory devices outside the scope are not warned about: only those of no device.
  std::vector<std::string> inventory;
  for (const DeviceDesired& d : fabric.desired.devices) inventory.push_back(d.name);
  TwoReadings r;
  if (!o.limit.empty()) r.scope = std::move(scope);
  Progress progress = stderr_progress(o.quiet);
  progress.phase("reading the first reading's " + std::to_string(names.size()) + " snapshots");
  r.first = read_snapshot_dir(o.since, names, inventory);
  if (o.snapshots.empty()) {
    r.second.observed = read_devices_now(fabric, names, o.live, progress, true);
  } else {
    progress.phase("reading the second reading's snapshots");
    r.second = read_snapshot_dir(o.snapshots, names, inventory);
  }
  progress.clear();
  for (const SnapshotSet* s : {&r.first, &r.second})
    for (const std::string& w : s->warnings) std::cerr << "fabricctl: warning: " << w << "\n";
  return r;
}

}  // namespace fabricctl
