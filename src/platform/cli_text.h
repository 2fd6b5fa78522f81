// Pieces of reading a NOS's text output (show tables), shared by the platform adapters that must read
// text where the NOS offers no JSON. Pure functions on views of the output; no vendor's layout here.
#pragma once

#include <string_view>
#include <vector>

namespace fabricctl {

/// `s` without leading and trailing spaces, tabs and carriage returns.
std::string_view trim_cell(std::string_view s);

/// The lines of `text`, without their '\n'.
std::vector<std::string_view> text_lines(std::string_view text);

/// A line of dashes and spaces with at least one dash: the rule under a table's header.
bool dash_rule(std::string_view line);

}  // namespace fabricctl
