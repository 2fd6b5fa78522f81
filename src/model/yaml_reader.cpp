#include "model/yaml_reader.h"

#include <algorithm>
#include <fstream>
#include <span>
#include <unordered_set>

#include "util/spell.h"
#include "util/text.h"

namespace fabricctl {
namespace {

std::string describe(const YamlNode& n) {
  if (n.is_null()) return "nothing";
  if (n.is_sequence()) return "a list";
  if (n.is_map()) return "a mapping";
  return quote(n.scalar());
}

/// The node at which aliases make the document larger than `limit` nodes, if they do. An alias
/// shares its anchor's node instead of copying it, so the tree stays small, but every reader walks
/// the expanded tree: ten nested aliases of ten items each are 10^10 values. Stops counting at the
/// limit, so the cost is at most `limit` steps; returns where the walk was when it crossed it.
const YamlNode* expands_beyond(const YamlNode& root, size_t limit) {
  std::vector<const YamlNode*> stack{&root};
  size_t seen = 0;
  while (!stack.empty()) {
    const YamlNode* n = stack.back();
    stack.pop_back();
    if (++seen > limit) return n;
    for (const YamlNode& item : n->items()) stack.push_back(&item);
    for (const YamlEntry& e : n->entries()) {
      stack.push_back(&e.key);
      stack.push_back(&e.value);
    }
  }
  return nullptr;
}

/// The 1-based column of the first tab in the indentation of line `line` (1-based) of `text`, or 0.
/// YAML forbids tabs there, and a parser's message about them ("invalid indentation", a column past
/// the tab) rarely says so in words a person recognises: an editor's tab looks like spaces.
int tab_in_indentation(std::string_view text, int line) {
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return 0;
    ++start;
  }
  for (size_t i = start; i < text.size() && (text[i] == ' ' || text[i] == '\t'); ++i)
    if (text[i] == '\t') return static_cast<int>(i - start) + 1;
  return 0;
}

std::optional<YamlDoc> parse_text(const std::string& text, const std::string& display_name, Diags& diags) {
  auto file = std::make_shared<const std::string>(display_name);
  Expected<YamlTree, YamlError> parsed = parse_yaml_tree(text, kMaxYamlDepth);
  if (!parsed) {
    const YamlError& e = parsed.error();
    // The error is on the line with the tab, or, when the parser speaks of indentation, on the
    // line after it (a key indented by a tab may be found wrong only at what follows).
    const bool indentation =
        e.message.find("tab") != std::string::npos || e.message.find("indent") != std::string::npos;
    for (int line : {e.line, e.line - 1}) {
      if (line <= 0 || (line != e.line && !indentation)) continue;
      if (const int col = tab_in_indentation(text, line)) {
        diags.error({file, line, col}, "tab character in indentation; YAML indents with spaces", DiagClass::read);
        diags.fail(file_entity(display_name));
        return std::nullopt;
      }
    }
    diags.error({file, e.line, e.col}, "invalid YAML: " + e.message, DiagClass::read);
    diags.fail(file_entity(display_name));
    return std::nullopt;
  }
  auto tree = std::make_shared<const YamlTree>(std::move(parsed).value());
  // Without an anchor ('&') there is no alias to expand: real inventories skip the walk.
  if (text.find('&') != std::string::npos) {
    const size_t limit = std::max(kMinYamlNodeLimit, text.size());
    if (const YamlNode* n = expands_beyond(tree->root(), limit)) {
      diags.error({file, n->line(), n->col()},
                  "YAML aliases expand this file to more than " + std::to_string(limit) +
                      " values (the limit is one per byte of the file, at least " + std::to_string(kMinYamlNodeLimit) +
                      ")",
                  DiagClass::read);
      diags.fail(file_entity(display_name));
      return std::nullopt;
    }
  }
  const YamlNode root = tree->root();
  return YamlDoc{file, std::move(tree), root};
}

}  // namespace

std::string file_entity(std::string_view display_name) { return "file:" + std::string(display_name); }

std::string key_path(std::string_view parent, std::string_view key) {
  // Keys are names the user wrote (devices, ports): they reach messages, so never raw.
  constexpr size_t kMaxKeyShown = 80;  // bytes
  if (parent.empty()) return printable(key, kMaxKeyShown);
  return std::string(parent) + "." + printable(key, kMaxKeyShown);
}

