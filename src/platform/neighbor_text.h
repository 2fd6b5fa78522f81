// A neighbour's own words (its LLDP system name and port) reach snapshots, reports and terminals, and
// anyone who can rename a host chooses them: a value a snapshot would refuse makes that port's neighbour
// unreadable, never the switch and never the fabric (docs/collect.md).
#pragma once

#include <string>
#include <string_view>

#include "platform/port_table.h"
#include "state/observed.h"
#include "util/diag.h"
#include "util/names.h"

namespace fabricctl {

/// Why `n` cannot be kept as a port's neighbour: its system name or port is not 1-255 bytes without
/// control characters (what a snapshot takes), named by the output's own field (`system_field`,
/// `port_field`) with the value quoted, made printable; empty when both are fine. An empty field is
/// fine: the neighbour did not say.
inline std::string neighbor_text_problem(const LldpNeighbor& n, std::string_view system_field,
                                         std::string_view port_field) {
  for (const auto& [field, value] : {std::pair{system_field, &n.system_name}, std::pair{port_field, &n.port_id}})
    if (!value->empty() && !valid_text(*value, 255))
      return std::string(field) + ": \"" + printable(*value, 64) + "\" is not 1-255 " + std::string(kTextRule);
  return "";
}

/// A table row's neighbour `n` of `port`, into `out`: kept (a later row of the port replaces an earlier
/// one), or, when neighbor_text_problem finds a bad value, the port unreadable ("COMMAND: PORT: why"),
/// and it stays so whatever rows follow.
inline void add_table_neighbor(PortTable<LldpNeighbor>& out, const std::string& port, LldpNeighbor n,
                               std::string_view command, std::string_view system_field, std::string_view port_field) {
  if (const std::string bad = neighbor_text_problem(n, system_field, port_field); !bad.empty()) {
    out.ports.erase(port);
    out.unreadable.insert_or_assign(port, std::string(command) + ": " + port + ": " + bad);
  } else if (!out.unreadable.count(port)) {
    out.ports.insert_or_assign(port, std::move(n));
  }
}

}  // namespace fabricctl
