// Pieces of reading a NOS's text output (show tables), shared by the platform adapters that must read
// text where the NOS offers no JSON. Pure functions on views of the output; no vendor's layout here.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl {

/// `s` without leading and trailing spaces, tabs and carriage returns.
std::string_view trim_cell(std::string_view s);

/// The lines of `text`, without their '\n'.
std::vector<std::string_view> text_lines(std::string_view text);

/// The words of `line`, split at runs of spaces (a CLI line: `match dscp 24-31`).
std::vector<std::string_view> words_of(std::string_view line);

/// A line of dashes and spaces with at least one dash: the rule under a table's header.
bool dash_rule(std::string_view line);

/// One row of a table: column header -> cell, both trimmed.
using TableRow = std::map<std::string, std::string, std::less<>>;

/// Where a column's cells lie, given its run of dashes.
enum class CellSpan {
  /// python-tabulate's "simple" format (SONiC's show commands): from the end of the previous column's
  /// dashes to the end of its own, since tabulate aligns numbers right and a wide value reaches into
  /// the gap; a cell with spaces ("GigabitEthernet 0/2") stays one cell.
  tabulate,
  /// Left-aligned cells (NVUE's text tables): from the start of its dashes to the start of the next
  /// column's; the last column runs to the end of the line.
  left_aligned,
};

/// The rows of the first dash-ruled table in `text`: a header line, a line of dashes per column (two
/// spaces apart), then one line per row until a blank line, another rule (a footer) or a "===" section
/// title. Lines before the header are skipped. Every name in `required` must be a column. Device output
/// is untrusted: its size and row count are bounded, and a missing column is an error naming those the
/// table has.
Expected<std::vector<TableRow>> parse_dash_table(std::string_view text, const std::vector<std::string_view>& required,
                                                 CellSpan span);

}  // namespace fabricctl
