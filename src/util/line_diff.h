// Unified diffs of text, as `diff -u` prints them, for reviews of rendered configuration.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fabricctl {

struct DiffStats {
  size_t added = 0;    // lines only in the new text
  size_t removed = 0;  // lines only in the old text
};

/// The unified diff from `before` to `after` ("--- a_name", "+++ b_name", then "@@ -l,n +l,n @@"
/// hunks with `context` lines around each change), or "" when they are equal. Lines are split on
/// LF; a text that does not end in LF gets "\ No newline at end of file" as diff(1) prints it.
/// Bounded: past `max_edits` differing lines (Myers' D; its trace is D x 2D words, 16 MB at 1000) the differing middle
/// is shown as replaced whole, so a rewritten 300,000-line file costs linear time, not quadratic.
std::string unified_diff(std::string_view before, std::string_view after, std::string_view a_name,
                         std::string_view b_name, size_t context = 3, size_t max_edits = 1000,
                         DiffStats* stats = nullptr);

}  // namespace fabricctl
