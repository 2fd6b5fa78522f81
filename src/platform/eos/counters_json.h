// Arista EOS adapter, read side: the QoS counters of `show priority-flow-control counters | json` and
// `show qos interfaces ecn counters queue | json` (shapes: shared/reference/outputs/eos, ANTA's test
// data), in the neutral names of docs/counters-reference.md. Device output is untrusted: read with the
// strict JSON reader under size and depth limits; a malformed value fails the whole reading, its JSON
// path and value quoted, as a counter that reads wrong must not be judged.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::eos {

/// `show priority-flow-control counters`: `interfaceCounters.<port>.rxFrames` / `txFrames`, PFC frames
/// received and sent on the port, summed over the priorities (EOS counts them per interface, not per
/// priority): `pfc_rx_pause` and `pfc_tx_pause`. Ports that are not Ethernet ports, or whose names
/// fabricctl would not accept, are skipped.
Expected<PortCounters> pfc_counters_json(std::string_view text);

/// `show qos interfaces ecn counters queue`: `intfQueueCounters.<port>.queueCounters.<queue>`, packets
/// ECN-marked on the egress queue (0-7), as decimal strings; "-" where the queue has no ECN
/// configured (no counter: `ecn_marked_<q>` is left out, never 0).
Expected<PortCounters> ecn_counters_json(std::string_view text);

}  // namespace fabricctl::eos
