#include "platform/nvue/qos_counters.h"

#include <optional>
#include <utility>
#include <vector>

#include "platform/cli_text.h"
#include "platform/nvue/show_table.h"
#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::nvue {
namespace {

using Field = std::pair<std::string_view, std::string_view>;  // column, neutral name (prefix)

/// The text of section `title`: from its title line to the end (the table parser stops at its end).
std::optional<std::string_view> section(std::string_view text, std::string_view title) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = std::min(text.find('\n', at), text.size());
    if (trim_cell(text.substr(at, end - at)) == title) return text.substr(at);
    at = end + 1;
  }
  return std::nullopt;
}

/// A count cell: digits; nullopt for "n/a". The error names where it is.
Expected<std::optional<uint64_t>> count(const std::string& cell, std::string_view where) {
  if (cell == "n/a") return std::optional<uint64_t>();
  if (const auto n = parse_u64(cell)) return std::optional<uint64_t>(*n);
  return unexpected(std::string(where) + ": " + quote(cell) + " is not a count");
}

/// Section `title`'s rows, keyed by `key` (a priority or class 0-7): `fields` as <neutral>_<key>.
Expected<void> per_index(std::string_view text, std::string_view title, std::string_view key,
                         const std::vector<Field>& fields, std::map<std::string, uint64_t>& out) {
  const auto body = section(text, title);
  if (!body) return unexpected("no \"" + std::string(title) + "\" section");
  std::vector<std::string_view> required{key};
  for (const auto& [column, neutral] : fields) required.push_back(column);
  auto rows = parse_table(*body, required);
  if (!rows) return unexpected(std::string(title) + ": " + rows.error());
  for (const TableRow& row : *rows) {
    const std::string& index = row.find(key)->second;
    if (index.size() != 1 || index[0] < '0' || index[0] > '7')
      return unexpected(std::string(title) + ": " + std::string(key) + " " + quote(index) + " is not 0-7");
    for (const auto& [column, neutral] : fields) {
      auto n = count(row.find(column)->second, std::string(title) + " " + index + " column " + quote(column));
      if (!n) return unexpected(n.error());
      if (*n) out[std::string(neutral) + "_" + index] = **n;
    }
  }
  return {};
}

}  // namespace

Expected<std::map<std::string, uint64_t>> qos_counters(std::string_view text) {
  std::map<std::string, uint64_t> out;
  if (auto r = per_index(text, "PFC Statistics", "switch-priority",
                         {{"rx-pause-frames", "pfc_rx_pause"}, {"tx-pause-frames", "pfc_tx_pause"}}, out);
      !r)
    return unexpected(r.error());
  if (auto r = per_index(text, "Egress Queue Statistics", "traffic-class",
                         {{"tx-frames", "queue_tx_packets"}, {"wred-discards", "wred_drops"}}, out);
      !r)
    return unexpected(r.error());
  const auto port = section(text, "Qos Port Statistics");
  if (!port) return unexpected("no \"Qos Port Statistics\" section");
  auto rows = parse_table(*port, {"Counter", "Transmit"});
  if (!rows) return unexpected("Qos Port Statistics: " + rows.error());
  for (const TableRow& row : *rows) {
    if (row.find("Counter")->second != "ecn-marked-packets") continue;
    auto n = count(row.find("Transmit")->second, "Qos Port Statistics ecn-marked-packets column \"Transmit\"");
    if (!n) return unexpected(n.error());
    if (*n) out["ecn_marked"] = **n;
  }
  return out;
}

Expected<std::map<std::string, uint64_t>> pfc_watchdog(std::string_view text) {
  std::map<std::string, uint64_t> out;
  const auto body = section(text, "PFC WD Status");
  if (!body) return out;  // a port whose watchdog is off may print its state alone (UNCONFIRMED): no storms counted
  // The rows follow the rule after a blank line: the table without its blank lines.
  std::string table;
  for (const std::string_view line : text_lines(*body))
    if (!trim_cell(line).empty()) table.append(line).push_back('\n');
  if (auto r = per_index(table, "PFC WD Status", "traffic-class", {{"deadlock-count", "watchdog_storms"}}, out); !r)
    return unexpected(r.error());
  return out;
}

}  // namespace fabricctl::nvue
