// Mustache templates of one render, found in an ordered list of template directories (site ones
// first, the shipped one last), compiled once and rendered strictly: a name the context does not
// have is an error at template:line:col, not an empty string.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "util/diag.h"

namespace fabricctl {

/// Renders `text` (a Mustache template) with `context`. Output is not HTML: nothing is escaped.
/// On a template error or a name `context` does not have, reports it against `file` (file:line:col)
/// and returns nullopt.
std::optional<std::string> render_template(const std::string& text, const nlohmann::json& context,
                                           const std::string& file, Diags& diags);

/// Templates compiled once and rendered for many devices: at fabric scale, parsing a template
/// per device and converting the context per template dominated rendering time.
class TemplateCache {
 public:
  /// `dirs` in order of precedence: for each template, the first directory holding
  /// <platform>/<file>.mustache wins, so a site directory may hold only the files it overrides.
  explicit TemplateCache(std::vector<std::filesystem::path> dirs);
  ~TemplateCache();
  TemplateCache(const TemplateCache&) = delete;
  TemplateCache& operator=(const TemplateCache&) = delete;

  /// A context converted once for all of a device's templates; its strings are moved, not copied.
  class Context;
  [[nodiscard]] std::shared_ptr<const Context> context(nlohmann::json&& json) const;

  /// Renders `relative` (e.g. "eos/session.cfg.mustache") from the first directory that has it.
  /// When the template looks up a name the context does not have, `json_context` is called to build
  /// the context again as JSON (Context keeps no key lists: building them for every device would cost
  /// every render), to locate each such name and suggest a close one.
  std::optional<std::string> render(const std::string& relative, const Context& context,
                                    const std::function<nlohmann::json()>& json_context, Diags& diags);

 private:
  struct Compiled;
  /// The file `relative` is read from: the first directory's that exists; nullopt (reported) if none.
  std::optional<std::filesystem::path> find(const std::string& relative, Diags& diags);

  std::vector<std::filesystem::path> dirs_;
  bool dirs_checked_ = false;
  std::map<std::string, std::unique_ptr<Compiled>> compiled_;
};

/// Reads a template file; reports a missing or unreadable one.
std::optional<std::string> read_template(const std::filesystem::path& path, Diags& diags);

}  // namespace fabricctl
