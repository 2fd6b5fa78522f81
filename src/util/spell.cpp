#include "util/spell.h"

#include <algorithm>
#include <numeric>

namespace fabricctl {

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates) {
  // A typo is at most a third of the word (at least 1, at most 3 edits), as ninja allows.
  const size_t limit = std::clamp<size_t>(word.size() / 3, 1, 3);
  std::string_view best;
  size_t best_distance = limit + 1;
  for (std::string_view c : candidates) {
    const size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return std::string(best);
}

}  // namespace fabricctl
