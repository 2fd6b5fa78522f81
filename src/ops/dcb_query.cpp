// dcb_query.h: one request, one answer. The kernel's errno is named in the error; EOPNOTSUPP on a get is
// the DcbReply that says "no DCB here".
#include "ops/dcb_query.h"

#include <linux/dcbnl.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "util/escape.h"

namespace fabricctl::ops {
namespace {

std::string errno_text(int e) {
  const char* name = strerrorname_np(e);
  const char* desc = strerrordesc_np(e);
  return std::string(desc != nullptr ? desc : "unknown error") + " (" + (name != nullptr ? name : "errno") + " " +
         std::to_string(e) + ")";
}

std::string where(std::string_view what, std::string_view ifname) {
  return std::string(what) + " on \"" + json_string_body(ifname) + "\": ";
}

/// The kernel's refusal of the whole request (the NLMSG_ERROR status), in words for the cases a user meets.
std::string refusal(int e) {
  switch (e) {
    case ENODEV: return "no such interface in this network namespace (" + errno_text(e) + ")";
    case EOPNOTSUPP: return "the interface has no DCB support (" + errno_text(e) + ")";
    case EPERM: return "not permitted: changing DCB needs CAP_NET_ADMIN (" + errno_text(e) + ")";
    default: return "the kernel refused the request: " + errno_text(e);
  }
}

/// Sends an IEEE set or del request and checks both statuses: the NLMSG_ERROR one and the driver's inside
/// the reply (dcbnl_ieee_set acknowledges with 0 even when the driver refused).
Expected<void> set_like(std::string_view what, std::string_view ifname, Expected<NetlinkBytes> request, uint8_t cmd,
                        const NetlinkOptions& options) {
  const std::string at = where(what, ifname);
  if (!request) return unexpected(at + request.error());
  auto answer = netlink_route_request(*request, options);
  if (!answer) return unexpected(at + answer.error());
  if (answer->error != 0) return unexpected(at + refusal(answer->error));
  if (answer->messages.size() != 1)
    return unexpected(at + std::to_string(answer->messages.size()) + " reply messages, expected 1");
  if (auto ok = decode_ieee_set_reply(answer->messages.front(), cmd); !ok) return unexpected(at + ok.error());
  return {};
}

}  // namespace

Expected<DcbReply> dcb_ieee_get(std::string_view ifname, const NetlinkOptions& options) {
  const std::string at = where("dcb ieee get", ifname);
  auto request = encode_ieee_get(ifname);
  if (!request) return unexpected(at + request.error());
  auto answer = netlink_route_request(*request, options);
  if (!answer) return unexpected(at + answer.error());
  if (answer->error == EOPNOTSUPP) return DcbReply{};
  if (answer->error != 0) return unexpected(at + refusal(answer->error));
  if (answer->messages.size() != 1)
    return unexpected(at + std::to_string(answer->messages.size()) + " reply messages, expected 1");
  auto state = decode_ieee_get_reply(answer->messages.front());
  if (!state) return unexpected(at + state.error());
  return DcbReply{true, std::move(*state)};
}

Expected<void> dcb_ieee_set(std::string_view ifname, const DcbIeeeSet& set, const NetlinkOptions& options) {
  return set_like("dcb ieee set", ifname, encode_ieee_set(ifname, set), DCB_CMD_IEEE_SET, options);
}

Expected<void> dcb_ieee_del_apps(std::string_view ifname, const std::vector<DcbApp>& apps,
                                 const NetlinkOptions& options) {
  return set_like("dcb ieee del", ifname, encode_ieee_del_apps(ifname, apps), DCB_CMD_IEEE_DEL, options);
}

}  // namespace fabricctl::ops
