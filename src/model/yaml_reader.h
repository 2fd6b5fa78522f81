// Typed, located reading of YAML documents. Every value keeps the file:line:col it came from, so
// that errors found long after parsing (in validation, after merging profile layers) still point
// at the exact text the user wrote.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/yaml_node.h"
#include "util/diag.h"
#include "util/spell.h"

namespace fabricctl {

/// A value read from YAML, with where it was written. Empty when the key was absent or invalid.
template <class T>
struct Field {
  std::optional<T> value;
  Loc loc;

  [[nodiscard]] bool has() const { return value.has_value(); }
  [[nodiscard]] const T& operator*() const { return *value; }
  [[nodiscard]] const T* operator->() const { return &*value; }
  /// Later layers win: a set field replaces this one, value and location together.
  void override_with(const Field& later) {
    if (later.value) *this = later;
  }
};

/// A parsed YAML file and where its nodes came from. Copies share the tree.
struct YamlDoc {
  std::shared_ptr<const std::string> file;
  std::shared_ptr<const YamlTree> tree;  // owns every node under root
  YamlNode root;
};

/// Largest YAML file read, in bytes (64 MiB). The R100k inventory (102,400 NICs, ~200k links) is
/// ~34 MB in all, and a fabric can spread over several files.
constexpr size_t kMaxYamlBytes = size_t{64} << 20;
/// Aliases may expand a file to at most one value (scalar, list or mapping) per byte of it, and
/// never fewer than this many: an alias bomb of a few KB cannot become millions of ports.
constexpr size_t kMinYamlNodeLimit = 100'000;
/// Deepest nesting of lists and mappings (yaml-cpp's limit, kept): every reader of the tree walks
/// it without recursion, but a person never writes 500 levels.
constexpr size_t kMaxYamlDepth = 500;

/// Parses a YAML file (its first document). Syntax errors, files over kMaxYamlBytes, nesting
/// deeper than kMaxYamlDepth and alias expansion beyond the limit are reported as file:line:col
/// (DiagClass::read; a tab in indentation is named as such) and yield nullopt; the file's entity
/// (file_entity) is then failed, so what depends on its content is not reported again.
std::optional<YamlDoc> load_yaml(const std::filesystem::path& path, const std::string& display_name, Diags& diags);
/// Parses YAML text (for tests and embedded inputs), with the same limits.
std::optional<YamlDoc> parse_yaml(const std::string& text, const std::string& display_name, Diags& diags);

/// The *.yaml and *.yml files in `dir` (symlinks followed), sorted. An unreadable directory or
/// entry (a symlink loop, a dangling link) is reported with its path and yields nullopt.
std::optional<std::vector<std::filesystem::path>> yaml_files_in(const std::filesystem::path& dir, Diags& diags);

/// The entity (Diags::fail) of a file that could not be read or parsed.
std::string file_entity(std::string_view display_name);

/// Reading context: the file being read and where its errors go. Its errors are about the shape of
/// the input (DiagClass::structure).
class Reader {
 public:
  Reader(std::shared_ptr<const std::string> file, Diags& diags) : file_(std::move(file)), diags_(&diags) {}

  [[nodiscard]] Loc loc(const YamlNode& n) const;
  Diag& error(const YamlNode& n, std::string message) const {
    return diags_->error(loc(n), std::move(message), DiagClass::structure);
  }
  [[nodiscard]] Diags& diags() const { return *diags_; }
  [[nodiscard]] const std::shared_ptr<const std::string>& file() const { return file_; }

  /// Checks that `n` is a mapping whose keys are all in `allowed` and appear once. Reports unknown
  /// keys with a "did you mean" suggestion. `where` names the mapping in messages ("profile", "mtu").
  /// Returns false only when `n` cannot be read as a mapping at all.
  bool check_map(const YamlNode& n, std::string_view where, const std::vector<std::string_view>& allowed) const;
  /// Checks that `n` is a mapping with unique scalar keys (keys are free-form names).
  bool check_free_map(const YamlNode& n, std::string_view where) const;

  /// An integer in [min, max]; `what` names it in messages.
  Field<int64_t> integer(const YamlNode& n, std::string_view what, int64_t min, int64_t max) const;
  /// An integer map key (such as a DSCP value) in [min, max].
  Field<int64_t> integer_key(const YamlNode& key, std::string_view what, int64_t min, int64_t max) const;
  Field<bool> boolean(const YamlNode& n, std::string_view what) const;
  Field<std::string> string(const YamlNode& n, std::string_view what) const;
  /// A string that must be one of `choices`; `aliases` are other names offered as suggestions.
  Field<std::string> choice(const YamlNode& n, std::string_view what, const std::vector<std::string_view>& choices,
                            std::span<const SpellAlias> aliases = {}) const;
  /// A sequence of integers in [min, max], no duplicates.
  Field<std::vector<int>> int_list(const YamlNode& n, std::string_view what, int64_t min, int64_t max) const;
  /// A sequence of strings.
  std::vector<Field<std::string>> string_list(const YamlNode& n, std::string_view what) const;

 private:
  bool scalar(const YamlNode& n, std::string_view what, std::string_view expected) const;

  std::shared_ptr<const std::string> file_;
  Diags* diags_;
};

/// Joins a dotted key path: path("ecn.tc", "3") == "ecn.tc.3". The key is made printable
/// (control characters escaped, cut after 80 bytes): paths of user-written names go into messages.
std::string key_path(std::string_view parent, std::string_view key);

}  // namespace fabricctl
