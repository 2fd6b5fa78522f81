#include "platform/nvue/show_table.h"

#include <algorithm>

#include "platform/cli_text.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nvue {
namespace {

// Bounds on one table: a 512-port switch prints a few hundred kB.
constexpr size_t kMaxTableBytes = size_t{8} << 20;
constexpr size_t kMaxRows = 10000;

/// The cell of `line` that starts at `begin` and ends before `end` (npos: the end of the line).
std::string_view cell(std::string_view line, size_t begin, size_t end) {
  if (begin >= line.size()) return {};
  return trim_cell(line.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
}

}  // namespace

Expected<std::vector<TableRow>> parse_table(std::string_view text, const std::vector<std::string_view>& required) {
  if (text.size() > kMaxTableBytes)
    return unexpected("output of " + std::to_string(text.size()) + " bytes is more than the limit");
  const std::vector<std::string_view> lines = text_lines(text);
  size_t rule = 0;
  while (rule < lines.size() && !dash_rule(lines[rule])) ++rule;
  if (rule == 0 || rule >= lines.size()) return unexpected("no table: no header line followed by a line of dashes");
  const std::string_view header = lines[rule - 1], dashes = lines[rule];
  std::vector<size_t> starts;  // where each column's dashes start
  for (size_t i = 0; i < dashes.size(); ++i)
    if (dashes[i] == '-' && (i == 0 || dashes[i - 1] == ' ')) starts.push_back(i);
  auto end_of = [&](size_t c) { return c + 1 < starts.size() ? starts[c + 1] : std::string_view::npos; };
  std::vector<std::string> names;
  for (size_t c = 0; c < starts.size(); ++c) names.emplace_back(cell(header, starts[c], end_of(c)));
  for (const std::string_view want : required)
    if (std::find(names.begin(), names.end(), want) == names.end())
      return unexpected("the table has no column \"" + std::string(want) + "\" (columns: " + join(names, ", ") + ")");
  std::vector<TableRow> rows;
  for (size_t l = rule + 1; l < lines.size(); ++l) {
    const std::string_view line = lines[l];
    if (trim_cell(line).empty() || dash_rule(line) || trim_cell(line).rfind("===", 0) == 0) break;
    if (rows.size() == kMaxRows) return unexpected("more than " + std::to_string(kMaxRows) + " rows");
    TableRow row;
    for (size_t c = 0; c < starts.size(); ++c) row.emplace(names[c], cell(line, starts[c], end_of(c)));
    rows.push_back(std::move(row));
  }
  return rows;
}

Expected<std::map<std::string, LldpNeighbor, std::less<>>> lldp_view(std::string_view text) {
  auto rows = parse_table(text, {"Interface", "Remote Host", "Remote Port"});
  if (!rows) return unexpected("nv show interface --view=lldp: " + rows.error());
  std::map<std::string, LldpNeighbor, std::less<>> out;
  for (const TableRow& r : *rows) {
    const std::string& port = r.find("Interface")->second;
    if (!valid_port_name(port)) continue;  // no inventory port has such a name
    // What the neighbour says of itself is kept as it is (checks compare it, reports escape it).
    LldpNeighbor n{r.find("Remote Host")->second, r.find("Remote Port")->second};
    if (n.system_name.empty() && n.port_id.empty()) continue;
    out.insert_or_assign(port, std::move(n));
  }
  return out;
}

}  // namespace fabricctl::nvue
