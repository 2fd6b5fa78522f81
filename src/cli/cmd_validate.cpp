#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"

namespace fabricctl {

int cmd_validate(const std::vector<std::string>& args) {
  FabricOptions o;
  boost::program_options::options_description desc("validate options");
  add_fabric_options(desc, o);
  int exit = kExitOk;
  if (!parse_args(args, desc, "fabricctl validate -i INVENTORY [-p DIR]...", exit)) return exit;
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  size_t ports = 0;
  for (const auto& d : fabric->desired.devices) ports += d.ports.size();
  std::cout << "ok: " << fabric->desired.devices.size() << " devices, " << ports << " ports, " << fabric->links
            << " links";
  if (fabric->warnings > 0) std::cout << ", " << fabric->warnings << (fabric->warnings == 1 ? " warning" : " warnings");
  std::cout << '\n';
  return kExitOk;
}

}  // namespace fabricctl
