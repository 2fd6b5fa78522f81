// The LLDP neighbours lldpd saw, from `lldpcli -f json0 show neighbors`: json0 is lldpd's stable JSON
// shape, in which every value is a list of objects (`-f json` folds one-element lists, so its shape
// changes with the number of neighbours). Untrusted input: a neighbour whose system name or port ID
// is not a name fabricctl accepts is left out, not passed on.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::linux_host {

/// The neighbour on each local interface, by interface name (the first neighbour when lldpd saw
/// several on one port).
Expected<std::map<std::string, LldpNeighbor, std::less<>>> lldp_neighbors(std::string_view json0);

}  // namespace fabricctl::linux_host
