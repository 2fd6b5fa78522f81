#include "cli/color.h"

#include <string_view>

namespace fabricctl {

std::optional<ColorWhen> parse_color_when(std::string_view s) {
  if (s == "auto") return ColorWhen::auto_;
  if (s == "always") return ColorWhen::always;
  if (s == "never") return ColorWhen::never;
  return std::nullopt;
}

bool use_color(ColorWhen when, bool is_tty, const char* no_color, const char* term) {
  switch (when) {
    case ColorWhen::always: return true;
    case ColorWhen::never: return false;
    case ColorWhen::auto_: break;
  }
  if (no_color && *no_color) return false;
  if (term && std::string_view(term) == "dumb") return false;
  return is_tty;
}

}  // namespace fabricctl
