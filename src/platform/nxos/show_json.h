// Cisco NX-OS adapter, read side: the JSON of `show interface | json` and `show lldp neighbors detail |
// json` (docs/reference-nxos.md, section D; real outputs in tests/fixtures/nxos). NX-OS prints tables as
// TABLE_<x>.ROW_<x>, where a table of one row holds that row as an object instead of a list, and prints
// numbers as strings or as integers depending on the release: both are read. Device output is
// untrusted: it is read with the strict JSON reader under size and depth limits; a malformed value of a
// port makes that port unreadable, with the JSON path and the value quoted, while the others are read.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "platform/port_table.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::nxos {

/// What `show interface` says of the Ethernet ports: MTU (`eth_mtu`, bytes), speed (`eth_bw`, Kbit/s,
/// as Mb/s; 0 leaves it empty), oper state (`state` "up") and the counters `eth_crc`, `eth_indiscard`
/// and `eth_outdiscard` (as fcs_errors, rx_discards, tx_discards). Other interfaces (mgmt0, VlanN,
/// port-channelN, loopbackN, nve1) are skipped. The error: not a JSON object with a TABLE_interface.
Expected<PortTable<PortObserved>> interfaces_json(std::string_view text);

/// `show lldp neighbors detail`: per row the local port `l_port_id` (NX-OS prints it short, `Eth1/9`:
/// read as `Ethernet1/9`), the neighbour's `sys_name` and `port_id`. The first neighbour of each
/// Ethernet port; a row with a bad value makes its port unreadable. `{"neigh_count": "0"}` alone (no
/// table) is a switch without neighbours.
Expected<PortTable<LldpNeighbor>> lldp_neighbors_json(std::string_view text);

/// `Eth1/9` -> `Ethernet1/9`; any other name as it is.
std::string long_port_name(std::string_view name);

}  // namespace fabricctl::nxos
