#include "platform/sonic/show_table.h"

#include <algorithm>
#include <optional>

#include "platform/cli_text.h"
#include "platform/neighbor_text.h"
#include "util/diag.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::sonic {
namespace {

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
  return parse_dash_table(text, required, CellSpan::tabulate);
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

Expected<PortTable<LldpNeighbor>> lldp_table(std::string_view text) {
  auto rows = parse_show_table(text, {"LocalPort", "RemoteDevice", "RemotePortID"});
  if (!rows) return unexpected("show lldp table: " + rows.error());
  PortTable<LldpNeighbor> out;
  for (const TableRow& r : *rows) {
    const std::string& port = r.find("LocalPort")->second;
    if (!valid_port_name(port)) continue;  // as in the status table
    // What the neighbour says of itself is kept as it is (checks compare it, reports escape it), but
    // a table that names nothing is not a neighbour.
    LldpNeighbor n{r.find("RemoteDevice")->second, r.find("RemotePortID")->second};
    if (n.system_name.empty() && n.port_id.empty()) continue;
    add_table_neighbor(out, port, std::move(n), "show lldp table", "RemoteDevice", "RemotePortID");
  }
  return out;
}

}  // namespace fabricctl::sonic
