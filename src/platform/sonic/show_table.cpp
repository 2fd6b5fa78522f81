#include "platform/sonic/show_table.h"

#include <algorithm>
#include <optional>

#include "platform/cli_text.h"
#include "util/diag.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::sonic {
namespace {

// Bounds on one table: a 512-port switch prints a few hundred kB.
constexpr size_t kMaxTableBytes = size_t{8} << 20;
constexpr size_t kMaxRows = 10000;

struct Span {
  size_t begin, end;  // [begin, end) in the line
};

/// The substring of `line` under `s`, a cell; a value that starts before the span (tabulate aligns
/// numbers right, so a wide value may reach into the gap) is taken from the gap on.
std::string_view cell(std::string_view line, const Span& s, size_t gap_begin) {
  if (gap_begin >= line.size()) return {};
  const size_t end = std::min(s.end, line.size());
  return trim_cell(line.substr(gap_begin, end - gap_begin));
}

/// "100G" -> 100000 Mb/s; "400G", "25G", "10G", "1G", "100M"; nothing for "N/A" or another form.
std::optional<int> speed_mbps(std::string_view s) {
  if (s.size() < 2) return std::nullopt;
  const char unit = s.back();
  const std::optional<int64_t> n = parse_int(s.substr(0, s.size() - 1));
  if (!n || *n <= 0 || *n > 1600000) return std::nullopt;
  if (unit == 'G') return static_cast<int>(*n * 1000);
  if (unit == 'M') return static_cast<int>(*n);
  return std::nullopt;
}

}  // namespace

Expected<std::vector<TableRow>> parse_show_table(std::string_view text, const std::vector<std::string_view>& required) {
  if (text.size() > kMaxTableBytes)
    return unexpected("output of " + std::to_string(text.size()) + " bytes is more than the limit");
  const std::vector<std::string_view> lines = text_lines(text);
  size_t rule = 0;
  while (rule < lines.size() && !dash_rule(lines[rule])) ++rule;
  if (rule == 0 || rule >= lines.size()) return unexpected("no table: no header line followed by a line of dashes");
  const std::string_view header = lines[rule - 1], dashes = lines[rule];
  std::vector<Span> spans;
  for (size_t i = 0; i < dashes.size();) {
    if (dashes[i] != '-') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < dashes.size() && dashes[j] == '-') ++j;
    spans.push_back({i, j});
    i = j;
  }
  std::vector<std::string> names;
  for (size_t c = 0; c < spans.size(); ++c) {
    const size_t from = c == 0 ? 0 : spans[c - 1].end;
    names.emplace_back(cell(header, spans[c], from));
  }
  for (const std::string_view want : required)
    if (std::find(names.begin(), names.end(), want) == names.end())
      return unexpected("the table has no column \"" + std::string(want) + "\" (columns: " + join(names, ", ") + ")");
  std::vector<TableRow> rows;
  for (size_t l = rule + 1; l < lines.size(); ++l) {
    const std::string_view line = lines[l];
    if (trim_cell(line).empty() || dash_rule(line)) break;  // the end of the table (a footer may follow)
    if (rows.size() == kMaxRows) return unexpected("more than " + std::to_string(kMaxRows) + " rows");
    TableRow row;
    for (size_t c = 0; c < spans.size(); ++c)
      row.emplace(names[c], cell(line, spans[c], c == 0 ? 0 : spans[c - 1].end));
    rows.push_back(std::move(row));
  }
  return rows;
}

Expected<std::map<std::string, PortObserved, std::less<>>> interfaces_status(std::string_view text) {
  auto rows = parse_show_table(text, {"Interface", "Speed", "MTU", "Oper"});
  if (!rows) return unexpected("show interfaces status: " + rows.error());
  std::map<std::string, PortObserved, std::less<>> out;
  for (const TableRow& r : *rows) {
    const std::string& name = r.find("Interface")->second;
    if (!valid_port_name(name)) continue;  // no inventory port has such a name; CONFIG_DB's reader names it
    PortObserved p;
    p.name = name;
    p.speed_mbps = speed_mbps(r.find("Speed")->second);
    if (const auto mtu = parse_int(r.find("MTU")->second); mtu && *mtu >= 68 && *mtu <= 9216)
      p.mtu = static_cast<int>(*mtu);
    const std::string& oper = r.find("Oper")->second;
    if (oper == "up") p.oper_up = true;
    else if (oper == "down") p.oper_up = false;
    out.insert_or_assign(name, std::move(p));
  }
  return out;
}

Expected<std::map<std::string, LldpNeighbor, std::less<>>> lldp_table(std::string_view text) {
  auto rows = parse_show_table(text, {"LocalPort", "RemoteDevice", "RemotePortID"});
  if (!rows) return unexpected("show lldp table: " + rows.error());
  std::map<std::string, LldpNeighbor, std::less<>> out;
  for (const TableRow& r : *rows) {
    const std::string& port = r.find("LocalPort")->second;
    if (!valid_port_name(port)) continue;  // as in the status table
    // What the neighbour says of itself is kept as it is (checks compare it, reports escape it), but
    // a table that names nothing is not a neighbour.
    LldpNeighbor n{r.find("RemoteDevice")->second, r.find("RemotePortID")->second};
    if (n.system_name.empty() && n.port_id.empty()) continue;
    out.insert_or_assign(port, std::move(n));
  }
  return out;
}

}  // namespace fabricctl::sonic
