// "Did you mean" suggestions for near-miss names and keywords (after ninja's SpellcheckString).
// The one place suggestions are computed: its cost is bounded whatever the input, since a hostile
// or merely broken file can hold many thousands of unknown names, each compared with thousands of
// candidates.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

/// Levenshtein edit distance between two strings, or `max + 1` as soon as it is known to exceed
/// `max` (the difference in length alone, or a row of the table with no cell within `max`).
size_t edit_distance(std::string_view a, std::string_view b, size_t max = std::numeric_limits<size_t>::max() - 1);

/// Work left for suggestions, counted in edit-distance table cells. Share one among all the
/// suggestions of a run so that their total cost is bounded: once spent, no more are offered
/// (the errors themselves are still reported).
struct SpellBudget {
  /// ~50 ms of work: thousands of suggestions for real typos, and a bound for hostile input.
  static constexpr size_t kDefaultCells = 50'000'000;
  size_t cells = kDefaultCells;
};

/// The closest candidate to `word`, or "" when none is close enough to be a likely typo: at most a
/// third of the word's length in edits (at least 1, at most 3). Words longer than 64 bytes get no
/// suggestion. Without a budget, one call still costs at most candidates x 64 x 7 cells.
std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates,
                          SpellBudget* budget = nullptr);

/// "; did you mean \"x\"?" for the closest candidate, or "" when there is none.
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates,
                         SpellBudget* budget = nullptr);

}  // namespace fabricctl
