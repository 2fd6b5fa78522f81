#include "cli/fabric_options.h"

#include <iostream>

#include "cli/command.h"
#include "util/phase_timer.h"

namespace fabricctl {

namespace po = boost::program_options;

void add_fabric_options(po::options_description& desc, FabricOptions& o) {
  desc.add_options()("inventory,i", po::value(&o.inventory)->value_name("PATH"),
                     "inventory directory or file (required)")(
      "profiles,p", po::value(&o.profiles)->value_name("DIR")->default_value(o.profiles), "profiles directory")(
      "templates", po::value(&o.templates)->value_name("DIR")->default_value(o.templates), "templates directory");
}

std::optional<Fabric> load_fabric(const FabricOptions& o, const std::function<void(const Inventory&)>& on_inventory) {
  if (o.inventory.empty()) {
    std::cerr << "fabricctl: error: --inventory is required (e.g. -i inventory/lab)\n";
    return std::nullopt;
  }
  Diags diags;
  std::optional<ProfileSet> profiles;
  std::optional<Inventory> inventory;
  {
    const PhaseTimer t("load profiles and inventory");
    profiles = load_profiles(o.profiles, diags);
    inventory = load_inventory(o.inventory, diags);
  }
  if (on_inventory && inventory && !diags.has_errors()) on_inventory(*inventory);
  std::optional<Fabric> fabric;
  const PhaseTimer t("resolve fabric");
  if (profiles && inventory) fabric = resolve_fabric(*inventory, *profiles, diags);
  // Warnings are printed too, after the errors; only errors stop the command.
  std::cerr << diags.str();
  if (diags.has_errors()) {
    const size_t n = diags.count(DiagSeverity::error);
    std::cerr << "fabricctl: " << n << (n == 1 ? " error" : " errors") << "; nothing was changed\n";
    return std::nullopt;
  }
  if (fabric) fabric->warnings = diags.count(DiagSeverity::warning);
  return fabric;
}

}  // namespace fabricctl
