#include "render/template_limits.h"

#include <memory>
#include <string_view>

namespace fabricctl {
namespace {

std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

/// "=<% %>=" -> begin "<%", end "%>"; false when kainjow would reject it too.
bool set_delimiters(std::string_view tag, std::string& begin, std::string& end) {
  if (tag.size() < 5 || tag.back() != '=') return false;
  const std::string_view inner = trim(tag.substr(1, tag.size() - 2));
  const size_t space = inner.find(' ');
  if (space == std::string_view::npos) return false;
  const size_t next = inner.find_first_not_of(' ', space + 1);
  if (next == std::string_view::npos) return false;
  const std::string_view b = inner.substr(0, space), e = inner.substr(next);
  for (std::string_view d : {b, e})
    for (char c : d)
      if (c == '=' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') return false;
  begin = b;
  end = e;
  return true;
}

}  // namespace

bool check_template_limits(const std::string& text, const std::string& file, Diags& diags) {
  auto name = std::make_shared<const std::string>(file);
  if (text.size() > kMaxTemplateBytes) {
    diags.error({name, 0, 0}, "template is " + std::to_string(text.size()) + " bytes; the limit is " +
                                  std::to_string(kMaxTemplateBytes) + " bytes (1 MiB)");
    return false;
  }
  std::string begin = "{{", end = "}}";
  size_t depth = 0;
  // Line and column of `pos`, counted forward from the last position asked for (linear overall).
  int line = 1, col = 1;
  size_t counted = 0;
  auto locate = [&](size_t pos) {
    for (; counted < pos; ++counted) {
      if (text[counted] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    return Loc{name, line, col};
  };
  size_t pos = 0;
  while ((pos = text.find(begin, pos)) != std::string::npos) {
    const size_t tag_start = pos;
    size_t contents = pos + begin.size();
    // "{{{name}}}" (only with the default delimiters) ends with "}}}".
    const bool triple = begin == "{{" && end == "}}" && contents < text.size() && text[contents] == '{';
    if (triple) ++contents;
    const std::string_view close = triple ? std::string_view("}}}") : std::string_view(end);
    const size_t tag_end = text.find(close, contents);
    if (tag_end == std::string::npos) return true;  // kainjow reports the unclosed tag
    const std::string_view tag = trim(std::string_view(text).substr(contents, tag_end - contents));
    pos = tag_end + close.size();
    if (triple || tag.empty()) continue;
    if (tag[0] == '=') {
      if (!set_delimiters(tag, begin, end)) return true;  // kainjow reports the invalid tag
    } else if (tag[0] == '#' || tag[0] == '^') {
      if (++depth > kMaxTemplateDepth) {
        diags.error(locate(tag_start), "sections nested deeper than " + std::to_string(kMaxTemplateDepth) + " levels");
        return false;
      }
    } else if (tag[0] == '/') {
      if (depth == 0) return true;  // kainjow reports the unopened section
      --depth;
    }
  }
  return true;
}

}  // namespace fabricctl