std::optional<YamlDoc> load_yaml(const std::filesystem::path& path, const std::string& display_name, Diags& diags) {
  const Loc where{std::make_shared<const std::string>(display_name), 0, 0};
  auto fail = [&](std::string message) {
    diags.error(where, std::move(message), DiagClass::read);
    diags.fail(file_entity(display_name));
    return std::nullopt;
  };
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return fail("cannot read file: " + printable(ec.message(), 200));
  if (size > kMaxYamlBytes)
    return fail("file is " + std::to_string(size) + " bytes; the limit is " + std::to_string(kMaxYamlBytes) +
                " bytes (64 MiB) per file: split it into several files");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail("cannot read file");
  // Read at most one byte past the limit: the file may have grown since it was measured.
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (in.gcount() == static_cast<std::streamsize>(size) && in.peek() != std::char_traits<char>::eof())
    return fail("file changed while it was read");
  return parse_text(text, display_name, diags);
}

std::optional<YamlDoc> parse_yaml(const std::string& text, const std::string& display_name, Diags& diags) {
  if (text.size() > kMaxYamlBytes) {
    diags.error({std::make_shared<const std::string>(display_name), 0, 0},
                "input is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(kMaxYamlBytes) +
                    " bytes (64 MiB)",
                DiagClass::read);
    diags.fail(file_entity(display_name));
    return std::nullopt;
  }
  return parse_text(text, display_name, diags);
}

std::optional<std::vector<std::filesystem::path>> yaml_files_in(const std::filesystem::path& dir, Diags& diags) {
  namespace fs = std::filesystem;
  bool ok = true;
  auto fail = [&](const fs::path& at, const std::error_code& ec) {
    diags.error({std::make_shared<const std::string>(at.string()), 0, 0},
                "cannot read: " + printable(ec.message(), 200), DiagClass::read);
    ok = false;
  };
  std::error_code ec;
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::path p = dir / it->path().filename();
    if (p.extension() != ".yaml" && p.extension() != ".yml") continue;
    // Follows symlinks: a loop (ELOOP) or a dangling link named *.yaml is an error about that
    // file; every such entry is reported, whatever order the directory lists them in.
    std::error_code entry_ec;
    const bool regular = it->is_regular_file(entry_ec);
    if (entry_ec) fail(p, entry_ec);
    else if (regular) files.push_back(p);
  }
  if (ec) fail(dir, ec);
  if (!ok) return std::nullopt;
  std::sort(files.begin(), files.end());
  return files;
}

Loc Reader::loc(const YamlNode& n) const { return {file_, n.line(), n.col()}; }

bool Reader::check_free_map(const YamlNode& n, std::string_view where) const {
  if (!n.is_map()) {
    error(n, std::string(where) + ": expected a mapping, got " + describe(n));
    return false;
  }
  // Most mappings have a handful of keys: those are compared with the earlier ones, and only large
  // ones (the devices of a fabric, the ports of a switch) pay for a hash set.
  constexpr size_t kLinearScan = 16;
  const std::span<const YamlEntry> entries = n.entries();
  std::unordered_set<std::string_view> seen;
  bool ok = true;
  for (size_t i = 0; i < entries.size(); ++i) {
    const YamlNode& key = entries[i].key;
    if (!key.is_scalar()) {
      error(key, std::string(where) + ": keys must be plain names");
      ok = false;
      continue;
    }
    const std::string_view k = key.scalar();
    const bool again = entries.size() <= kLinearScan
                           ? std::any_of(entries.begin(), entries.begin() + static_cast<std::ptrdiff_t>(i),
                                         [&](const YamlEntry& e) { return e.key.is_scalar() && e.key.scalar() == k; })
                           : !seen.insert(k).second;
    if (again) {
      // Reported, then read anyway (the later one wins, as in SONiC): later checks stay meaningful.
      error(key, "duplicate key " + quote(k) + " in " + std::string(where));
    }
  }
  return ok;
}

bool Reader::check_map(const YamlNode& n, std::string_view where, const std::vector<std::string_view>& allowed) const {
  if (!check_free_map(n, where)) return false;
  for (const YamlEntry& kv : n.entries()) {
    const std::string_view k = kv.key.scalar();
    bool known = false;
    for (std::string_view a : allowed) known = known || (a == k);
    if (known) continue;
    if (k == "password") {
      error(kv.key, std::string(where) +
                        ": passwords are not allowed in the inventory; set mgmt.password_env to the "
                        "name of an environment variable that holds it");
      continue;
    }
    std::string hint = did_you_mean(k, allowed);
    if (hint.empty()) {
      std::vector<std::string> names(allowed.begin(), allowed.end());
      hint = " (expected one of: " + join(names, ", ") + ")";
    }
    error(kv.key, "unknown key " + quote(k) + " in " + std::string(where)).suggest(hint);
  }
  // Unknown keys are reported, but the known ones are still read: one run shows every mistake.
  return true;
}

