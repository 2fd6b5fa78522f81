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

/// Reads every *.yaml in `dir`, resolves `extends` (unknown parents and cycles are errors) and
/// checks each profile on its own. Returns nullopt only when the directory cannot be read.
std::optional<ProfileSet> load_profiles(const std::filesystem::path& dir, Diags& diags);

/// Builds the set from already-parsed documents (for tests).
ProfileSet profiles_from_docs(const std::vector<YamlDoc>& docs, Diags& diags);

}  // namespace fabricctl
