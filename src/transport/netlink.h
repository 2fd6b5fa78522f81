// Netlink to the local kernel (libnl): one request on a NETLINK_ROUTE socket, its reply messages and the
// kernel's final status. The thin adapter under the DCB codec (platform/linux/dcbnl.h), which builds the
// requests and decodes the replies; ops/dcb_query.h joins the two. It carries bytes and knows no DCB.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "util/expected.h"

namespace fabricctl {

/// Bounds of one request.
struct NetlinkOptions {
  std::chrono::milliseconds timeout{5'000};  // from send to the kernel's ACK or error
  size_t max_reply_bytes = size_t{1} << 20;  // all reply messages together
};

/// What the kernel answered to one request.
struct NetlinkAnswer {
  /// The kernel's status from the closing NLMSG_ERROR: 0 (an ACK) or a positive errno, e.g. EOPNOTSUPP
  /// when the device has no handler for the request (DCB on a veth), ENODEV for no such device.
  int error = 0;
  /// The reply messages before it, each one complete message (nlmsghdr and payload).
  std::vector<std::vector<uint8_t>> messages;
};

/// Sends `request` (one complete netlink message with NLM_F_REQUEST | NLM_F_ACK; its nlmsg_seq is
/// replaced by the socket's) on a new NETLINK_ROUTE socket in the calling thread's network namespace and
/// collects the answer. Error: the socket could not be opened or used, no ACK or error came within the
/// timeout, the replies exceeded max_reply_bytes, or a reply was malformed; each says which and quotes
/// the numbers.
Expected<NetlinkAnswer> netlink_route_request(std::span<const uint8_t> request, const NetlinkOptions& options = {});

}  // namespace fabricctl
