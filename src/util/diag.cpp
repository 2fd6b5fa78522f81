#include "util/diag.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "util/text.h"

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

std::string Diag::text() const {
  std::string names;
  if (subjects.size() == 1) {
    names = subject_kind + " " + quote(subjects[0]);
  } else if (!subjects.empty()) {
    // At most three names, or two and a count: the line stays readable for a thousand devices.
    constexpr size_t kShown = 3;
    const size_t shown = subjects.size() <= kShown ? subjects.size() - 1 : kShown - 1;
    names = subject_kind + "s ";
    for (size_t i = 0; i < shown; ++i) names += (i ? ", " : "") + printable(subjects[i], 80);
    names += " and " + (subjects.size() <= kShown ? printable(subjects.back(), 80)
                                                  : std::to_string(subjects.size() - shown) + " more");
  }
  std::string text = message;
  if (const size_t at = text.find(kSubjects); at != std::string::npos) text.replace(at, kSubjects.size(), names);
  else if (subjects.size() > 1) text += " (" + names + ")";
  return text + hint;
}

std::string Diag::str() const {
  switch (severity) {
    case DiagSeverity::error: break;
    case DiagSeverity::warning: return loc.str() + ": warning: " + text();
    case DiagSeverity::note: return loc.str() + ": note: " + text();
  }
  return loc.str() + ": " + text();
}

Diag& Diag::about(std::string_view kind, std::string_view name) {
  subject_kind = std::string(kind);
  subjects.emplace_back(name);
  return *this;
}

Diag& Diag::because(std::string entity) {
  causes.push_back(std::move(entity));
  return *this;
}

Diag& Diag::suggest(const std::string& text) {
  hint += text;
  return *this;
}

Diag& Diags::add(const Loc& loc, std::string message, DiagSeverity severity, DiagClass kind) {
  if (severity == DiagSeverity::error) ++errors_;
  Diag& d = items_.emplace_back();
  d.loc = loc;
  d.message = std::move(message);
  d.severity = severity;
  d.cls = kind;
  return d;
}

Diag& Diags::error(const Loc& loc, std::string message, DiagClass kind) {
  return add(loc, std::move(message), DiagSeverity::error, kind);
}
Diag& Diags::warning(const Loc& loc, std::string message, DiagClass kind) {
  return add(loc, std::move(message), DiagSeverity::warning, kind);
}
Diag& Diags::note(const Loc& loc, std::string message, DiagClass kind) {
  return add(loc, std::move(message), DiagSeverity::note, kind);
}

void Diags::fail(std::string entity) { failed_.insert(std::move(entity)); }

void Diags::append(Diags&& other) {
  for (Diag& d : other.items_) {
    if (d.severity == DiagSeverity::error) ++errors_;
    items_.push_back(std::move(d));
  }
  failed_.merge(other.failed_);
  other.items_.clear();
  other.failed_.clear();
  other.errors_ = 0;
}

std::vector<Diag> Diags::sorted() const {
  // 1. Drop consequences: their cause is reported, and fixing it may well fix them.
  std::vector<const Diag*> live;
  live.reserve(items_.size());
  for (const Diag& d : items_) {
    const bool explained =
        std::any_of(d.causes.begin(), d.causes.end(), [&](const std::string& c) { return failed_.count(c) > 0; });
    if (!explained) live.push_back(&d);
  }
  // 2. Errors before warnings and notes; read, structure, then rule; then where.
  std::stable_sort(live.begin(), live.end(), [](const Diag* a, const Diag* b) {
    const auto rank = [](const Diag* d) { return std::pair{static_cast<int>(d->severity), static_cast<int>(d->cls)}; };
    if (rank(a) != rank(b)) return rank(a) < rank(b);
    if (a->loc < b->loc) return true;
    if (b->loc < a->loc) return false;
    return std::tie(a->message, a->hint) < std::tie(b->message, b->hint);
  });
  // 3. Fold what differs only in location and subjects into its first occurrence; drop repeats.
  std::vector<Diag> out;
  std::unordered_map<std::string, size_t> folds;  // severity, class, message, hint, kind -> index in out
  std::unordered_set<std::string> lines;
  for (const Diag* d : live) {
    if (d->subjects.empty()) {
      if (lines.insert(d->str()).second) out.push_back(*d);
      continue;
    }
    std::string key = std::to_string(static_cast<int>(d->severity)) + std::to_string(static_cast<int>(d->cls)) +
                      d->message + '\0' + d->hint + '\0' + d->subject_kind;
    const auto [it, added] = folds.try_emplace(std::move(key), out.size());
    if (added) out.push_back(*d);
    else out[it->second].subjects.insert(out[it->second].subjects.end(), d->subjects.begin(), d->subjects.end());
  }
  for (Diag& d : out) {
    if (d.subjects.size() < 2) continue;
    std::sort(d.subjects.begin(), d.subjects.end(),
              [](const std::string& x, const std::string& y) { return natural_less(x, y); });
    d.subjects.erase(std::unique(d.subjects.begin(), d.subjects.end()), d.subjects.end());
  }
  return out;
}

size_t Diags::count(DiagSeverity severity) const {
  const std::vector<Diag> shown = sorted();
  return static_cast<size_t>(
      std::count_if(shown.begin(), shown.end(), [&](const Diag& d) { return d.severity == severity; }));
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
