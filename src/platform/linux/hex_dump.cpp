#include "platform/linux/hex_dump.h"

#include <string>

namespace fabricctl::linux_host {
namespace {

int nibble(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

}  // namespace

Expected<std::vector<uint8_t>> parse_hex_dump(std::string_view text, size_t max_bytes) {
  std::vector<uint8_t> out;
  size_t line = 1;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      ++i;
    } else if (space(c)) {
      ++i;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else {
      size_t end = i;
      while (end < text.size() && !space(text[end]) && text[end] != '\n' && text[end] != '#') ++end;
      const std::string_view word = text.substr(i, end - i);
      if (word.size() != 2 || nibble(word[0]) < 0 || nibble(word[1]) < 0) {
        std::string shown;
        for (const char w : word.substr(0, 16)) shown += (w >= 0x20 && w < 0x7f && w != '"') ? w : '?';
        return unexpected("line " + std::to_string(line) + ": \"" + shown + "\" is not a hex byte such as \"4e\"");
      }
      if (out.size() == max_bytes) return unexpected("more than " + std::to_string(max_bytes) + " bytes");
      out.push_back(static_cast<uint8_t>(nibble(word[0]) * 16 + nibble(word[1])));
      i = end;
    }
  }
  return out;
}

}  // namespace fabricctl::linux_host
