#include "util/diag.h"

#include <algorithm>
#include <tuple>

namespace fabricctl {

std::string Loc::str() const {
  std::string out = file ? *file : std::string("<input>");
  if (line > 0) {
    out += ':' + std::to_string(line);
    if (col > 0) out += ':' + std::to_string(col);
  }
  return out;
}

bool operator<(const Loc& a, const Loc& b) {
  const std::string& fa = a.file ? *a.file : std::string();
  const std::string& fb = b.file ? *b.file : std::string();
  return std::tie(fa, a.line, a.col) < std::tie(fb, b.line, b.col);
}

std::string Diag::str() const {
  switch (severity) {
    case DiagSeverity::error: break;
    case DiagSeverity::warning: return loc.str() + ": warning: " + message;
    case DiagSeverity::note: return loc.str() + ": note: " + message;
  }
  return loc.str() + ": " + message;
}

void Diags::add(const Loc& loc, std::string message, DiagSeverity severity) {
  if (severity == DiagSeverity::error) ++errors_;
  items_.push_back({loc, std::move(message), severity});
}

void Diags::error(const Loc& loc, std::string message) { add(loc, std::move(message), DiagSeverity::error); }
void Diags::warning(const Loc& loc, std::string message) { add(loc, std::move(message), DiagSeverity::warning); }
void Diags::note(const Loc& loc, std::string message) { add(loc, std::move(message), DiagSeverity::note); }

void Diags::append(Diags&& other) {
  for (Diag& d : other.items_) add(d.loc, std::move(d.message), d.severity);
  other.items_.clear();
  other.errors_ = 0;
}

std::vector<Diag> Diags::sorted() const {
  std::vector<Diag> out = items_;
  std::stable_sort(out.begin(), out.end(), [](const Diag& a, const Diag& b) {
    if (a.loc < b.loc) return true;
    if (b.loc < a.loc) return false;
    return a.message < b.message;
  });
  auto same = [](const Diag& a, const Diag& b) { return a.str() == b.str(); };
  out.erase(std::unique(out.begin(), out.end(), same), out.end());
  return out;
}

std::string Diags::str() const {
  std::string out;
  for (const Diag& d : sorted()) out += d.str() + '\n';
  return out;
}

std::string printable(std::string_view value, size_t max_bytes) {
  // Values come from user files, device output and library messages: never let them inject escapes
  // into a terminal.
  size_t end = std::min(value.size(), max_bytes);
  // Never cut a UTF-8 sequence in two: back off over continuation bytes.
  while (end < value.size() && end > 0 && (static_cast<unsigned char>(value[end]) & 0xc0) == 0x80) --end;
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < end; ++i) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (c == 0xc2 && i + 1 < end && static_cast<unsigned char>(value[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(value[i + 1]) <= 0x9f) {
      // U+0080-U+009F are C1 controls (CSI among them): as dangerous on a terminal as ESC.
      const unsigned char c1 = static_cast<unsigned char>(value[++i]);
      out += "\\u00";
      out += hex[c1 >> 4];
      out += hex[c1 & 15];
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (end < value.size()) out += "...";
  return out;
}

std::string quote(std::string_view value) {
  constexpr size_t kMax = 80;  // bytes of the value shown; a message stays one readable line
  return '"' + printable(value, kMax) + '"';
}

}  // namespace fabricctl
