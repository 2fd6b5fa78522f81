// "Did you mean" suggestions for near-miss names and keywords (after ninja's SpellcheckString).
// The one place suggestions are computed: its cost is bounded whatever the input, since a hostile
// or merely broken file can hold many thousands of unknown names, each compared with thousands of
// candidates.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
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

/// Another name for a candidate ("cumulus" for "nvue"): offered as a suggestion, never accepted.
struct SpellAlias {
  std::string_view alias;
  std::string_view name;
};

/// The candidate `word` most likely means, or "" when none is likely. In order:
/// 1. a candidate equal to `word` but for ASCII case ("SONiC" -> "sonic");
/// 2. an alias equal to `word` but for case, whose name is a candidate ("cumulus" -> "nvue");
/// 3. the closest by edit distance, at most a third of the word's length in edits (at least 1, at
///    most 3): a typo ("roce-losless" -> "roce-lossless");
/// 4. the one candidate `word` abbreviates (abbreviates()): "pfc" -> "pfc_watchdog",
///    "Et1/1" -> "Ethernet1/1"; none when several qualify.
/// Words longer than 64 bytes get no suggestion. Without a budget, one call still costs at most
/// candidates x 64 x 7 cells.
std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates,
                          SpellBudget* budget = nullptr, std::span<const SpellAlias> aliases = {});

/// "; did you mean \"x\"?" for closest_match(), or "" when there is none.
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& candidates,
                         SpellBudget* budget = nullptr, std::span<const SpellAlias> aliases = {});

/// Whether `word` is a short form of `name`: both split where their first digit is (a name stem
/// and a numbering: "Et" "1/1"), the numberings are equal, and word's stem, at least 2 characters,
/// is a shorter prefix of name's, ignoring ASCII case. "Et1/1" and "eth1/1" abbreviate
/// "Ethernet1/1"; "pfc" abbreviates "pfc_watchdog"; "Et1/2" does not abbreviate "Ethernet1/1".
bool abbreviates(std::string_view word, std::string_view name);

/// `word` with its stem replaced by `stem` when it abbreviates a name of that stem:
/// expand_stem("Et1/1", "Ethernet") == "Ethernet1/1"; "" when it does not.
std::string expand_stem(std::string_view word, std::string_view stem);

}  // namespace fabricctl
