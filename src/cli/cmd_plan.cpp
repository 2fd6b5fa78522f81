// fabricctl plan: reads the devices (or what a collect saved), compares them with the intent and
// prints, per device, exactly the native change apply would make; --out saves it for `apply --plan`.
#include <iostream>
#include <memory>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/plan_inputs.h"
#include "cli/plan_report.h"
#include "cli/progress.h"
#include "ops/plan_file.h"
#include "ops/plan_json.h"
#include "render/staged_output.h"
#include "util/diag.h"
#include "util/escape.h"

namespace fabricctl {

namespace po = boost::program_options;

int cmd_plan(const std::vector<std::string>& args) {
  FabricOptions o;
  PlanInputs in;
  std::string output = "table", out_dir;
  bool detailed = false, quiet = false;
  po::options_description desc("plan options");
  add_fabric_options(desc, o);
  desc.add_options()("output,o", po::value(&output)->value_name("FORMAT"),
                     "table (default: devices, then each native change), summary (the devices only), native (only "
                     "the changes) or json")("out", po::value(&out_dir)->value_name("DIR"),
                                             "save the plan in DIR for `fabricctl apply --plan DIR`")(
      "detailed-exitcode", po::bool_switch(&detailed),
      "exit 0 when nothing would change, 1 when something would, 3 when a device failed")(
      "quiet,q", po::bool_switch(&quiet), "no progress on stderr");
  add_plan_inputs(desc, in);
  int exit = kExitOk;
  if (!parse_args(args, desc,
                  "fabricctl plan -i INVENTORY [-p DIR]... [--limit GLOB]... [--from-raw RAWDIR | --snapshots DIR] "
                  "[-o table|summary|native|json] [--out DIR] [--detailed-exitcode]",
                  exit))
    return exit;
  if (const std::string e = check_choice("-o", output, {"table", "summary", "native", "json"}); !e.empty()) {
    std::cerr << "fabricctl: error: " << e << "\n";
    return kExitInvalid;
  }
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  const auto scope = plan_scope(*fabric, in);
  if (!scope) return kExitInvalid;
  // The plan is saved into a directory beside DIR that replaces it whole at the end: DIR never holds
  // one plan's plan.json beside another's device files, and a directory that is not a saved plan is
  // refused before any device is read.
  std::unique_ptr<StagedOutput> staged;
  if (!out_dir.empty()) {
    auto opened = StagedOutput::open(out_dir, kPlanOutput);
    if (!opened) {
      std::cerr << "fabricctl: error: " << opened.error() << "\n";
      return kExitInvalid;
    }
    staged = std::move(*opened);
  }
  Progress progress = stderr_progress(quiet);
  const auto connector = connector_of(in.read);
  ops::Context ctx{*connector, progress};
  const ops::PlannedFabric planned = ops::read_and_plan(*fabric, scope->scope, scope->how, ctx);
  progress.clear();
  const ops::FabricPlan& plan = planned.plan;
  for (const ops::DevicePlan& d : plan.devices)
    if (d.failed()) std::cerr << "fabricctl: " << d.device << ": " << terminal_line(d.error) << "\n";
  if (staged) {
    auto saved = ops::save_plan(plan, staged->stage());
    if (saved) saved = staged->commit();
    if (!saved) {
      std::cerr << "fabricctl: error: " << saved.error() << "\n";
      return kExitDevice;
    }
  }
  if (output == "json") std::cout << ops::plan_json(plan, false).dump(2) << "\n";
  else if (output == "native") write_plan_native(plan, std::cout);
  else write_plan_table(plan, std::cout, output == "summary" ? PlanChanges::left_out : PlanChanges::shown);
  if (!out_dir.empty() && output != "json")
    std::cout << "Saved the plan in " << out_dir << ": `fabricctl apply -i " << o.inventory << " --plan " << out_dir
              << "` applies exactly it.\n";
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "fabricctl: error: cannot write the plan to standard output\n";
    return kExitDevice;
  }
  const int code = plan_exit_code(plan);
  if (detailed) return code;
  return code == kExitDevice ? kExitDevice : kExitOk;
}

}  // namespace fabricctl
