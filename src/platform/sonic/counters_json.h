// SONiC's counter commands that print JSON (sonic-utilities; shapes in docs/counters-reference.md), in
// the neutral names of docs/counters-reference.md. Every value is a string: a count with thousands
// separators ("1,200"), or "N/A" for a statistic COUNTERS_DB lacks (no counter, never 0). Device output is
// untrusted: read with the strict JSON reader under size and depth limits; a value that is neither a
// count nor "N/A" fails the whole reading, its JSON path and value quoted.
#pragma once

#include <string_view>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::sonic {

/// `portstat -e -j` (utilities_common/netstat.py table_as_json over portstat's header_errors_only, on
/// every release): {"Ethernet0": {"STATE": "U", "RX_ERR": "0", "RX_DRP": "0", "RX_OVR": "0", "TX_ERR":
/// "0", "TX_DRP": "0", "TX_OVR": "0"}} -> rx_errors (SAI_PORT_STAT_IF_IN_ERRORS: FCS among them),
/// rx_discards, tx_errors, tx_discards.
Expected<PortCounters> port_errors_json(std::string_view text);

/// `portstat -f -j` (header_fec_only, 202205 and later): FEC_CORR and FEC_UNCORR, codewords FEC
/// corrected and could not correct -> fec_corrected, fec_uncorrectable. Later releases add BER and FLR
/// columns, which are not read.
Expected<PortCounters> fec_stats_json(std::string_view text);

/// `show queue counters --json` (scripts/queuestat build_json, 202106 and later): per port, "UC<q>",
/// "MC<q>" and "ALL<q>" objects of "totalpacket", "totalbytes", "droppacket", "dropbytes", and a "time"
/// (and "cached_time") of the reading. The unicast queues, which carry RoCE: queue_tx_packets_<q>,
/// queue_drops_<q>.
Expected<PortCounters> queue_counters_json(std::string_view text);

/// `show queue wredcounters --json` (scripts/wredstat, 202505 and later; counterpoll wredqueue): as the
/// queue counters, with "wreddroppacket", "wreddropbytes", "ecnmarkedpacket", "ecnmarkedbytes" per
/// queue: wred_drops_<q>, ecn_marked_<q> of the unicast queues.
Expected<PortCounters> wred_counters_json(std::string_view text);

}  // namespace fabricctl::sonic
