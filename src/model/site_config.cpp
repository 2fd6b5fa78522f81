#include "model/site_config.h"

#include <system_error>

namespace fabricctl {

namespace fs = std::filesystem;

namespace {

// One directory or a list of them; relative ones are relative to `base`.
std::vector<Field<std::string>> read_dirs(const Reader& r, const YamlNode& n, std::string_view key,
                                          const fs::path& base) {
  std::vector<Field<std::string>> dirs;
  if (n.is_sequence()) {
    if (n.size() == 0) r.error(n, std::string(key) + ": must name at least one directory");
    dirs = r.string_list(n, key);
  } else {
    dirs.push_back(r.string(n, key));
  }
  std::vector<Field<std::string>> out;
  for (Field<std::string>& d : dirs) {
    if (!d.has()) continue;  // already reported
    const fs::path p(*d.value);
    d.value = (p.is_absolute() ? p : (base / p)).lexically_normal().string();
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

fs::path site_config_path(const fs::path& inventory) {
  fs::path p = inventory;
  if (!p.empty() && !p.has_filename()) p = p.parent_path();  // "inventory/" is the directory inventory
  return p.parent_path() / kSiteConfigName;
}

SiteConfig site_config_from_doc(const YamlDoc& doc, const fs::path& base, Diags& diags) {
  SiteConfig c;
  const Reader r(doc.file, diags);
  if (doc.root.is_null()) return c;  // an empty file sets nothing
  if (!r.check_map(doc.root, kSiteConfigName, {"profiles", "templates"})) return c;
  for (const YamlEntry& kv : doc.root.entries()) {
    const std::string_view k = kv.key.scalar();
    if (k == "profiles") c.profiles = read_dirs(r, kv.value, k, base);
    else if (k == "templates") c.templates = read_dirs(r, kv.value, k, base);
  }
  return c;
}

std::optional<SiteConfig> load_site_config(const fs::path& path, Diags& diags) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(path, ec))) return std::nullopt;
  auto doc = load_yaml(path, path.string(), diags);
  if (!doc) return SiteConfig{};  // the reason is in diags
  return site_config_from_doc(*doc, path.parent_path(), diags);
}

}  // namespace fabricctl
