#include "design/name_template.h"

#include <algorithm>

#include "util/diag.h"

namespace fabricctl::design {

namespace {

constexpr std::array<std::string_view, kFieldCount> kNames = {"pod",   "host", "pod_host", "rail",
                                                              "spine", "name", "port",     "index"};

std::string padded(int64_t v, int width) {
  std::string digits = std::to_string(v);
  if (static_cast<int>(digits.size()) < width) digits.insert(0, static_cast<size_t>(width) - digits.size(), '0');
  return digits;
}

std::string names_of(const std::vector<Placeholder>& fields) {
  std::string out;
  for (Placeholder f : fields) out += (out.empty() ? "{" : ", {") + std::string(to_string(f)) + "}";
  return out;
}

}  // namespace

std::string_view to_string(Placeholder f) { return kNames[static_cast<size_t>(f)]; }

std::string NameTemplate::expand(const Position& at) const {
  std::string out;
  for (const Piece& p : pieces_) {
    out += p.literal;
    if (!p.placeholder) continue;
    if (p.field == Placeholder::name) out += at.name;
    else out += padded(at.number[static_cast<size_t>(p.field)], p.width);
  }
  return out;
}

bool NameTemplate::uses(Placeholder f) const {
  return std::any_of(pieces_.begin(), pieces_.end(), [f](const Piece& p) { return p.placeholder && p.field == f; });
}

Expected<NameTemplate> parse_name_template(std::string_view text, const std::vector<Placeholder>& allowed) {
  NameTemplate t;
  t.text_ = std::string(text);
  NameTemplate::Piece piece;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '}') return unexpected(quote(text) + ": a \"}\" without its \"{\"");
    if (c != '{') {
      piece.literal += c;
      continue;
    }
    const size_t close = text.find('}', i);
    if (close == std::string_view::npos) return unexpected(quote(text) + ": a \"{\" without its \"}\"");
    std::string_view inner = text.substr(i + 1, close - i - 1);
    std::string_view format;
    if (const size_t colon = inner.find(':'); colon != std::string_view::npos) {
      format = inner.substr(colon + 1);
      inner = inner.substr(0, colon);
    }
    const auto known = std::find(kNames.begin(), kNames.end(), inner);
    const auto field = static_cast<Placeholder>(known - kNames.begin());
    if (known == kNames.end() || std::find(allowed.begin(), allowed.end(), field) == allowed.end())
      return unexpected(quote(text) + ": unknown placeholder {" + printable(inner, 40) + "}; this pattern takes " +
                        names_of(allowed));
    piece.placeholder = true;
    piece.field = field;
    piece.width = 0;
    if (!format.empty()) {
      // Only zero padding: "{host:02}". A width of 10 or more is no name a person writes.
      if (format.size() != 2 || format[0] != '0' || format[1] < '1' || format[1] > '9')
        return unexpected(quote(text) + ": the format of {" + std::string(inner) + "} is \":0N\" (N 1-9), not " +
                          quote(format));
      if (field == Placeholder::name) return unexpected(quote(text) + ": {name} takes no format");
      piece.width = format[1] - '0';
    }
    t.pieces_.push_back(std::move(piece));
    piece = {};
    i = close;
  }
  if (!piece.literal.empty()) t.pieces_.push_back(std::move(piece));
  return t;
}

}  // namespace fabricctl::design
