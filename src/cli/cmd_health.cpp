// `fabricctl health`: the fabric's counters judged as rates between two readings (health/health.h):
// a saved one (--since DIR, snapshots a collect wrote) and a second one, saved too (--snapshots DIR) or
// read from the devices now (cli/two_readings.h).
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/color.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/report_outputs.h"
#include "cli/two_readings.h"
#include "health/health.h"
#include "util/diag.h"
#include "verify/engine.h"

namespace fabricctl {

namespace po = boost::program_options;

int cmd_health(const std::vector<std::string>& args) {
  FabricOptions o;
  TwoReadingsOptions readings;
  std::string output = "table", color = "auto", baseline_dir;
  po::options_description desc("health options");
  add_fabric_options(desc, o);
  desc.add_options()("output,o", po::value(&output)->value_name("FORMAT"),
                     "report on stdout: table (default), json, junit, prometheus or html")(
      "color", po::value(&color)->value_name("WHEN"), "colour the table: auto (default), always, never")(
      "baseline", po::value(&baseline_dir)->value_name("DIR"),
      "also judge every counter against the fabric's normal that `baseline save --out DIR` wrote");
  add_two_readings_options(desc, readings);
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
  if (const std::string e = check_two_readings_options(readings); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  std::optional<Baseline> baseline;
  if (!baseline_dir.empty() && !(baseline = load_baseline_or_say(baseline_dir))) return kExitInvalid;
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  std::set<std::string> scope = devices_in_scope(fabric->desired, readings.limit);
  if (scope.empty()) {
    std::cerr << usage_error("--limit matches no device or group");
    return kExitInvalid;
  }
  const auto read = read_two_readings(*fabric, readings, std::move(scope), "health");
  if (!read) return kExitInvalid;

  HealthOptions options;
  options.scope = read->scope;
  if (baseline) options.baseline = &*baseline;
  VerifyReport report = run_health(fabric->desired, read->first.observed, read->second.observed, options);
  report.ran_at = std::chrono::system_clock::now();
  ReportStyle style;
  style.color = use_color(*color_when, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
  style.fabric = &fabric->desired;
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
