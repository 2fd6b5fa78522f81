#include "util/spell.h"

#include <algorithm>

#include "util/diag.h"

namespace fabricctl {
namespace {

// No real name is a typo of a longer one; comparing longer words would only cost time.
constexpr size_t kMaxWord = 64;
// A one-letter stem abbreviates too much to be a suggestion ("e" for every Ethernet port).
constexpr size_t kMinStem = 2;

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

/// Where the numbering of a name starts: its first digit, or its end.
size_t stem_length(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] < '0' || s[i] > '9')) ++i;
  return i;
}

}  // namespace

bool abbreviates(std::string_view word, std::string_view name) {
  const size_t ws = stem_length(word), ns = stem_length(name);
  if (ws < kMinStem || ws >= ns || word.substr(ws) != name.substr(ns)) return false;
  return iequal(word.substr(0, ws), name.substr(0, ws));
}

std::string expand_stem(std::string_view word, std::string_view stem) {
  const size_t ws = stem_length(word);
  if (ws < kMinStem || ws >= stem.size() || !iequal(word.substr(0, ws), stem.substr(0, ws))) return {};
  return std::string(stem) + std::string(word.substr(ws));
}

size_t edit_distance(std::string_view a, std::string_view b, size_t max) {
  const size_t length_gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (length_gap > max) return max + 1;
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    size_t row_min = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
      row_min = std::min(row_min, row[j]);
    }
    // Cells never decrease along a path through the table: when a whole row is over the limit,
    // so is the answer.
    if (row_min > max) return max + 1;
  }
  return std::min(row[b.size()], max + 1);
}

std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates, SpellBudget* budget,
                          std::span<const SpellAlias> aliases) {
  if (word.empty() || word.size() > kMaxWord) return {};
  // An edit-distance table is paid for in full before it is computed. A scan of the candidates
  // (case, aliases, abbreviations) costs one cell per candidate, taken from what is left: once the
  // budget is spent, no call scans anything.
  auto pay = [&](size_t cost) {
    if (!budget) return true;
    if (budget->cells < cost) return false;
    budget->cells -= cost;
    return true;
  };
  auto scan = [&] {
    if (!budget) return true;
    if (budget->cells == 0) return false;
    budget->cells -= std::min(budget->cells, candidates.size());
    return true;
  };
  if (!scan()) return {};
  for (std::string_view c : candidates)
    if (iequal(word, c)) return std::string(c);
  for (const SpellAlias& a : aliases) {
    if (!iequal(word, a.alias)) continue;
    for (std::string_view c : candidates)
      if (c == a.name) return std::string(c);
  }
  // A typo is at most a third of the word (at least 1, at most 3 edits), as ninja allows.
  const size_t limit = std::clamp<size_t>(word.size() / 3, 1, 3);
  std::string_view best;
  size_t best_distance = limit + 1;
  for (std::string_view c : candidates) {
    const size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap >= best_distance) continue;  // cheap length filter: cannot beat the best so far
    if (!pay((word.size() + 1) * (c.size() + 1))) return {};
    const size_t d = edit_distance(word, c, best_distance - 1);
    if (d < best_distance) {
      best_distance = d;
      best = c;
      if (d == 0) break;
    }
  }
  if (!best.empty()) return std::string(best);
  // A short form names one candidate, or it is no suggestion at all: "rdma" for rdma_device or
  // rdma_port is a question only the user can answer.
  if (!scan()) return {};
  std::string_view only;
  for (std::string_view c : candidates) {
    if (!abbreviates(word, c)) continue;
    if (!only.empty()) return {};
    only = c;
  }
  return std::string(only);
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates, SpellBudget* budget,
                         std::span<const SpellAlias> aliases) {
  const std::string hint = closest_match(word, candidates, budget, aliases);
  return hint.empty() ? std::string() : "; did you mean " + quote(hint) + "?";
}

}  // namespace fabricctl
