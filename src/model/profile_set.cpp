#include "model/profile_set.h"

#include <algorithm>

#include "model/name_rules.h"
#include "util/spell.h"

namespace fabricctl {
namespace {

std::string stem_of(const std::string& display) { return std::filesystem::path(display).stem().string(); }

}  // namespace

std::vector<std::string> ProfileSet::names() const {
  std::vector<std::string> out;
  for (const auto& [name, src] : sources) out.push_back(name);
  return out;
}

ProfileSet profiles_from_docs(const std::vector<YamlDoc>& docs, Diags& diags) {
  ProfileSet set;
  for (const YamlDoc& doc : docs) {
    const std::string name = stem_of(*doc.file);
    const Loc file_loc{doc.file, 1, 1};
    if (!is_profile_name(name)) {
      diags.error(file_loc, "profile name " + quote(name) + " must be lowercase letters, digits, '.', '_' or '-'");
      continue;
    }
    if (const auto dup = set.sources.find(name); dup != set.sources.end()) {
      diags.error(file_loc, "profile " + quote(name) + " is also defined in " + *dup->second.loc.file);
      continue;
    }
    Reader r(doc.file, diags);
    const size_t before = diags.size();
    ProfileSource src{name, file_loc, read_layer(r, doc.root, LayerScope::profile)};
    if (diags.size() != before) set.broken.insert(name);
    set.sources.emplace(name, std::move(src));
  }

  std::vector<std::string_view> known;
  for (const auto& [name, src] : set.sources) known.push_back(name);

  for (const auto& [name, src] : set.sources) {
    // Walk up the chain, then merge from the root down so children win.
    std::vector<const ProfileSource*> chain{&src};
    bool ok = true;
    while (chain.back()->layer.extends.has()) {
      const Field<std::string>& parent = chain.back()->layer.extends;
      const auto it = set.sources.find(*parent);
      if (it == set.sources.end()) {
        std::string msg = "extends: unknown profile " + quote(*parent);
        msg += did_you_mean(*parent, known);
        diags.error(parent.loc, msg);
        ok = false;
        break;
      }
      if (std::find(chain.begin(), chain.end(), &it->second) != chain.end()) {
        diags.error(parent.loc, chain.size() == 1 ? "extends: profile " + quote(name) + " extends itself"
                                                  : "extends: profile " + quote(*parent) + " extends itself through " +
                                                        quote(chain.back()->name));
        ok = false;
        break;
      }
      chain.push_back(&it->second);
    }
    for (const ProfileSource* s : chain) ok = ok && !set.broken.count(s->name);
    if (!ok) {
      set.broken.insert(name);  // its own or a parent's errors are reported once, at their source
      continue;
    }
    ProfileLayer merged;
    bool removed_all = true;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const ProfileLayer& layer = (*it)->layer;
      // A null that removes nothing is an error like an unknown key: its author expected an entry
      // that is not there (a mistyped key, another parent), and the one meant stays in force.
      for (const StrayRemoval& s : merged.merge(layer)) {
        diags.error(s.loc, s.entry + " removes nothing: " +
                               (layer.extends.has() ? "its parent profile " + quote(*layer.extends) + " does not set it"
                                                    : "profile " + quote((*it)->name) + " extends no profile"));
        removed_all = false;
      }
    }
    if (!make_intent(merged, src.loc, "profile " + quote(name), diags) || !removed_all) set.broken.insert(name);
    set.merged.emplace(name, std::move(merged));
  }
  return set;
}

namespace {

// The *.yaml files of one directory, or nullopt (reported) when it cannot be read.
std::optional<std::vector<std::filesystem::path>> profile_files(const std::filesystem::path& dir, Diags& diags) {
  std::error_code ec;
  const auto status = std::filesystem::status(dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    // A symlink loop or a permission problem: say which, about the path the user gave.
    diags.error({std::make_shared<const std::string>(dir.string()), 0, 0},
                "cannot read: " + printable(ec.message(), 200));
    return std::nullopt;
  }
  if (!std::filesystem::is_directory(status)) {
    diags.error({std::make_shared<const std::string>(dir.string()), 0, 0}, "not a directory of profiles");
    return std::nullopt;
  }
  return yaml_files_in(dir, diags);
}

}  // namespace

std::optional<ProfileSet> load_profiles(const std::vector<ProfileDir>& dirs, Diags& diags) {
  std::vector<std::vector<std::filesystem::path>> files;
  bool readable = true;
  for (const ProfileDir& d : dirs) {
    auto f = profile_files(d.path, diags);
    readable = readable && f.has_value();
    files.push_back(f ? std::move(*f) : std::vector<std::filesystem::path>{});
  }
  if (!readable) return std::nullopt;
  // Site profiles first, whatever the order given, so that a shipped file they replace is skipped.
  std::set<std::string> site_names;
  for (size_t i = 0; i < dirs.size(); ++i)
    if (!dirs[i].shipped)
      for (const auto& f : files[i]) site_names.insert(f.stem().string());
  std::vector<YamlDoc> docs;
  for (size_t i = 0; i < dirs.size(); ++i)
    for (const auto& f : files[i]) {
      if (dirs[i].shipped && site_names.count(f.stem().string())) continue;
      if (auto doc = load_yaml(f, (dirs[i].path / f.filename()).string(), diags)) docs.push_back(std::move(*doc));
      else diags.fail(profile_entity(f.stem().string()));  // devices naming it: not "unknown profile"
    }
  return profiles_from_docs(docs, diags);
}

std::optional<ProfileSet> load_profiles(const std::filesystem::path& dir, Diags& diags) {
  return load_profiles(std::vector<ProfileDir>{{dir, false}}, diags);
}

}  // namespace fabricctl
