// `fabricctl triage`: verify over the second reading and health between the two (cli/two_readings.h),
// sorted into suspects by triage/triage.h, most likely first. With --limit (a slow job's hosts) the
// judgement covers those devices, the switches they are cabled to and the switches those reach: a
// host's rail leaves and the spines between them.
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/two_readings.h"
#include "health/health.h"
#include "ops/verify.h"
#include "triage/triage.h"
#include "triage/triage_report.h"
#include "util/diag.h"
#include "verify/engine.h"

namespace fabricctl {

namespace po = boost::program_options;

namespace {

/// `scope` and the switches within two cables of it.
std::set<std::string> with_switches_around(const FabricDesired& desired, std::set<std::string> scope) {
  for (int hop = 0; hop < 2; ++hop)
    for (const std::string& name : devices_needed(desired, scope))
      for (const DeviceDesired& d : desired.devices)
        if (d.name == name && d.role == Role::switch_) scope.insert(name);
  return scope;
}

}  // namespace

int cmd_triage(const std::vector<std::string>& args) {
  FabricOptions o;
  TwoReadingsOptions readings;
  std::string output = "table", baseline_dir;
  po::options_description desc("triage options");
  add_fabric_options(desc, o);
  desc.add_options()("output,o", po::value(&output)->value_name("FORMAT"), "report on stdout: table (default) or json");
  add_baseline_option(desc, baseline_dir);
  add_two_readings_options(desc, readings);
  int exit = kExitOk;
  if (!parse_args(args, desc,
                  "fabricctl triage -i INVENTORY --since DIR [--snapshots DIR] [-p DIR]... [-o FORMAT] "
                  "[--limit GLOB]... [-q]",
                  exit))
    return exit;
  if (output != "table" && output != "json") {
    std::cerr << usage_error(check_choice("-o value", output, {"table", "json"}));
    return kExitInvalid;
  }
  if (const std::string e = check_two_readings_options(readings); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  auto loaded = load_scoped_fabric(o, readings.limit, baseline_dir);
  if (!loaded) return kExitInvalid;
  const Fabric* fabric = &loaded->fabric;
  std::set<std::string> scope = std::move(loaded->scope);
  if (!readings.limit.empty()) scope = with_switches_around(fabric->desired, std::move(scope));
  const auto read = read_two_readings(*fabric, readings, std::move(scope), "triage");
  if (!read) return kExitInvalid;

  std::string error;
  VerifyOptions vo;
  vo.checks = select_checks({}, error);
  // verify's scope is the devices themselves (every one without --limit), as `verify` has it.
  vo.scope = read->scope.empty() ? devices_in_scope(fabric->desired, {}) : read->scope;
  vo.needed = devices_needed(fabric->desired, vo.scope);
  vo.passes = Passes::counted;
  const VerifyReport config = ops::verify(fabric->desired, read->second.observed, std::move(vo));
  HealthOptions ho;
  ho.scope = read->scope;
  if (loaded->baseline) ho.baseline = &*loaded->baseline;
  const VerifyReport health = run_health(fabric->desired, read->first.observed, read->second.observed, ho);
  const TriageReport report = triage(config, health);
  if (output == "json") write_triage_json(report, std::cout);
  else write_triage_table(report, std::cout);
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "fabricctl: error: cannot write the report to standard output\n";
    return kExitDevice;
  }
  return triage_exit_code(report);
}

}  // namespace fabricctl
