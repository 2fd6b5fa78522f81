// Options shared by every command that reads the fabric: where profiles, inventory and templates
// live, and how those directories are found (docs/cli.md#where-profiles-and-templates-come-from).
#pragma once

#include <boost/program_options.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/fabric.h"
#include "model/yaml_reader.h"

namespace fabricctl {

struct FabricOptions {
  std::string inventory;
  std::vector<std::string> profiles;   // -p, repeatable
  std::vector<std::string> templates;  // --templates, repeatable
  /// Filled by load_fabric: the template directories in lookup order, the site's first and the
  /// shipped (data directory's) last; the first directory holding <platform>/<file>.mustache wins.
  std::vector<std::string> template_dirs;

  /// template_dirs as the renderer takes them.
  [[nodiscard]] std::vector<std::filesystem::path> template_paths() const {
    return {template_dirs.begin(), template_dirs.end()};
  }
};

/// Adds --inventory/-i, --profiles/-p and --templates to `desc`.
void add_fabric_options(boost::program_options::options_description& desc, FabricOptions& o);

/// A directory to read, and how it was chosen (named in messages).
struct ChosenDir {
  std::string path;
  std::string origin;    // "-p", "FABRICCTL_PROFILES", "fabricctl.yaml:2:11", "the data directory ..."
  bool shipped = false;  // the data directory's
};

/// Where one kind of directory (profiles or templates) may come from, highest precedence first.
struct DirSources {
  std::string_view flag;                         // "-p" or "--templates"
  std::vector<std::string> flag_values;          // as given, in order
  std::string_view env_name;                     // "FABRICCTL_PROFILES"
  std::optional<std::string> env_value;          // a ':'-separated list, when set
  std::vector<Field<std::string>> site;          // from fabricctl.yaml, paths already joined
  std::optional<std::filesystem::path> shipped;  // <data dir>/profiles, when it exists
  std::string shipped_origin;                    // "the data directory (beside the executable)"
};

/// The site directories from the first source that names any (flag, then environment variable,
/// then fabricctl.yaml), followed by the shipped directory unless it is one of them already.
std::vector<ChosenDir> choose_dirs(const DirSources& s);

/// What loading the fabric found wrong, for a command that reports it itself (validate -o json).
struct LoadProblems {
  std::vector<std::string> path_errors;  // a directory that cannot be used, with how it was chosen
  Diags diags;                           // every located diagnostic, warnings included
};

/// Loads profiles and inventory and resolves them, and fills `o.template_dirs`. Prints every
/// error (file:line:col: message, or a path with how it was chosen) to stderr and returns nullopt
/// if there was any; with `problems`, prints nothing and hands them over instead. `on_inventory`,
/// when given, is called with the inventory once it has loaded without error, before the fabric is
/// resolved: a command can start work that needs only the inventory (reading snapshots) while
/// resolution runs.
std::optional<Fabric> load_fabric(FabricOptions& o, const std::function<void(const Inventory&)>& on_inventory = nullptr,
                                  LoadProblems* problems = nullptr);

}  // namespace fabricctl
