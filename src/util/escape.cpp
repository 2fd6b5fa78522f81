#include "util/escape.h"

#include <nlohmann/json.hpp>

#include <cstdint>

#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kReplacement = "\xef\xbf\xbd";  // U+FFFD

bool listed(std::string_view set, uint32_t cp) {
  return cp < 0x80 && set.find(static_cast<char>(cp)) != std::string_view::npos;
}

}  // namespace

std::string clean_text(std::string_view s, const CleanPolicy& policy) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    uint32_t cp = 0;
    const size_t len = utf8_sequence(s, i, cp);
    if (len == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    if (cp < 0x20) {
      if (listed(policy.keep, cp)) out += static_cast<char>(cp);
      else if (listed(policy.to_space, cp)) out += ' ';
    } else if ((cp >= 0x7f && cp <= 0x9f) || (policy.drop_noncharacters && (cp == 0xfffe || cp == 0xffff))) {
      // dropped
    } else {
      out.append(s.substr(i, len));
    }
    i += len;
  }
  return out;
}

std::string terminal_line(std::string_view s) { return clean_text(s, {"", "\t\n\r", false}); }

namespace {

std::string xml_escape(std::string_view clean, bool attribute) {
  std::string out;
  out.reserve(clean.size());
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\r': out += "&#13;"; break;
      case '\n': out += attribute ? "&#10;" : "\n"; break;
      case '\t': out += attribute ? "&#9;" : "\t"; break;
      default: out += c;
    }
  }
  return out;
}

constexpr CleanPolicy kXml{"\t\n\r", "", true};

}  // namespace

std::string xml_clean(std::string_view s) { return clean_text(s, kXml); }

std::string xml_text(std::string_view s) { return xml_escape(clean_text(s, kXml), false); }

std::string xml_attribute(std::string_view s) { return xml_escape(clean_text(s, kXml), true); }

std::string prometheus_label_value(std::string_view s) {
  const std::string clean = clean_text(s, {"\n", "", false});
  std::string out;
  out.reserve(clean.size());
  for (char c : clean) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string json_string_body(std::string_view s) {
  // nlohmann's serializer knows every JSON escape, and its "replace" handler repairs invalid UTF-8
  // to U+FFFD exactly as clean_text does; strip the quotes it adds.
  const std::string quoted =
      nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return quoted.substr(1, quoted.size() - 2);
}

std::string shell_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  out += '\'';
  return out;
}

}  // namespace fabricctl
