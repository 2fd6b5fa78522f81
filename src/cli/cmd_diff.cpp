// fabricctl diff: what a change to the intent does, for a review, touching no device. Both versions
// are validated and rendered in memory; the result is the intent-level change list, the native
// files that change and their unified diff.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "render/render.h"
#include "state/intent_diff.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/line_diff.h"
#include "util/subprocess.h"
#include "util/text.h"

namespace fabricctl {

namespace {

namespace fs = std::filesystem;
namespace po = boost::program_options;

/// A revision as the user gave it may reach git: a strict character set, and never an option.
bool safe_revision(std::string_view rev) {
  if (rev.empty() || rev.size() > 200 || rev.front() == '-') return false;
  for (const char c : rev) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    std::string_view("._/~^@{}-+").find(c) != std::string_view::npos;
    if (!ok) return false;
  }
  return rev.find("..") == std::string_view::npos;
}

/// A private directory, removed with everything in it when the diff ends.
struct TempTree {
  fs::path path;
  TempTree() {
    std::string tmpl = (fs::temp_directory_path() / "fabricctl-diff-XXXXXX").string();
    if (::mkdtemp(tmpl.data())) path = tmpl;
  }
  ~TempTree() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(path, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;
};

/// Where the inputs of the base version are: paths inside the repository (`root`) map to the same
/// place under `base_root`; paths outside it (the installed profiles and templates) are shared.
std::string map_path(const std::string& path, const fs::path& root, const fs::path& base_root) {
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(path), ec);
  const fs::path rel = abs.lexically_relative(root);
  if (ec || rel.empty() || *rel.begin() == "..") return path;
  return (base_root / rel).string();
}

/// The top of the Git repository holding `path`, or nothing.
std::optional<fs::path> git_root(const std::string& path) {
  std::error_code ec;
  fs::path dir = fs::absolute(path, ec);
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  const auto top = run_command({"git", "-C", dir.string(), "rev-parse", "--show-toplevel"});
  if (!top) return std::nullopt;
  std::string t = *top;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return fs::weakly_canonical(t, ec);
}

using Files = std::map<std::string, std::string>;  // "device/file" -> content

std::optional<Files> render_all(const Fabric& fabric, const FabricOptions& o) {
  Diags diags;
  const std::vector<RenderedDevice> rendered = render_fabric(fabric.desired, o.template_paths(), diags);
  if (!diags.empty()) {
    std::cerr << diags.str();
    return std::nullopt;
  }
  Files files;
  for (const RenderedDevice& d : rendered)
    for (const Artifact& a : d.artifacts) files[d.device + "/" + a.file] = a.content;
  return files;
}

struct FileDiff {
  std::string path, status;  // status: modified, added, removed
  DiffStats stats;
  std::string patch;
};

std::vector<FileDiff> diff_files(const Files& base, const Files& head) {
  std::map<std::string, std::pair<const std::string*, const std::string*>, NaturalLess> all;
  for (const auto& [p, c] : base) all[p].first = &c;
  for (const auto& [p, c] : head) all[p].second = &c;
  std::vector<FileDiff> out;
  static const std::string kNone;
  for (const auto& [path, pair] : all) {
    const auto [a, b] = pair;
    if (a && b && *a == *b) continue;
    FileDiff f{path, !a ? "added" : !b ? "removed" : "modified", {}, {}};
    f.patch = unified_diff(a ? *a : kNone, b ? *b : kNone, a ? "a/" + path : "/dev/null", b ? "b/" + path : "/dev/null",
                           3, 1000, &f.stats);
    out.push_back(std::move(f));
  }
  return out;
}

std::string json_str(std::string_view s) { return "\"" + json_string_body(s) + "\""; }

void print_json(const std::string& base, const std::vector<ChangeGroup>& groups, const std::vector<FileDiff>& files) {
  std::cout << "{\n  \"schema\": \"fabricctl.diff/v1\",\n  \"base\": " << json_str(base) << ",\n  \"intent\": [";
  for (size_t i = 0; i < groups.size(); ++i) {
    const ChangeGroup& g = groups[i];
    std::string devices;
    for (const std::string& d : g.devices) devices += (devices.empty() ? "" : ", ") + json_str(d);
    std::cout << (i ? ",\n" : "\n") << "    {\"change\": " << json_str(describe(g)) << ", \"key\": " << json_str(g.key)
              << ", \"before\": " << (g.before.empty() ? "null" : g.before)
              << ", \"after\": " << (g.after.empty() ? "null" : g.after) << ", \"level\": \""
              << (g.ports ? "port" : "device") << "\", \"devices\": [" << devices << "], \"count\": " << g.count << "}";
  }
  std::cout << (groups.empty() ? "" : "\n  ") << "],\n  \"files\": [";
  for (size_t i = 0; i < files.size(); ++i) {
    const FileDiff& f = files[i];
    std::cout << (i ? ",\n" : "\n") << "    {\"path\": " << json_str(f.path) << ", \"status\": \"" << f.status
              << "\", \"added\": " << f.stats.added << ", \"removed\": " << f.stats.removed
              << ", \"patch\": " << json_str(f.patch) << "}";
  }
  std::cout << (files.empty() ? "" : "\n  ") << "]\n}\n";
}

void print_table(const std::vector<ChangeGroup>& groups, const std::vector<FileDiff>& files) {
  if (groups.empty() && files.empty()) {
    std::cout << "no changes\n";
    return;
  }
  std::cout << "intent: " << groups.size() << (groups.size() == 1 ? " change" : " changes") << "\n";
  for (const ChangeGroup& g : groups) std::cout << "  " << terminal_line(describe(g)) << "\n";
  size_t width = 0;
  for (const FileDiff& f : files) width = std::max(width, f.path.size());
  std::cout << "\nnative: " << files.size() << (files.size() == 1 ? " file" : " files") << " changed\n";
  for (const FileDiff& f : files) {
    std::string p = f.path;
    p.resize(width, ' ');
    std::cout << "  " << p << "  " << f.status << " +" << f.stats.added << " -" << f.stats.removed << "\n";
  }
  for (const FileDiff& f : files) std::cout << "\n" << f.patch;
}

}  // namespace

