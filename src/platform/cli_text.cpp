#include "platform/cli_text.h"

#include <algorithm>

#include "util/text.h"

namespace fabricctl {

std::string_view trim_cell(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> text_lines(std::string_view text) {
  std::vector<std::string_view> out;
  for (size_t start = 0; start < text.size();) {
    const size_t end = std::min(text.find('\n', start), text.size());
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<std::string_view> words_of(std::string_view line) {
  std::vector<std::string_view> out;
  for (size_t i = 0; i < line.size();) {
    if (line[i] == ' ') {
      ++i;
      continue;
    }
    const size_t end = std::min(line.find(' ', i), line.size());
    out.push_back(line.substr(i, end - i));
    i = end;
  }
  return out;
}

bool dash_rule(std::string_view line) {
  line = trim_cell(line);
  return !line.empty() && line.find_first_not_of("- ") == std::string_view::npos;
}

namespace {

// Bounds on one table: a 512-port switch prints a few hundred kB.
constexpr size_t kMaxTableBytes = size_t{8} << 20;
constexpr size_t kMaxRows = 10000;

/// The trimmed cell of `line` in [begin, end) (end npos: to the end of the line).
std::string_view cell(std::string_view line, size_t begin, size_t end) {
  if (begin >= line.size()) return {};
  return trim_cell(line.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
}

}  // namespace

Expected<std::vector<TableRow>> parse_dash_table(std::string_view text, const std::vector<std::string_view>& required,
                                                 CellSpan span) {
  if (text.size() > kMaxTableBytes)
    return unexpected("output of " + std::to_string(text.size()) + " bytes is more than the limit");
  const std::vector<std::string_view> lines = text_lines(text);
  size_t rule = 0;
  while (rule < lines.size() && !dash_rule(lines[rule])) ++rule;
  if (rule == 0 || rule >= lines.size()) return unexpected("no table: no header line followed by a line of dashes");
  const std::string_view header = lines[rule - 1], dashes = lines[rule];
  // Each column's run of dashes: [begin, end).
  std::vector<std::pair<size_t, size_t>> runs;
  for (size_t i = 0; i < dashes.size();) {
    if (dashes[i] != '-') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < dashes.size() && dashes[j] == '-') ++j;
    runs.emplace_back(i, j);
    i = j;
  }
  std::vector<std::pair<size_t, size_t>> cells;  // each column's cells: [begin, end)
  cells.reserve(runs.size());
  for (size_t c = 0; c < runs.size(); ++c) {
    if (span == CellSpan::tabulate) cells.emplace_back(c == 0 ? 0 : runs[c - 1].second, runs[c].second);
    else cells.emplace_back(runs[c].first, c + 1 < runs.size() ? runs[c + 1].first : std::string_view::npos);
  }
  std::vector<std::string> names;
  names.reserve(cells.size());
  for (const auto& [begin, end] : cells) names.emplace_back(cell(header, begin, end));
  for (const std::string_view want : required)
    if (std::find(names.begin(), names.end(), want) == names.end())
      return unexpected("the table has no column \"" + std::string(want) + "\" (columns: " + join(names, ", ") + ")");
  std::vector<TableRow> rows;
  for (size_t l = rule + 1; l < lines.size(); ++l) {
    const std::string_view line = lines[l];
    if (trim_cell(line).empty() || dash_rule(line) || trim_cell(line).rfind("===", 0) == 0) break;
    if (rows.size() == kMaxRows) return unexpected("more than " + std::to_string(kMaxRows) + " rows");
    TableRow row;
    for (size_t c = 0; c < cells.size(); ++c) row.emplace(names[c], cell(line, cells[c].first, cells[c].second));
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace fabricctl
