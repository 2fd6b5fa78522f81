#include "cli/fabric_options.h"

#include <cstdlib>
#include <iostream>
#include <system_error>

#include "cli/command.h"
#include "model/profile_set.h"
#include "model/site_config.h"
#include "util/data_dir.h"
#include "util/phase_timer.h"

#ifndef FABRICCTL_DATADIR
#define FABRICCTL_DATADIR ""
#endif

namespace fabricctl {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// The data directory: a marker beside the binary (the build tree's), <exe>/../share/fabricctl (an
// installed tree, wherever it was moved), then the prefix the binary was built for.
const DataDirRule kDataDirRule{"fabricctl.datadir", "../share/fabricctl", FABRICCTL_DATADIR};

bool same_dir(const std::string& a, const fs::path& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read before any thread starts
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

// "profiles directory "x" (from -p) does not exist", or "" when `d` is a directory (or cannot be
// examined at all: the loader then says why, about the same path).
std::string dir_problem(std::string_view kind, const ChosenDir& d) {
  std::error_code ec;
  const auto st = fs::status(d.path, ec);
  const std::string what = std::string(kind) + " directory " + quote(d.path) + " (from " + d.origin + ")";
  if (st.type() == fs::file_type::not_found) return what + " does not exist";
  if (!ec && !fs::is_directory(st)) return what + " is not a directory";
  return "";
}

std::string none_found(std::string_view kind, std::string_view flag, std::string_view env_name) {
  std::string looked;
  for (const fs::path& p : data_dir_candidates(executable_path(), kDataDirRule))
    looked += (looked.empty() ? "" : ", ") + quote(p.string());
  return "no " + std::string(kind) + " directory: give " + std::string(flag) + " DIR, set " + std::string(env_name) +
         " or name " + std::string(kind) + ": in " + std::string(kSiteConfigName) +
         " beside the inventory; no data directory was found (looked in " + looked + ")";
}

struct Resolved {
  std::vector<ChosenDir> profiles;
  std::vector<ChosenDir> templates;
  std::vector<std::string> errors;  // printed as "fabricctl: error: ..."
};

Resolved resolve_dirs(const FabricOptions& o, const std::optional<SiteConfig>& site) {
  const auto data = find_data_dir(executable_path(), kDataDirRule);
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  auto shipped = [&](const char* sub) -> std::optional<fs::path> {
    if (!data || !fs::is_directory(data->path / sub, ec)) return std::nullopt;
    return display_path(data->path / sub, cwd);
  };
  const std::string origin = data ? "the data directory, " + data->how : "";
  Resolved r;
  r.profiles = choose_dirs({"-p", o.profiles, "FABRICCTL_PROFILES", env("FABRICCTL_PROFILES"),
                            site ? site->profiles : std::vector<Field<std::string>>{}, shipped("profiles"), origin});
  r.templates = choose_dirs({"--templates", o.templates, "FABRICCTL_TEMPLATES", env("FABRICCTL_TEMPLATES"),
                             site ? site->templates : std::vector<Field<std::string>>{}, shipped("templates"), origin});
  for (const auto& [kind, dirs] : {std::pair{"profiles", &r.profiles}, std::pair{"templates", &r.templates}})
    for (const ChosenDir& d : *dirs)
      if (std::string p = dir_problem(kind, d); !p.empty()) r.errors.push_back(std::move(p));
  if (r.profiles.empty()) r.errors.push_back(none_found("profiles", "-p", "FABRICCTL_PROFILES"));
  if (r.templates.empty()) r.errors.push_back(none_found("templates", "--templates", "FABRICCTL_TEMPLATES"));
  return r;
}

}  // namespace

void add_fabric_options(po::options_description& desc, FabricOptions& o) {
  desc.add_options()("inventory,i", po::value(&o.inventory)->value_name("PATH"),
                     "inventory directory or file (required)")(
      "profiles,p", po::value(&o.profiles)->value_name("DIR")->composing(),
      "profiles directory; repeatable (default: FABRICCTL_PROFILES, fabricctl.yaml, the shipped profiles)")(
      "templates", po::value(&o.templates)->value_name("DIR")->composing(),
      "templates directory; repeatable, first wins (default: FABRICCTL_TEMPLATES, fabricctl.yaml, the shipped "
      "templates)");
}

std::vector<ChosenDir> choose_dirs(const DirSources& s) {
  std::vector<ChosenDir> out;
  if (!s.flag_values.empty()) {
    for (const std::string& v : s.flag_values) out.push_back({v, std::string(s.flag)});
  } else if (s.env_value) {
    for (std::string& v : split_path_list(*s.env_value)) out.push_back({std::move(v), std::string(s.env_name)});
  } else {
    for (const Field<std::string>& f : s.site) out.push_back({*f.value, f.loc.str()});
  }
  if (s.shipped) {
    bool chosen = false;
    for (const ChosenDir& d : out) chosen = chosen || same_dir(d.path, *s.shipped);
    if (!chosen) out.push_back({s.shipped->string(), s.shipped_origin, true});
  }
  return out;
}

std::optional<Fabric> load_fabric(FabricOptions& o, const std::function<void(const Inventory&)>& on_inventory,
                                  LoadProblems* problems) {
  if (o.inventory.empty()) {
    std::cerr << "fabricctl: error: --inventory is required (e.g. -i inventory/lab)\n";
    return std::nullopt;
  }
  Diags diags;
  std::optional<ProfileSet> profiles;
  std::optional<Inventory> inventory;
  Resolved dirs;
  {
    const PhaseTimer t("load profiles and inventory");
    const auto site = load_site_config(site_config_path(o.inventory), diags);
    dirs = resolve_dirs(o, site);
    std::vector<ProfileDir> profile_dirs;
    for (const ChosenDir& d : dirs.profiles) profile_dirs.push_back({d.path, d.shipped});
    for (const ChosenDir& d : dirs.templates) o.template_dirs.push_back(d.path);
    if (dirs.errors.empty() && !diags.has_errors()) profiles = load_profiles(profile_dirs, diags);
    inventory = load_inventory(o.inventory, diags);
  }
  if (on_inventory && inventory && !diags.has_errors() && dirs.errors.empty()) on_inventory(*inventory);
  std::optional<Fabric> fabric;
  const PhaseTimer t("resolve fabric");
  if (profiles && inventory) fabric = resolve_fabric(*inventory, *profiles, diags);
  const bool failed = diags.has_errors() || !dirs.errors.empty();
  if (fabric) fabric->warnings = diags.count(DiagSeverity::warning);
  if (problems != nullptr) {
    problems->path_errors = std::move(dirs.errors);
    problems->diags = std::move(diags);
    if (failed) return std::nullopt;
    return fabric;
  }
  // Path errors first (nothing else could be read without them), then every diagnostic: warnings
  // are printed too, after the errors; only errors stop the command.
  for (const std::string& e : dirs.errors) std::cerr << "fabricctl: error: " << e << "\n";
  std::cerr << diags.str();
  if (failed) {
    const size_t n = diags.count(DiagSeverity::error) + dirs.errors.size();
    std::cerr << "fabricctl: " << n << (n == 1 ? " error" : " errors") << "; nothing was changed\n";
    return std::nullopt;
  }
  return fabric;
}

}  // namespace fabricctl
