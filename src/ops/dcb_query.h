// DCB netlink on a local interface: the codec's requests (platform/linux/dcbnl.h) carried by the netlink
// transport (transport/netlink.h), and the kernel's answer turned into one result. The layers keep those
// two apart; this is where the host collector and the host apply use them together.
#pragma once

#include <string_view>
#include <vector>

#include "platform/linux/dcb_state.h"
#include "platform/linux/dcbnl.h"
#include "transport/netlink.h"
#include "util/expected.h"

namespace fabricctl::ops {

/// The answer to an IEEE get: the state, or that the interface has no DCB support at all (its driver
/// has no dcbnl_ops: veth, most virtual devices, mlx5 VFs), which is no failure but a fact to report.
struct DcbReply {
  bool supported = false;
  DcbState state;  // empty when !supported
};

/// DCB_CMD_IEEE_GET for `ifname` in the calling thread's network namespace. Error: a bad name, no such
/// interface, a transport failure or a malformed reply, each naming the interface.
Expected<DcbReply> dcb_ieee_get(std::string_view ifname, const NetlinkOptions& options = {});

/// DCB_CMD_IEEE_SET of `set` on `ifname`. Error: as dcb_ieee_get, no DCB support, no permission
/// (CAP_NET_ADMIN), or the driver's refusal (which may leave earlier parts applied: read the state back).
Expected<void> dcb_ieee_set(std::string_view ifname, const DcbIeeeSet& set, const NetlinkOptions& options = {});

/// DCB_CMD_IEEE_DEL of app table entries on `ifname`; errors as dcb_ieee_set.
Expected<void> dcb_ieee_del_apps(std::string_view ifname, const std::vector<DcbApp>& apps,
                                 const NetlinkOptions& options = {});

}  // namespace fabricctl::ops
