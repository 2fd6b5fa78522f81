// SONiC adapter, read side: a switch's CONFIG_DB (the JSON `show runningconfiguration all` prints, the
// same shape as config_db.json) as the vendor-neutral observed state of its ports, the inverse of
// config_db.cpp. Device output is untrusted: the document is read with the strict JSON reader, every
// value it uses is checked, and a port whose entries are malformed or point at entries that do not
// exist is reported unreadable with the reason, while the other ports are still read.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::sonic {

/// What CONFIG_DB says of the ports. Fields CONFIG_DB does not hold (oper state, LLDP, counters) are
/// left empty for the other show commands to fill; so is a field whose entry the switch lacks.
struct ConfigDbPorts {
  std::vector<PortObserved> ports;                // natural order of their names
  std::map<std::string, std::string> unreadable;  // port -> why (a CONFIG_DB path and the problem)
};

/// The ports of `text`: those of the PORT table, or, without one, those the QoS tables name.
/// The error: `text` is not a JSON object of tables (nothing of it can be trusted then).
Expected<ConfigDbPorts> ports_from_config_db(std::string_view text);

/// A multi-ASIC switch prints one CONFIG_DB per namespace ({"localhost": {...}, "asic0": {...}}, 202305
/// and later), and GCU wants /localhost/ or /asicN/ in every path (202405 and later). Whether `key`, a
/// top-level key of `show runningconfiguration all`, names such a namespace (no CONFIG_DB table does).
bool namespace_name(std::string_view key);

/// Why collect and apply refuse such a switch.
inline constexpr std::string_view kMultiAsic =
    "a multi-ASIC switch (show runningconfiguration all has a CONFIG_DB per namespace): fabricctl does not read "
    "or change these yet";

}  // namespace fabricctl::sonic
