// "Did you mean" suggestions for near-miss keywords (after ninja's SpellcheckString).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

/// Levenshtein edit distance between two strings.
size_t edit_distance(std::string_view a, std::string_view b);

/// The closest candidate to `word`, or "" when none is close enough to be a likely typo.
std::string closest_match(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace fabricctl
