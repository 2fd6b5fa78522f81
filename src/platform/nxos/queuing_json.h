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
/// TABLE_qosgrp_egress_stats row whose `eq-qosgrp` is a queue 0-7 (not `CONTROL QOS GROUP` or `SPAN QOS
/// GROUP`), the entries `Tx` `Pkts`, `WRED/AFD & Tail Drop` `Pkts` (or `Dropped` `Pkts`, earlier
/// releases) and `ECN` `Pkts`, summed over their unicast, OOBFC unicast and multicast columns, as
/// queue_tx_packets_<q>, queue_drops_<q> and ecn_marked_<q>; other entries are not read. Of each
/// TABLE_pfc_stats row, `tx-pause-count` and `rx-pause-count` as pfc_tx_pause_<cos> and pfc_rx_pause_<cos>.
/// Key names from Cisco's show-command schema, nesting and entry names from clients run on real
/// switches and a real switch's text form: no JSON capture exists, so the shape is UNCONFIRMED
/// (docs/reference-nxos.md, section D). A count that is not a number, a queue or CoS out of range, or a
/// counter printed twice makes its port unreadable. The error: not a JSON object, or a row without its
/// `if_name_str`.
Expected<PortTable<PortObserved>> queuing_json(std::string_view text);

/// `show queuing pfc-queue detail`: the PFC watchdog's counts per port and no-drop queue. Nested as
/// queuing_json() reads (`if_name_str` holds the port as its first word, "Ethernet1/1 Interface PFC
/// watchdog ..."), each TABLE_qosgrp_stats row names its QoS group in `eq-qosgrp` (an integer, or a string
/// holding it as its one number), and each of its TABLE_qosgrp_stats_entry rows one statistic: `q-shutdown`
/// (the storms: times the watchdog shut the queue), `q-restored` and `q-pkt-dropped` (packets it dropped
/// while shut) as watchdog_storms_<q>, watchdog_restored_<q> and watchdog_drops_<q>. Key names from
/// Cisco's show-command schema, nesting and the port and group texts from a client a Cisco engineer runs
/// on real 10.4 and 10.5 switches: no JSON capture exists, UNCONFIRMED (docs/reference-nxos.md, section D).
/// Unreadable ports and errors as queuing_json().
Expected<PortTable<PortObserved>> pfc_queue_json(std::string_view text);

}  // namespace fabricctl::nxos