int cmd_diff(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string base_dir, base_rev, output = "table";
  po::options_description desc("diff options");
  add_fabric_options(desc, o);
  desc.add_options()("base", po::value(&base_dir)->value_name("DIR"),
                     "the base version: a checkout of the intent's repository")(
      "base-rev", po::value(&base_rev)->value_name("REV"),
      "the base version: revision REV of the Git repository holding the inventory")(
      "output,o", po::value(&output)->value_name("FORMAT"), "table (default) or json");
  int exit = kExitOk;
  if (!parse_args(
          args, desc,
          "fabricctl diff -i INVENTORY (--base DIR | --base-rev REV) [-p DIR]... [--templates DIR]... [-o FORMAT]",
          exit))
    return exit;
  if (const std::string e = check_choice("output format", output, {"table", "json"}); !e.empty()) {
    std::cerr << "fabricctl: error: -o: " << e << "\n";
    return kExitInvalid;
  }
  if (base_dir.empty() == base_rev.empty()) {
    std::cerr << "fabricctl: error: give the base version as exactly one of --base DIR and --base-rev REV\n";
    return kExitInvalid;
  }
  if (o.inventory.empty()) {
    std::cerr << "fabricctl: error: --inventory is required (e.g. -i inventory/lab)\n";
    return kExitInvalid;
  }
  std::error_code ec;
  fs::path root = fs::weakly_canonical(fs::current_path(), ec);
  const std::optional<fs::path> repo = git_root(o.inventory);  // one git call, used twice
  if (repo) root = *repo;
  TempTree tmp;
  fs::path base_root = base_dir;
  std::string base_name = base_dir;
  if (!base_rev.empty()) {
    if (!safe_revision(base_rev)) {
      std::cerr << "fabricctl: error: --base-rev " << quote(base_rev)
                << " is not a revision name (letters, digits and ._/~^@{}-+, not starting with -)\n";
      return kExitInvalid;
    }
    if (!repo) {
      std::cerr << "fabricctl: error: --base-rev needs the inventory " << quote(o.inventory)
                << " in a Git repository; give a checkout with --base DIR instead\n";
      return kExitInvalid;
    }
    if (tmp.path.empty()) {
      std::cerr << "fabricctl: error: cannot create a temporary directory for the base version\n";
      return kExitInvalid;
    }
    const fs::path tar = tmp.path / "base.tar";
    base_root = tmp.path / "tree";
    fs::create_directory(base_root, ec);
    // git archive reads the revision's tree without touching the work tree, the index or HEAD.
    if (auto a = run_command({"git", "-C", root.string(), "archive", "--format=tar", "-o", tar.string(),
                              "--end-of-options", base_rev + "^{tree}"});
        !a) {
      std::cerr << "fabricctl: error: --base-rev " << quote(base_rev) << ": " << a.error() << "\n";
      return kExitInvalid;
    }
    if (auto x = run_command({"tar", "-xf", tar.string(), "-C", base_root.string()}); !x) {
      std::cerr << "fabricctl: error: --base-rev " << quote(base_rev) << ": " << x.error() << "\n";
      return kExitInvalid;
    }
    base_name = base_rev;
  } else if (!fs::is_directory(base_root, ec)) {
    std::cerr << "fabricctl: error: --base " << quote(base_dir) << " is not a directory\n";
    return kExitInvalid;
  }
  FabricOptions base = o;
  base.inventory = map_path(o.inventory, root, base_root);
  // Directories named by flags map too; those from fabricctl.yaml are read from the base's own file,
  // and the environment and the shipped directory are the same for both.
  for (std::string& p : base.profiles) p = map_path(p, root, base_root);
  for (std::string& t : base.templates) t = map_path(t, root, base_root);

  const auto head_fabric = load_fabric(o);
  if (!head_fabric) return kExitInvalid;
  const auto base_fabric = load_fabric(base);
  if (!base_fabric) {
    std::cerr << "fabricctl: the base version (" << base_name << ") does not validate\n";
    return kExitInvalid;
  }
  const auto head_files = render_all(*head_fabric, o);
  const auto base_files = render_all(*base_fabric, base);
  if (!head_files || !base_files) {
    std::cerr << "fabricctl: rendering failed\n";
    return kExitInvalid;
  }
  const std::vector<ChangeGroup> groups = group_changes(intent_changes(base_fabric->desired, head_fabric->desired));
  const std::vector<FileDiff> files = diff_files(*base_files, *head_files);
  if (output == "json") print_json(base_name, groups, files);
  else print_table(groups, files);
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "fabricctl: error: cannot write to standard output\n";
    return kExitDevice;
  }
  // As diff(1): 0 the same, 1 different.
  return groups.empty() && files.empty() ? kExitOk : kExitFindings;
}

}  // namespace fabricctl
