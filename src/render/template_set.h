// Mustache templates of one platform, loaded from templates/<platform>/ (or --templates DIR).
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "util/diag.h"

namespace fabricctl {

/// Renders `text` (a Mustache template) with `context`. Output is not HTML: nothing is escaped.
/// On a template error, reports it against `file` and returns nullopt.
std::optional<std::string> render_template(const std::string& text, const nlohmann::json& context,
                                           const std::string& file, Diags& diags);

/// Templates compiled once and rendered for many devices: at fabric scale, parsing a template
/// per device and converting the context per template dominated rendering time.
class TemplateCache {
 public:
  explicit TemplateCache(std::filesystem::path dir);
  ~TemplateCache();
  TemplateCache(const TemplateCache&) = delete;
  TemplateCache& operator=(const TemplateCache&) = delete;

  /// A context converted once for all of a device's templates; its strings are moved, not copied.
  class Context;
  [[nodiscard]] std::shared_ptr<const Context> context(nlohmann::json&& json) const;

  /// Renders `relative` (e.g. "eos/session.cfg.mustache") under the cache's directory.
  std::optional<std::string> render(const std::string& relative, const Context& context, Diags& diags);

 private:
  struct Compiled;
  std::filesystem::path dir_;
  std::map<std::string, std::unique_ptr<Compiled>> compiled_;
};

/// Reads a template file; reports a missing or unreadable one.
std::optional<std::string> read_template(const std::filesystem::path& path, Diags& diags);

}  // namespace fabricctl
