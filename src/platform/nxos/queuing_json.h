// Cisco NX-OS adapter, read side: the counters of `show queuing interface | json` and `show queuing
// pfc-queue detail | json`, health's counter commands (docs/reference-nxos.md, section D; docs/counters-
// reference.md). No JSON capture of either is public: their shape is put together from Cisco's
// show-command schema, clients run on real switches and a real switch's text form, and is UNCONFIRMED
// until the NX-OS acceptance checklist's item 2 is done (docs/reference-nxos.md, section E). Device output
// is untrusted: read with the strict JSON reader under size and depth limits; a malformed value of a
// port makes that port unreadable, with the JSON path and the value quoted, while the others are read.
#pragma once

#include <string_view>

#include "platform/port_table.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::nxos {

/// `show queuing interface`: the queue and PFC counters of each Ethernet port, in the names of
/// docs/counters-reference.md. Each TABLE_module.ROW_module.TABLE_queuing_interface.ROW_queuing_interface
/// row (a TABLE_queuing_interface at the top is read too: Cisco's schema lists none of TABLE_module)
/// names its port in `if_name_str`; a port's Egress and Ingress rows are read together. Of each
/// TABLE_qosgrp_egress_stats row of an Egress row (or one without `dir`) whose `eq-qosgrp` is a queue 0-7
/// (nxapi_qos_group(); `CONTROL QOS GROUP` and `SPAN QOS GROUP` are skipped), the entries `Tx` `Pkts`,
/// `WRED/AFD & Tail Drop` `Pkts` (or `Dropped` `Pkts`, earlier releases) and `ECN` `Pkts`, summed over
/// their unicast, OOBFC unicast and multicast columns, as queue_tx_packets_<q>, queue_drops_<q> and
/// ecn_marked_<q>; other entries are not read. Of each TABLE_pfc_stats row, in whichever row of the port
/// prints them, `tx-pause-count` and `rx-pause-count` as pfc_tx_pause_<cos> and pfc_rx_pause_<cos>.
/// A count that is not a decimal of 64 bits, a queue or CoS out of range, or a counter printed twice (for
/// PFC: again with another value) makes its port unreadable. The error: not a JSON object, or a row
/// without its `if_name_str`.
Expected<PortTable<PortObserved>> queuing_json(std::string_view text);

/// `show queuing pfc-queue detail`: the PFC watchdog's counts per port and no-drop queue. Nested as
/// queuing_json() reads, with the port as the first word of `if_name_str` ("Ethernet1/1 Interface PFC
/// watchdog ..."); each TABLE_qosgrp_stats row names its QoS group in `eq-qosgrp` (nxapi_qos_group(): "3 "
/// in the Cisco engineer's client), and each of its TABLE_qosgrp_stats_entry rows holds one statistic:
/// `q-shutdown` (the storms: the times the watchdog shut the queue), `q-restored`, and `q-pkt-dropped` +
/// `q-ing-pkt-dropped` (what it dropped while the queue was shut, egress and ingress) as
/// watchdog_storms_<q>, watchdog_restored_<q> and watchdog_drops_<q>. A statistic printed twice in a group
/// makes its port unreadable; otherwise as queuing_json().
Expected<PortTable<PortObserved>> pfc_queue_json(std::string_view text);

}  // namespace fabricctl::nxos
