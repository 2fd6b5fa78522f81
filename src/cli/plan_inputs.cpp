#include "cli/plan_inputs.h"

#include <filesystem>
#include <iostream>

#include "cli/device_scope.h"
#include "util/diag.h"
#include "verify/engine.h"

namespace fabricctl {

void add_plan_inputs(boost::program_options::options_description& desc, PlanInputs& in, bool offline) {
  namespace po = boost::program_options;
  desc.add_options()("limit,l", po::value(&in.limit)->value_name("GLOB")->composing(),
                     "only devices (or groups) matching GLOB; repeatable");
  if (offline)
    desc.add_options()("from-raw", po::value(&in.from_raw)->value_name("RAWDIR"),
                       "plan from RAWDIR/<device>/ (outputs a collect saved) instead of reading the devices")(
        "snapshots,s", po::value(&in.snapshots)->value_name("DIR"),
        "plan from a directory `fabricctl collect --out DIR` wrote (its raw/ outputs)");
  add_shard_option(desc, in.shard);
  po::options_description live(offline ? "reading the devices (without --from-raw or --snapshots)"
                                       : "reading the devices");
  add_read_options(live, in.read);
  desc.add(live);
}

std::optional<PlanScope> plan_scope(const Fabric& fabric, const PlanInputs& in) {
  if (const std::string e = check_read_options(in.read); !e.empty()) {
    std::cerr << "fabricctl: error: " << e << "\n";
    return std::nullopt;
  }
  if (!in.from_raw.empty() && !in.snapshots.empty()) {
    std::cerr << "fabricctl: error: give --from-raw or --snapshots, not both\n";
    return std::nullopt;
  }
  std::string raw_dir = in.from_raw;
  if (!in.snapshots.empty()) raw_dir = (std::filesystem::path(in.snapshots) / "raw").string();
  std::error_code ec;
  if (!raw_dir.empty() && !std::filesystem::is_directory(raw_dir, ec)) {
    std::cerr << "fabricctl: error: " << quote(raw_dir) << " is not a directory"
              << (in.snapshots.empty() ? "" : " (--snapshots takes what `fabricctl collect --out` wrote)") << "\n";
    return std::nullopt;
  }
  PlanScope p;
  auto scope = device_scope(fabric.desired, in.limit, in.shard);
  if (!scope) {
    std::cerr << "fabricctl: error: " << scope.error() << "\n";
    return std::nullopt;
  }
  p.scope = std::move(*scope);
  const std::set<std::string> needed = devices_needed(fabric.desired, p.scope);
  if (raw_dir.empty() && !connect_settings_complete(fabric, "plan and apply read every device first", needed))
    return std::nullopt;
  p.how.jobs = in.read.jobs;
  p.how.counters = false;  // plan and apply judge state, not counters
  if (!raw_dir.empty()) p.how.from_raw = raw_dir;
  return p;
}

}  // namespace fabricctl
