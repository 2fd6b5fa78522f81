// Whether to colour terminal output: --color=auto|always|never, and the NO_COLOR convention
// (no-color.org: set and not empty means no colour unless asked for explicitly).
#pragma once

#include <optional>
#include <string_view>

namespace fabricctl {

enum class ColorWhen { auto_, always, never };

/// "auto", "always" or "never".
std::optional<ColorWhen> parse_color_when(std::string_view s);

/// The decision: always and never are final; auto colours a terminal unless NO_COLOR is set and
/// not empty, or TERM is "dumb". `no_color` and `term` are the environment values, nullptr if unset.
bool use_color(ColorWhen when, bool is_tty, const char* no_color, const char* term);

}  // namespace fabricctl
