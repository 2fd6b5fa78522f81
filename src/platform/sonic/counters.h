// SONiC's counter tables, in fabricctl's neutral counter names (state/observed.h PortObserved::counters,
// docs/counters-reference.md):
// - `show pfc counters` (sonic-utilities scripts/pfcstat): a "Port Rx" and a "Port Tx" table, one
//   column per priority PFC0-PFC7, numbers with thousands separators ("1,200") or "N/A".
//   -> pfc_rx_pause_<p>, pfc_tx_pause_<p>
// - `show pfcwd stats -e` (pfcwd/main.py; -e lists every queue, zeros included): per queue
//   "Ethernet0:3", "STORM DETECTED/RESTORED" and the "TX OK/DROP", "RX OK/DROP" pairs since the counters
//   were cleared. -> watchdog_storms_<q>, watchdog_restored_<q>, watchdog_drops_<q> (TX and RX drops)
// Both print counts since the last `sonic-clear` of the user running them (a per-user cache), so a
// count may go down: a judgement of rates treats a fall as a reset. Untrusted input: bounded tables, and
// a cell that is neither a count nor "N/A" is an error naming the row and column.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::sonic {

/// A count as sonic-utilities prints it (netstat.py format_number_with_comma): "1,234,567" or "12", at
/// most 2^64-1; nullopt for anything else ("N/A", a sign, a misplaced comma).
std::optional<uint64_t> count(std::string_view cell);

/// `show pfc counters`. Both tables must be there; a port in neither is absent, an "N/A" cell too. A row
/// whose port is not a valid port name is left out (no inventory port has that name; CONFIG_DB's
/// reader reports such a port unreadable), as in `show interfaces status`.
Expected<PortCounters> pfc_counters(std::string_view text);

/// `show pfcwd stats -e`. Rows of invalid port names are left out, as above; a queue that is not
/// "<port>:<0-15>" or a pair that is not two counts is refused.
Expected<PortCounters> pfcwd_stats(std::string_view text);

/// `show priority-group drop counters` (scripts/pg-drop): "Ingress PG dropped packets:", then a table
/// of a Port column and one column per ingress priority group (PG0-PG7, those COUNTERS_DB has), packets
/// dropped for lack of buffer since the user's last clear. fabricctl renders each lossless priority's
/// traffic into the PG of its own number (config_db.cpp, TC_TO_PRIORITY_GROUP_MAP), so PG<n>'s drops
/// are priority <n>'s: rx_discards_<n>. "Warning: PG counters are disabled..." (FLEX_COUNTER_TABLE
/// PG_DROP off) gives no counters; "N/A", and a negative count (a counter that fell below the user's
/// cleared value), give none for that cell.
Expected<PortCounters> pg_drop_counters(std::string_view text);

/// `show interfaces flap` (show/interfaces/__init__.py `flap`, 202411 and later): per port its "Flap
/// Count", APPL_DB PORT_TABLE's flap_count, which orchagent raises on every change of the port's oper
/// status, down and up (sonic-swss portsorch.cpp updateDbPortFlapCount): link_changes, one flap being
/// two. "Never" (no change since orchagent started) is 0.
Expected<PortCounters> interface_flaps(std::string_view text);

}  // namespace fabricctl::sonic
