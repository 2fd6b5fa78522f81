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

void Diags::error(const Loc& loc, std::string message) { items_.push_back({loc, std::move(message)}); }

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

std::string quote(std::string_view value) {
  // Values come from user files and device output: never let them inject escapes into a terminal.
  constexpr size_t kMax = 80;
  std::string out = "\"";
  for (size_t i = 0; i < value.size() && i < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (value.size() > kMax) out += "...";
  out += '"';
  return out;
}

}  // namespace fabricctl
