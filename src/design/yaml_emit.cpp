#include "design/yaml_emit.h"

#include <cstdio>
#include <optional>

namespace fabricctl::design {

namespace {

bool alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

/// Plain YAML that reads back as itself: starting with a letter or digit, then letters, digits and
/// marks YAML gives no meaning to there; ':' only before a non-space; in block context (`block`) also
/// spaces and commas inside, never ": " or " #". Never a word YAML reads as null.
bool plain_safe(std::string_view s, bool block) {
  if (s.empty() || s == "null" || s == "Null" || s == "NULL" || !alnum(s.front()) || s.back() == ' ' || s.back() == ':')
    return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    const char next = i + 1 < s.size() ? s[i + 1] : '\0';
    const bool ok = alnum(c) || c == '_' || c == '-' || c == '.' || c == '/' || c == '+' || c == '(' || c == ')' ||
                    (c == ':' && next != ' ') || (block && c == ' ' && next != '#') || (block && c == ',');
    if (!ok) return false;
  }
  return true;
}

/// A mapping of a few words and numbers, written on one line as `{key: value, ...}`; nullopt if it is
/// not one (a value that is a mapping or a list, or text that would need quotes there).
std::optional<std::string> flow_map(const YamlNode& node) {
  if (!node.is_map() || node.size() == 0 || node.size() > 4) return std::nullopt;
  std::string out = "{";
  for (const YamlEntry& e : node.entries()) {
    if (!e.value.is_scalar() || !plain_safe(e.value.scalar(), false)) return std::nullopt;
    out += (out.size() > 1 ? ", " : "") + yaml_scalar(e.key.scalar()) + ": " + yaml_scalar(e.value.scalar());
  }
  if (out.size() > 80) return std::nullopt;
  return out + "}";
}

void pad(std::string& out, int indent) { out.append(static_cast<size_t>(indent), ' '); }

}  // namespace

std::string yaml_scalar(std::string_view text, bool block) {
  if (plain_safe(text, block)) return std::string(text);
  std::string out = "\"";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

void emit_yaml_value(const YamlNode& node, int indent, std::string& out) {
  if (node.is_scalar()) {
    out += " " + yaml_scalar(node.scalar(), true) + "\n";
  } else if (const auto flow = flow_map(node)) {
    out += " " + *flow + "\n";
  } else if (node.is_map() && node.size() > 0) {
    out += "\n";
    for (const YamlEntry& e : node.entries()) {
      pad(out, indent);
      out += yaml_scalar(e.key.scalar()) + ":";
      emit_yaml_value(e.value, indent + 2, out);
    }
  } else if (node.is_sequence() && node.size() > 0) {
    out += "\n";
    for (const YamlNode& item : node.items()) {
      pad(out, indent);
      out += "-";
      emit_yaml_value(item, indent + 2, out);  // a nested block starts on the next line, one level in
    }
  } else if (node.is_map()) {
    out += " {}\n";
  } else if (node.is_sequence()) {
    out += " []\n";
  } else {
    out += "\n";  // null
  }
}

}  // namespace fabricctl::design
