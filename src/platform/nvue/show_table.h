// NVUE's text tables (`nv show ...` without `-o json`): a header line, a line of dashes per column (two
// spaces apart), then one line per row; NVUE pads cells with trailing spaces and leaves unknown cells
// empty (shared/reference/outputs/nvue). Cells are left-aligned, so a column runs from the start of its
// dashes to the start of the next column's. Used where NVUE documents no JSON: the LLDP view.
// Device output is untrusted: sizes are bounded, and a table without a column the reader needs is an
// error that names the columns it has.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "platform/cli_text.h"
#include "platform/port_table.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::nvue {

using fabricctl::TableRow;

/// The rows of the first table in `text` (lines before its header are skipped; a blank line or a
/// "===" section title ends it): parse_dash_table (platform/cli_text.h) with left-aligned cells. Every
/// name in `required` must be a column.
Expected<std::vector<TableRow>> parse_table(std::string_view text, const std::vector<std::string_view>& required);

/// `nv show interface --view=lldp`: the neighbour of each interface (columns "Interface", "Remote Host",
/// "Remote Port", as NVIDIA's reference documents for `nv show interface lldp`). Rows without a
/// neighbour, and rows whose interface is not a valid port name, are left out.
Expected<PortTable<LldpNeighbor>> lldp_view(std::string_view text);

}  // namespace fabricctl::nvue
