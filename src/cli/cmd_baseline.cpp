// `fabricctl baseline save`: the fabric's normal, saved (health/baseline.h): every counter's rise between
// two readings of a healthy fabric, and the second reading's state, for `health --baseline` and
// `triage --baseline` to judge against later.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/two_readings.h"
#include "health/health.h"
#include "ops/clock.h"
#include "state/snapshot.h"
#include "util/escape.h"
#include "verify/engine.h"

namespace fabricctl {

namespace po = boost::program_options;

namespace {

constexpr const char* kUsage =
    "fabricctl baseline save -i INVENTORY --since DIR [--snapshots DIR] --out DIR [-p DIR]... [--limit GLOB]... [-q]";

int save(const std::vector<std::string>& args) {
  FabricOptions o;
  TwoReadingsOptions readings;
  std::string out;
  po::options_description desc("baseline save options");
  add_fabric_options(desc, o);
  desc.add_options()("out", po::value(&out)->value_name("DIR"),
                     "where to write baseline.json and the second reading's snapshots (required)");
  add_two_readings_options(desc, readings);
  int exit = kExitOk;
  if (!parse_args(args, desc, kUsage, exit)) return exit;
  if (out.empty()) {
    std::cerr << usage_error("--out DIR is required: where the baseline goes");
    return kExitInvalid;
  }
  if (const std::string e = check_two_readings_options(readings); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  auto loaded = load_scoped_fabric(o, readings.limit);
  if (!loaded) return kExitInvalid;
  const Fabric* fabric = &loaded->fabric;
  const auto read = read_two_readings(*fabric, readings, std::move(loaded->scope), "baseline save");
  if (!read) return kExitInvalid;

  Baseline b = baseline_between(read->first.observed, read->second.observed);
  b.saved_at = ops::utc_text(std::chrono::system_clock::now());
  HealthOptions ho;
  ho.scope = read->scope;
  const VerifyReport health = run_health(fabric->desired, read->first.observed, read->second.observed, ho);
  b.findings = health.results.size();
  for (const auto& [device, why] : health.unreadable)
    std::cerr << "fabricctl: " << terminal_line(device) << ": not in the baseline: " << terminal_line(why) << "\n";
  if (b.findings > 0)
    std::cerr << "fabricctl: warning: health has " << b.findings
              << " finding(s) in this window: the baseline takes a sick fabric's rates for normal (`fabricctl health` "
                 "with the same readings names them)\n";

  if (auto w = save_baseline(b, read->second.observed, out); !w) {
    std::cerr << "fabricctl: error: " << w.error() << "\n";
    return kExitInvalid;
  }
  if (!readings.quiet)
    std::cout << "saved the baseline of " << b.devices.size() << " devices (" << b.first_reading << " to "
              << b.second_reading << ") into " << out << "\n";
  return health.unreadable.empty() ? kExitOk : kExitDevice;
}

}  // namespace

int cmd_baseline(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() == "save") return save({args.begin() + 1, args.end()});
  if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
    std::cout << "usage: " << kUsage << "\n";
    return kExitOk;
  }
  std::cerr << "fabricctl: error: "
            << (args.empty() ? "fabricctl baseline needs a subcommand"
                             : "unknown baseline subcommand \"" + terminal_line(args.front()) + "\"")
            << "; the one there is: save\nusage: " << kUsage << "\n";
  return kExitInvalid;
}

}  // namespace fabricctl
