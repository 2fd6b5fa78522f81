// `fabricctl health`: the fabric's counters judged as rates between two readings (health/health.h):
// a saved one (--since DIR, snapshots a collect wrote) and a second one, saved too (--snapshots DIR) or
// read from the devices now.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/color.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/progress.h"
#include "cli/read_options.h"
#include "cli/report_outputs.h"
#include "health/health.h"
#include "state/snapshot.h"
#include "util/diag.h"
#include "verify/engine.h"

namespace fabricctl {

namespace po = boost::program_options;

int cmd_health(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string since, snapshots, output = "table", color = "auto";
  std::vector<std::string> limit;
  bool quiet = false;
  ReadOptions live;
  po::options_description desc("health options");
  add_fabric_options(desc, o);
  desc.add_options()("since", po::value(&since)->value_name("DIR"),
                     "the first reading: snapshot files DIR/<device>.json a collect wrote (required)")(
      "snapshots,s", po::value(&snapshots)->value_name("DIR"),
      "the second reading, saved too (without it: read the devices now)")(
      "output,o", po::value(&output)->value_name("FORMAT"),
      "report on stdout: table (default), json, junit or prometheus")(
      "color", po::value(&color)->value_name("WHEN"), "colour the table: auto (default), always, never")(
      "limit,l", po::value(&limit)->value_name("GLOB")->composing(),
      "only devices (or groups) matching GLOB; repeatable")("quiet,q", po::bool_switch(&quiet),
                                                            "no progress on stderr; errors are still printed");
  po::options_description live_desc("reading the devices (without --snapshots)");
  add_read_options(live_desc, live);
  desc.add(live_desc);
  int exit = kExitOk;
  if (!parse_args(
          args, desc,
          "fabricctl health -i INVENTORY --since DIR [--snapshots DIR] [-p DIR]... [-o FORMAT] [--limit GLOB]... "
          "[-q]",
          exit))
    return exit;
  const auto format = parse_report_format(output);
  if (!format) {
    std::cerr << usage_error("-o: " + format.error());
    return kExitInvalid;
  }
  const auto color_when = parse_color_when(color);
  if (!color_when) {
    std::cerr << usage_error(check_choice("--color value", color, {"auto", "always", "never"}));
    return kExitInvalid;
  }
  if (const std::string e = check_read_options(live); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  std::error_code ec;
  if (since.empty()) {
    std::cerr << usage_error("--since DIR is required: the first reading (a collect's snapshots) to judge against");
    return kExitInvalid;
  }
  for (const std::string& dir : {since, snapshots})
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
      std::cerr << usage_error(quote(dir) + " is not a directory");
      return kExitInvalid;
    }
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  HealthOptions options;
  options.scope = devices_in_scope(fabric->desired, limit);
  if (options.scope.empty()) {
    std::cerr << usage_error("--limit matches no device or group");
    return kExitInvalid;
  }
  // A link's two ends are judged together: the far ends of the scope's links are read too.
  const std::set<std::string> needed = devices_needed(fabric->desired, options.scope);
  const std::vector<std::string> names(needed.begin(), needed.end());
  if (snapshots.empty() &&
      !connect_settings_complete(*fabric, "health without --snapshots reads every device it needs", needed))
    return kExitInvalid;
  if (limit.empty()) options.scope.clear();

  Progress progress = stderr_progress(quiet);
  progress.phase("reading the first reading's " + std::to_string(names.size()) + " snapshots");
  const SnapshotSet first = read_snapshot_dir(since, names);
  SnapshotSet second;
  if (snapshots.empty()) {
    second.observed = read_devices_now(*fabric, names, live, progress);
  } else {
    progress.phase("reading the second reading's snapshots");
    second = read_snapshot_dir(snapshots, names);
  }
  progress.clear();
  for (const SnapshotSet* s : {&first, static_cast<const SnapshotSet*>(&second)})
    for (const std::string& w : s->warnings) std::cerr << "fabricctl: warning: " << w << "\n";

  VerifyReport report = run_health(fabric->desired, first.observed, second.observed, options);
  report.ran_at = std::chrono::system_clock::now();
  ReportStyle style;
  style.color = use_color(*color_when, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
  for (const auto& [device, why] : report.unreadable) std::cerr << "fabricctl: " << device << ": " << why << "\n";
  write_report(report, *format, style, std::cout);
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "fabricctl: error: cannot write the report to standard output\n";
    return kExitDevice;
  }
  return verify_exit_code(report);
}

}  // namespace fabricctl
