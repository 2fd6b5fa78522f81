// Options shared by every command that reads the fabric: where profiles, inventory and templates live.
#pragma once

#include <boost/program_options.hpp>

#include <functional>
#include <optional>
#include <string>

#include "model/fabric.h"

namespace fabricctl {

struct FabricOptions {
  std::string inventory;
  std::string profiles = "profiles";
  std::string templates = "templates";
};

/// Adds --inventory/-i, --profiles/-p and --templates to `desc`.
void add_fabric_options(boost::program_options::options_description& desc, FabricOptions& o);

/// Loads profiles and inventory and resolves them. Prints every error (file:line:col: message)
/// to stderr and returns nullopt if there was any. `on_inventory`, when given, is called with the
/// inventory once it has loaded without error, before the fabric is resolved: a command can start
/// work that needs only the inventory (reading snapshots) while resolution runs.
std::optional<Fabric> load_fabric(const FabricOptions& o,
                                  const std::function<void(const Inventory&)>& on_inventory = nullptr);

}  // namespace fabricctl
