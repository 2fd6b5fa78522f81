// Mustache templates of one platform, loaded from templates/<platform>/ (or --templates DIR).
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>

#include "util/diag.h"

namespace fabricctl {

/// Renders `text` (a Mustache template) with `context`. Output is not HTML: nothing is escaped.
/// On a template error, reports it against `file` and returns nullopt.
std::optional<std::string> render_template(const std::string& text, const nlohmann::json& context,
                                           const std::string& file, Diags& diags);

/// Reads a template file; reports a missing or unreadable one.
std::optional<std::string> read_template(const std::filesystem::path& path, Diags& diags);

}  // namespace fabricctl
