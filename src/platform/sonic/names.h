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

/// SCHEDULER key of a traffic class: "ROCE_TC3".
std::string scheduler_name(int tc);

/// The WRED profile of an ECN queue: "ROCE_LOSSLESS" for the queue RoCE data uses, "ROCE_ECN_TC<n>"
/// for any other ECN queue (sonic-wred-profile.yang: [-a-zA-Z0-9_], at most 32 characters).
std::string wred_profile_name(const QosIntent& q, int tc);

}  // namespace fabricctl::sonic