bool Reader::scalar(const YamlNode& n, std::string_view what, std::string_view expected) const {
  if (n.is_scalar()) return true;
  error(n, std::string(what) + ": expected " + std::string(expected) + ", got " + describe(n));
  return false;
}

Field<int64_t> Reader::integer(const YamlNode& n, std::string_view what, int64_t min, int64_t max) const {
  Field<int64_t> f;
  f.loc = loc(n);
  if (!scalar(n, what, "an integer")) return f;
  const std::optional<int64_t> v = parse_int(n.scalar());
  if (!v) {
    error(n, std::string(what) + ": expected an integer, got " + quote(n.scalar()));
  } else if (*v < min || *v > max) {
    error(n, std::string(what) + ": " + quote(n.scalar()) + " is out of range " + std::to_string(min) + "-" +
                 std::to_string(max));
  } else {
    f.value = v;
  }
  return f;
}

Field<int64_t> Reader::integer_key(const YamlNode& key, std::string_view what, int64_t min, int64_t max) const {
  Field<int64_t> f;
  f.loc = loc(key);
  const std::optional<int64_t> v = key.is_scalar() ? parse_int(key.scalar()) : std::nullopt;
  if (!v || *v < min || *v > max) {
    error(key, std::string(what) + " " + quote(key.is_scalar() ? key.scalar() : "?") + " is not " +
                   std::to_string(min) + "-" + std::to_string(max));
    return f;
  }
  f.value = v;
  return f;
}

Field<bool> Reader::boolean(const YamlNode& n, std::string_view what) const {
  Field<bool> f;
  f.loc = loc(n);
  if (!scalar(n, what, "true or false")) return f;
  // Only true/false: YAML 1.1's yes/no/on/off are a classic source of surprises ("no" the country code).
  if (n.scalar() == "true") {
    f.value = true;
  } else if (n.scalar() == "false") {
    f.value = false;
  } else {
    error(n, std::string(what) + ": expected true or false, got " + quote(n.scalar()));
  }
  return f;
}

Field<std::string> Reader::string(const YamlNode& n, std::string_view what) const {
  Field<std::string> f;
  f.loc = loc(n);
  if (!scalar(n, what, "a string")) return f;
  if (n.scalar().empty()) {
    error(n, std::string(what) + ": must not be empty");
    return f;
  }
  f.value = std::string(n.scalar());
  return f;
}

Field<std::string> Reader::choice(const YamlNode& n, std::string_view what,
                                  const std::vector<std::string_view>& choices,
                                  std::span<const SpellAlias> aliases) const {
  Field<std::string> f = string(n, what);
  if (!f.value) return f;
  for (std::string_view c : choices)
    if (c == *f.value) return f;
  std::vector<std::string> names(choices.begin(), choices.end());
  error(n, std::string(what) + ": " + quote(*f.value) + " is not one of " + join(names, ", "))
      .suggest(did_you_mean(*f.value, choices, nullptr, aliases));
  f.value.reset();
  return f;
}

Field<std::vector<int>> Reader::int_list(const YamlNode& n, std::string_view what, int64_t min, int64_t max) const {
  Field<std::vector<int>> f;
  f.loc = loc(n);
  if (!n.is_sequence()) {
    error(n, std::string(what) + ": expected a list, got " + describe(n));
    return f;
  }
  std::vector<int> out;
  bool ok = true;
  for (const YamlNode& item : n.items()) {
    Field<int64_t> v = integer(item, what, min, max);
    if (!v.value) {
      ok = false;
      continue;
    }
    for (int prev : out) {
      if (prev == *v.value) {
        error(item, std::string(what) + ": " + quote(item.scalar()) + " is listed twice");
        ok = false;
      }
    }
    out.push_back(static_cast<int>(*v.value));
  }
  if (ok) f.value = out;
  return f;
}

std::vector<Field<std::string>> Reader::string_list(const YamlNode& n, std::string_view what) const {
  std::vector<Field<std::string>> out;
  if (!n.is_sequence()) {
    error(n, std::string(what) + ": expected a list, got " + describe(n));
    return out;
  }
  for (const YamlNode& item : n.items()) out.push_back(string(item, what));
  return out;
}

}  // namespace fabricctl
