// SONiC's `show` tables: sonic-utilities prints them with python-tabulate's "simple" format, a header
// line, a line of dashes per column (two spaces apart), then one line per row. The dashes give every
// column's exact span, so a cell with spaces ("GigabitEthernet 0/2") stays one cell. Device output is
// untrusted: sizes are bounded, and a table whose header lacks a column the reader needs is an error.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "platform/cli_text.h"
#include "platform/port_table.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::sonic {

using fabricctl::TableRow;

/// The rows of the first table in `text` (lines before its header, like `show lldp table`'s capability
/// codes, and after its last row, like its dashes-and-total footer, are skipped): parse_dash_table
/// (platform/cli_text.h) with tabulate's cell spans. Every name in `required` must be a column.
Expected<std::vector<TableRow>> parse_show_table(std::string_view text, const std::vector<std::string_view>& required);

/// `show interfaces status`: per port, its speed (Mb/s), MTU and oper state, where the cells hold them
/// ("N/A" and empty cells leave the field empty). A row whose port is not a valid port name is left
/// out: no inventory port has that name (CONFIG_DB's reader reports such a port unreadable).
Expected<std::map<std::string, PortObserved, std::less<>>> interfaces_status(std::string_view text);

/// `show lldp table`: the neighbour of each local port (its system name and port ID); rows of ports
/// with invalid names are left out, as in the status table.
Expected<PortTable<LldpNeighbor>> lldp_table(std::string_view text);

}  // namespace fabricctl::sonic
