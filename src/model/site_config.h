// fabricctl.yaml: a site repository's settings, read from beside its inventory. It names the
// site's profile and template directories (relative to the file), so that commands run in the
// repository need no -p or --templates.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/yaml_reader.h"

namespace fabricctl {

/// The file name looked for beside the inventory.
inline constexpr std::string_view kSiteConfigName = "fabricctl.yaml";

/// A site's settings. Each directory keeps where it was written; its value is already joined with
/// the directory of the file (an absolute path stays as written).
struct SiteConfig {
  std::vector<Field<std::string>> profiles;   // profiles: DIR or [DIR, ...]
  std::vector<Field<std::string>> templates;  // templates: DIR or [DIR, ...]
};

/// Where fabricctl.yaml sits for an inventory given as `inventory` (a directory or a file): in
/// the directory that holds it ("inventory/lab" -> "inventory/fabricctl.yaml", "site.yaml" ->
/// "fabricctl.yaml"). A trailing '/' does not count as a level.
std::filesystem::path site_config_path(const std::filesystem::path& inventory);

/// Reads fabricctl.yaml at `path` when it exists (nullopt, and no error, when it does not).
/// Unknown keys, wrong types and empty lists are located errors.
std::optional<SiteConfig> load_site_config(const std::filesystem::path& path, Diags& diags);

/// The same, from a parsed document whose relative paths are relative to `base`.
SiteConfig site_config_from_doc(const YamlDoc& doc, const std::filesystem::path& base, Diags& diags);

}  // namespace fabricctl
