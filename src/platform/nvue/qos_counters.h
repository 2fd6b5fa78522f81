// NVUE's QoS counters of one port, `nv show interface <if> counters qos` (Cumulus Linux 5.5 and later;
// NVIDIA's QoS reference, shared/reference/outputs/nvue/nv-show-interface-swp1-counters-qos.txt): text
// sections, each a title over '=' and a left-aligned table indented by four. NVIDIA documents no JSON
// of this command (docs/counters-reference.md, UNCONFIRMED item 1), so its text is read:
// - "PFC Statistics": per switch priority, rx-pause-frames and tx-pause-frames -> pfc_rx_pause_<p>,
//   pfc_tx_pause_<p>. The durations are not read: their unit is UNCONFIRMED (µs expected).
// - "Egress Queue Statistics": per traffic class, tx-frames and wred-discards -> queue_tx_packets_<q>,
//   wred_drops_<q>. tx-bytes and tx-uc-buffer-discards print in NVUE's scaled units ("56.52 MB"), too
//   coarse for a rate, and the latter's unit is UNCONFIRMED: not read.
// - "Qos Port Statistics": ecn-marked-packets, Transmit -> ecn_marked (the port's, over its queues;
//   NVUE counts no marks per traffic class in this output).
// "Ingress Buffer Statistics" prints its discards in bytes, scaled: not read. Device output is
// untrusted: a section without a column the reader needs, a row that is not a priority or class 0-7, or
// a count that is neither digits nor "n/a" is an error naming the section, row and column.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "util/expected.h"

namespace fabricctl::nvue {

/// The counters of the port `text` is the output for, in neutral names.
Expected<std::map<std::string, uint64_t>> qos_counters(std::string_view text);

/// `nv show interface <if> qos pfc-watchdog` (NVIDIA's QoS reference, shared/reference/outputs/nvue/
/// nv-show-interface-swp1-qos-pfc-watchdog.txt): the watchdog's state, then "PFC WD Status", per traffic
/// class its status (OK, DEADLOCK) and deadlock-count, the storms it detected: watchdog_storms_<q>.
/// NVIDIA's example has a blank line between the table's rule and its rows, which the reader skips.
/// Output without the status table (a port whose watchdog is off, UNCONFIRMED) gives no counters.
Expected<std::map<std::string, uint64_t>> pfc_watchdog(std::string_view text);

}  // namespace fabricctl::nvue
