#include "platform/sonic/counters.h"

#include <array>
#include <optional>
#include <utility>

#include "platform/sonic/show_table.h"
#include "util/diag.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::sonic {

namespace {

std::string where(std::string_view table, std::string_view row, std::string_view column) {
  return std::string(table) + " " + quote(row) + " column " + quote(column);
}

/// The text from the first line that starts with `header` (after spaces) to the next blank line.
std::optional<std::string_view> block(std::string_view text, std::string_view header) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    const std::string_view line = text.substr(at, end == std::string_view::npos ? text.size() - at : end - at);
    const size_t first = line.find_first_not_of(' ');
    if (first != std::string_view::npos && line.substr(first).starts_with(header)) {
      const size_t blank = text.find("\n\n", at);
      return text.substr(at, blank == std::string_view::npos ? std::string_view::npos : blank - at + 1);
    }
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return std::nullopt;
}

}  // namespace

std::optional<uint64_t> count(std::string_view cell) {
  std::string digits;
  size_t group = 0;  // digits since the last comma
  for (const char c : cell) {
    if (c != ',') {
      digits += c;
      ++group;
      continue;
    }
    if (group == 0 || group > 3 || (digits.size() > group && group != 3)) return std::nullopt;
    group = 0;
  }
  if (digits.size() != cell.size() && group != 3) return std::nullopt;  // after a comma, three digits
  return parse_u64(digits);
}

Expected<PortCounters> pfc_counters(std::string_view text) {
  PortCounters out;
  for (const auto& [header, prefix] : {std::pair{"Port Rx", "pfc_rx_pause_"}, std::pair{"Port Tx", "pfc_tx_pause_"}}) {
    const auto table = block(text, header);
    if (!table) return unexpected(std::string("no \"") + header + "\" table");
    auto rows = parse_show_table(*table, {header, "PFC0", "PFC1", "PFC2", "PFC3", "PFC4", "PFC5", "PFC6", "PFC7"});
    if (!rows) return unexpected(std::string(header) + ": " + rows.error());
    for (const TableRow& row : *rows) {
      const std::string& port = row.find(header)->second;
      if (!valid_port_name(port)) continue;  // no inventory port has it; CONFIG_DB's reader names it
      for (int p = 0; p < 8; ++p) {
        const std::string column = "PFC" + std::to_string(p);
        const std::string& cell = row.find(column)->second;
        if (cell == "N/A") continue;
        const auto v = count(cell);
        if (!v) return unexpected(where(header, port, column) + ": " + quote(cell) + " is not a count");
        out[port][prefix + std::to_string(p)] = *v;
      }
    }
  }
  return out;
}

Expected<PortCounters> pfcwd_stats(std::string_view text) {
  PortCounters out;
  if (text.find_first_not_of(" \n") == std::string_view::npos) return out;  // no queue has stats
  constexpr std::string_view kStorm = "STORM DETECTED/RESTORED", kTx = "TX OK/DROP", kRx = "RX OK/DROP";
  auto rows = parse_show_table(text, {"QUEUE", kStorm, kTx, kRx});
  if (!rows) return unexpected("pfcwd stats: " + rows.error());
  for (const TableRow& row : *rows) {
    const std::string& queue = row.find("QUEUE")->second;
    const size_t colon = queue.rfind(':');
    const std::string port = queue.substr(0, colon == std::string::npos ? 0 : colon);
    const std::string q = colon == std::string::npos ? "" : queue.substr(colon + 1);
    if (!valid_port_name(port)) continue;  // as in the pfc counters
    const auto index = parse_u64(q);
    if (!index || *index > 15 || q.size() > 2)
      return unexpected("pfcwd stats: queue " + quote(queue) + " is not \"<port>:<queue 0-15>\"");
    // "a/b": two counts (pfcwd/main.py prints "0" for a statistic COUNTERS_DB lacks).
    const auto pair = [&](std::string_view column) -> Expected<std::array<uint64_t, 2>> {
      const std::string& cell = row.find(column)->second;
      const size_t slash = cell.find('/');
      const auto a = slash == std::string::npos ? std::nullopt : count(std::string_view(cell).substr(0, slash));
      const auto b = slash == std::string::npos ? std::nullopt : count(std::string_view(cell).substr(slash + 1));
      if (!a || !b) return unexpected(where("pfcwd stats", queue, column) + ": " + quote(cell) + " is not \"a/b\"");
      return std::array<uint64_t, 2>{*a, *b};
    };
    auto storm = pair(kStorm);
    if (!storm) return unexpected(storm.error());
    auto tx = pair(kTx);
    if (!tx) return unexpected(tx.error());
    auto rx = pair(kRx);
    if (!rx) return unexpected(rx.error());
    auto& c = out[port];
    c["watchdog_storms_" + q] = (*storm)[0];
    c["watchdog_restored_" + q] = (*storm)[1];
    c["watchdog_drops_" + q] = (*tx)[1] + (*rx)[1];
  }
  return out;
}

Expected<PortCounters> pg_drop_counters(std::string_view text) {
  PortCounters out;
  constexpr std::string_view kHeader = "Ingress PG dropped packets:";
  const size_t first = text.find_first_not_of(" \n");
  if (first != std::string_view::npos && text.substr(first).starts_with("Warning: PG counters are disabled"))
    return out;  // FLEX_COUNTER_TABLE PG_DROP off: the switch counts none
  const auto table = block(text, kHeader);
  if (!table) return unexpected("priority-group drop counters: no \"" + std::string(kHeader) + "\" line");
  auto rows = parse_show_table(table->substr(std::min(table->find('\n'), table->size())), {"Port"});
  if (!rows) return unexpected("priority-group drop counters: " + rows.error());
  for (const TableRow& row : *rows) {
    const std::string& port = row.find("Port")->second;
    if (!valid_port_name(port)) continue;  // as in the pfc counters
    for (const auto& [column, cell] : row) {
      if (column == "Port") continue;
      const auto pg = column.size() == 3 && column.starts_with("PG") ? parse_u64(column.substr(2)) : std::nullopt;
      if (!pg || *pg > 7)
        return unexpected("priority-group drop counters: column " + quote(column) + " is not PG0-PG7");
      if (cell == "N/A" || (cell.size() > 1 && cell[0] == '-' && parse_u64(cell.substr(1)))) continue;
      const auto v = count(cell);
      if (!v)
        return unexpected(where("priority-group drop counters", port, column) + ": " + quote(cell) + " is not a count");
      out[port]["rx_discards_" + std::to_string(*pg)] = *v;
    }
  }
  return out;
}

Expected<PortCounters> interface_flaps(std::string_view text) {
  auto rows = parse_show_table(text, {"Interface", "Flap Count"});
  if (!rows) return unexpected("interfaces flap: " + rows.error());
  PortCounters out;
  for (const TableRow& row : *rows) {
    const std::string& port = row.find("Interface")->second;
    if (!valid_port_name(port)) continue;  // as in the pfc counters
    const std::string& cell = row.find("Flap Count")->second;
    const auto v = cell == "Never" ? std::optional<uint64_t>(0) : count(cell);
    if (!v) return unexpected(where("interfaces flap", port, "Flap Count") + ": " + quote(cell) + " is not a count");
    out[port]["link_changes"] = *v;
  }
  return out;
}

}  // namespace fabricctl::sonic
