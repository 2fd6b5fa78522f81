// Juniper Junos (QFX) adapter, read side: the JSON of `show interfaces | display json` and `show lldp
// neighbors | display json` (docs/reference-junos.md, section d; outputs in tests/fixtures/junos,
// SOURCES.md). Junos maps its XML mechanically: every element is an array of objects, a leaf is
// `[{"data": "value"}]` with the value always a string, an empty element `[{"data": [null]}]` or `[{}]`,
// XML attributes sit beside `data` in an "attributes" object. Two quirks of real output are tolerated:
// a CLI prompt line after the document (`{master:0}` on a virtual-chassis member), which is cut, and an
// element printed twice in one object, accepted when both are equal (jsonr::JsonLimits::equal_duplicates).
// Device output is untrusted: it is read with the strict JSON reader under size and depth limits; a
// malformed value of a port makes that port unreadable, with the JSON path and the value quoted, while
// the others are read.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "platform/port_table.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::junos {

/// What `show interfaces` says of the front-panel Ethernet ports (`et-`, `xe-`, `ge-` FPC/PIC/PORT, with
/// an optional `:N` channel: `et-0/0/0:1`), from `interface-information` / `physical-interface`: `mtu`,
/// the media MTU, which counts the 14-byte Ethernet header, as the IP MTU (media - 14; `Unlimited`,
/// empty or absent: not known), `speed` (`400Gbps`, `800mbps`, as Mb/s; `Auto`, `Unlimited`,
/// `Unspecified`, empty or absent: not known), `oper-status` (`up` or `down`), and, where the output
/// carries them (`show interfaces extensive`; not the plain command), the counters of
/// docs/counters-reference.md: `framing-errors`, `input-drops`, `output-drops` and `carrier-transitions`
/// as fcs_errors, rx_discards, tx_discards and link_changes; `fec_ccw_count` and `fec_nccw_count` as
/// fec_corrected and fec_uncorrectable; PFC frames per priority as pfc_rx_pause_<p> and pfc_tx_pause_<p>;
/// each queue's transmitted and dropped packets as queue_tx_packets_<q> and queue_drops_<q>. A counter
/// that is not a 64-bit count, or is printed twice, makes its port unreadable. Other interfaces (em0,
/// irb, lo0, ae0, vtep, pfe-0/0/0, ...) are skipped; a name that starts as a port's but is not one is
/// unreadable, and so is a port printed twice. The error: not a JSON object with an
/// "interface-information", or an interface without its name. Errors and unreadable ports name `command`.
Expected<PortTable<PortObserved>> interfaces_json(std::string_view text, std::string_view command = "show interfaces");

/// `show lldp neighbors` (the brief form): per `lldp-neighbors-information` / `lldp-neighbor-information`
/// entry, the local port `lldp-local-port-id`, or `lldp-local-interface` (older releases; and the detail
/// form, where `lldp-local-port-id` is a number) when that is not a port name; the neighbour's
/// `lldp-remote-system-name`; its port `lldp-remote-port-id` when `lldp-remote-port-id-subtype` is
/// `Interface name` or `Locally assigned`, else `lldp-remote-port-description`, else
/// `lldp-remote-port-id`. The first neighbour of each front-panel port (as interfaces_json() names them);
/// entries on other interfaces (me0.0, or a logical unit ge-0/0/0.0 as older releases print it) are
/// skipped; an entry with a bad value makes its port unreadable (a name with a control character, or over
/// 255 bytes). An empty output, or no entries, is a switch without neighbours. The error: not a JSON
/// object with an "lldp-neighbors-information", or an entry without a local port.
Expected<PortTable<LldpNeighbor>> lldp_neighbors_json(std::string_view text);

}  // namespace fabricctl::junos
