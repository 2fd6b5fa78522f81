// Linux host NIC adapter: the host's desired NIC state as data. nic-state.json is its dump, apply.sh
// is rendered from it (apply_context()), and the netlink apply will read the same document, so the
// script and the apply cannot disagree.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "state/desired.h"

namespace fabricctl::linux_host {

/// The desired NIC state of one host (schema kNicStateSchema): per port, in inventory order, the
/// netdev MTU, trust and DSCP app table, PFC, ETS, RDMA defaults and DCQCN, in native units (mlx5
/// firmware units for DCQCN: rates Mb/s, times microseconds; ToS byte for rdma_cm).
nlohmann::ordered_json nic_state(const DeviceDesired& device);

/// nic-state.json text: 2-space indentation, one final newline; short flat values stay on one line
/// (arrays of numbers, a DSCP/priority pair, an ETS class, the link peer) so a port reads as a page.
std::string dump_nic_state(const nlohmann::ordered_json& doc);

/// The template context of apply.sh for the host whose nic_state() is `state`: every command value
/// comes from `state`; `roce_dscp` (not part of the document) only names RoCE's DSCP in a comment.
nlohmann::json apply_context(const nlohmann::ordered_json& state, int roce_dscp);

}  // namespace fabricctl::linux_host
