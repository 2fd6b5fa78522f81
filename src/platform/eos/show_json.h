// Arista EOS adapter, read side: the JSON of `show interfaces | json` and `show lldp neighbors | json`
// (shapes: shared/reference/outputs/eos). Device output is untrusted: it is read with the strict JSON
// reader under size and depth limits; a value of a port that is malformed makes that port unreadable,
// with the JSON path and the value quoted, while the other ports are read.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "platform/port_table.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::eos {

/// What `show interfaces` says of the Ethernet ports: MTU (`mtu`, L3, bytes), speed (`bandwidth`, bit/s,
/// as Mb/s; 0 leaves it empty) and oper state (`lineProtocolStatus` "up"). Other interfaces (Management,
/// Loopback, Port-Channel, Vxlan) are skipped.
struct InterfacesJson {
  std::map<std::string, PortObserved, std::less<>> ports;
  std::map<std::string, std::string, std::less<>> unreadable;  // port (made printable) -> why
};

/// The error: `text` is not a JSON object with an `interfaces` object.
Expected<InterfacesJson> interfaces_json(std::string_view text);

/// `show lldp neighbors`: `lldpNeighbors` a list of {port, neighborDevice, neighborPort}; also the
/// `... detail` shape, an object by port of {lldpNeighborInfo: [{systemName, neighborInterfaceInfo:
/// {interfaceId_v2 | interfaceId}}]}, an `interfaceId` in double quotes (older releases) read without
/// them. The first neighbour of each valid Ethernet port name; others skipped. A neighbour whose name or
/// port has a control character or is over 255 bytes makes its port unreadable, not the switch.
Expected<PortTable<LldpNeighbor>> lldp_neighbors_json(std::string_view text);

}  // namespace fabricctl::eos
