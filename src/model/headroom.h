// PFC headroom: the buffer a lossless priority needs to absorb what is still arriving after it
// sends PAUSE. Shown in rendered state for review; platforms that size buffers themselves (SONiC's
// buffermgrd, NVUE) get the cable length instead.
#pragma once

#include <cstdint>

namespace fabricctl {

/// Headroom per lossless priority, bytes, rounded up to 1 KiB:
///   2 max-size frames (one leaving each end when PAUSE is sent and received)
/// + the cable's round trip at line rate (light in fibre: 2e8 m/s)
/// + the peer's response time in pause quanta (512 bit times each) for its speed.
/// `speed_mbps` 0 (unknown) yields 0.
uint32_t pfc_headroom_bytes(int64_t speed_mbps, int cable_length_m, int mtu);

}  // namespace fabricctl
