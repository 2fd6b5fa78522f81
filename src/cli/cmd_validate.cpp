#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/validate_json.h"

namespace fabricctl {

namespace {

constexpr const char* kUsage = "fabricctl validate -i INVENTORY [-p DIR]... [-o table|json]";

ValidateCounts counts_of(const Fabric& fabric) {
  ValidateCounts c;
  c.devices = fabric.desired.devices.size();
  for (const auto& d : fabric.desired.devices) c.ports += d.ports.size();
  c.links = fabric.links;
  return c;
}

}  // namespace

int cmd_validate(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string output = "table";
  boost::program_options::options_description desc("validate options");
  add_fabric_options(desc, o);
  desc.add_options()("output,o", boost::program_options::value(&output)->value_name("FORMAT"),
                     "table (default: the diagnostics on stderr, a summary line on stdout) or json (everything "
                     "on stdout, schema fabricctl.validate/v1)");
  int exit = kExitOk;
  if (!parse_args(args, desc, kUsage, exit)) return exit;
  if (const std::string e = check_choice("output format", output, {"table", "json"}); !e.empty()) {
    std::cerr << "fabricctl: error: " << e << "\nusage: " << kUsage << "\n";
    return kExitInvalid;
  }
  if (output == "json" && !o.inventory.empty()) {
    LoadProblems problems;
    const auto fabric = load_fabric(o, nullptr, &problems);
    std::optional<ValidateCounts> counts;
    if (fabric) counts = counts_of(*fabric);
    std::cout << validate_json(o.inventory, problems.path_errors, problems.diags, counts);
    return fabric ? kExitOk : kExitInvalid;
  }
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  const ValidateCounts c = counts_of(*fabric);
  std::cout << "ok: " << c.devices << " devices, " << c.ports << " ports, " << c.links << " links";
  if (fabric->warnings > 0) std::cout << ", " << fabric->warnings << (fabric->warnings == 1 ? " warning" : " warnings");
  std::cout << '\n';
  return kExitOk;
}

}  // namespace fabricctl
