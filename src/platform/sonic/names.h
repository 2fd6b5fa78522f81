// Names of the CONFIG_DB objects fabricctl owns on a SONiC switch, shared by the CONFIG_DB builder and
// the fix texts so that a fix names exactly the keys the rendered configuration writes.
#pragma once

#include <string>
#include <string_view>

#include "state/desired.h"

namespace fabricctl::sonic {

/// One name for every map fabricctl owns (DSCP_TO_TC_MAP|ROCE, ...), never SONiC's "AZURE" ones, which
/// `config qos reload` regenerates.
inline constexpr const char* kMapName = "ROCE";

/// The WRED profile of a queue fabricctl configures without ECN: it marks and drops nothing, so the
/// queue tail-drops as if it had none. `config load` cannot take the default template's AZURE_LOSSLESS
/// off a queue, only replace it; every queue fabricctl writes therefore names its WRED profile.
inline constexpr const char* kNoEcnWred = "ROCE_NO_ECN";

/// The egress buffer profiles of SONiC's default buffer template (buffers_config.j2), which
/// BUFFER_QUEUE entries point to.
inline constexpr const char* kEgressLossless = "egress_lossless_profile";
inline constexpr const char* kEgressLossy = "egress_lossy_profile";

/// SCHEDULER key of a traffic class: "ROCE_TC3".
std::string scheduler_name(int tc);

/// The WRED profile of an ECN queue: "ROCE_LOSSLESS" for the queue RoCE data uses, "ROCE_ECN_TC<n>"
/// for any other ECN queue (sonic-wred-profile.yang: [-a-zA-Z0-9_], at most 32 characters).
std::string wred_profile_name(const QosIntent& q, int tc);

}  // namespace fabricctl::sonic
