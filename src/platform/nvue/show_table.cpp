#include "platform/nvue/show_table.h"

#include <algorithm>

#include "platform/cli_text.h"
#include "platform/neighbor_text.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nvue {
Expected<std::vector<TableRow>> parse_table(std::string_view text, const std::vector<std::string_view>& required) {
  return parse_dash_table(text, required, CellSpan::left_aligned);
}

Expected<PortTable<LldpNeighbor>> lldp_view(std::string_view text) {
  auto rows = parse_table(text, {"Interface", "Remote Host", "Remote Port"});
  if (!rows) return unexpected("nv show interface --view=lldp: " + rows.error());
  PortTable<LldpNeighbor> out;
  for (const TableRow& r : *rows) {
    const std::string& port = r.find("Interface")->second;
    if (!valid_port_name(port)) continue;  // no inventory port has such a name
    // What the neighbour says of itself is kept as it is (checks compare it, reports escape it).
    LldpNeighbor n{r.find("Remote Host")->second, r.find("Remote Port")->second};
    if (n.system_name.empty() && n.port_id.empty()) continue;
    add_table_neighbor(out, port, std::move(n), "nv show interface --view=lldp", "Remote Host", "Remote Port");
  }
  return out;
}

}  // namespace fabricctl::nvue
