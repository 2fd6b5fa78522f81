// Loading profiles/*.yaml and resolving `extends`.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "model/intent.h"
#include "model/profile.h"

namespace fabricctl {

struct ProfileSet {
  std::map<std::string, ProfileSource> sources;  // by name (file stem)
  std::map<std::string, ProfileLayer> merged;    // `extends` chain applied, parent first
  std::set<std::string> broken;                  // profiles with errors (already reported)

  [[nodiscard]] std::vector<std::string> names() const;
};

/// One directory of profiles.
struct ProfileDir {
  std::filesystem::path path;  // as messages show it
  /// The installed (shipped) profiles: a profile of the same name in a site directory replaces the
  /// shipped file, which is then not read. Two site directories defining one name is an error.
  bool shipped = false;
};

/// Reads every *.yaml in every directory of `dirs` into one set, resolves `extends` across all of
/// them (unknown parents and cycles are errors) and checks each profile on its own. A name defined
/// in two site directories is an error naming both files. Returns nullopt only when a directory
/// cannot be read.
std::optional<ProfileSet> load_profiles(const std::vector<ProfileDir>& dirs, Diags& diags);

/// The same, for one site directory.
std::optional<ProfileSet> load_profiles(const std::filesystem::path& dir, Diags& diags);

/// Builds the set from already-parsed documents (for tests).
ProfileSet profiles_from_docs(const std::vector<YamlDoc>& docs, Diags& diags);

}  // namespace fabricctl
