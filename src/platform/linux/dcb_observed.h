// The DCB state the kernel reports (dcb_state.h) in the vendor-neutral observed fields (state/observed.h).
#pragma once

#include "platform/linux/dcb_state.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl {

/// Fills `port`'s lossless (PFC enabled per priority), priority_to_tc and tc (ETS), trust and
/// dscp_to_priority (the app table's DSCP entries) from `state`; leaves fields the state lacks empty.
/// Trust is DSCP when the app table has a DSCP entry, else PCP (mlx5: the first DSCP entry switches the
/// port to DSCP trust, deleting the last switches it back); dscp_to_priority is set for DSCP trust only,
/// unmapped DSCPs at priority 0 (the kernel's default). Error: an ETS algorithm the neutral schedule
/// cannot express (credit-based shaper, vendor), or a DSCP entry above 63, quoted.
Expected<void> fill_observed(const DcbState& state, PortObserved& port);

}  // namespace fabricctl
