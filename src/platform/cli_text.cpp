#include "platform/cli_text.h"

#include <algorithm>

namespace fabricctl {

std::string_view trim_cell(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> text_lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool dash_rule(std::string_view line) {
  line = trim_cell(line);
  return !line.empty() && line.find_first_not_of("- ") == std::string_view::npos;
}

}  // namespace fabricctl
