#include "util/spell.h"

#include <algorithm>

#include "util/diag.h"

namespace fabricctl {
namespace {

// No real name is a typo of a longer one; comparing longer words would only cost time.
constexpr size_t kMaxWord = 64;

}  // namespace

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

std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates, SpellBudget* budget) {
  if (word.empty() || word.size() > kMaxWord) return {};
  // A typo is at most a third of the word (at least 1, at most 3 edits), as ninja allows.
  const size_t limit = std::clamp<size_t>(word.size() / 3, 1, 3);
  std::string_view best;
  size_t best_distance = limit + 1;
  for (std::string_view c : candidates) {
    const size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap >= best_distance) continue;  // cheap length filter: cannot beat the best so far
    const size_t cost = (word.size() + 1) * (c.size() + 1);
    if (budget) {
      if (budget->cells < cost) return {};
      budget->cells -= cost;
    }
    const size_t d = edit_distance(word, c, best_distance - 1);
    if (d < best_distance) {
      best_distance = d;
      best = c;
      if (d == 0) break;
    }
  }
  return std::string(best);
}

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates, SpellBudget* budget) {
  const std::string hint = closest_match(word, candidates, budget);
  return hint.empty() ? std::string() : "; did you mean " + quote(hint) + "?";
}

}  // namespace fabricctl
