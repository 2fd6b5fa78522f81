// The DCB netlink codec (linux/dcbnl.h, kernel net/dcb/dcbnl.c): the RTM_GETDCB / RTM_SETDCB messages the
// host collector and the host apply send, and the decoders of the kernel's replies. Pure: bytes in, bytes
// out, no socket (transport/netlink.h carries the bytes). Requests are built with libnl exactly as
// iproute2's `dcb` builds them (dcb/dcb.c dcb_prepare: NLM_F_REQUEST | NLM_F_ACK, struct dcbmsg with
// dcb_family AF_UNSPEC, then DCB_ATTR_IFNAME as a NUL-terminated string); nlmsg_seq and nlmsg_pid are 0
// here and set by the transport.
//
// Wire layout of every message (host byte order, as all of netlink):
//   struct nlmsghdr (16 B: len u32, type u16, flags u16, seq u32, pid u32)
//   struct dcbmsg   (4 B: dcb_family u8, cmd u8, dcb_pad u16)
//   attributes      (struct nlattr: len u16 incl. its 4-byte header, type u16; payload padded to 4 B)
//
// Replies are untrusted input: every length is checked against the buffer and against the uapi struct it
// must hold, and anything malformed is an error that names the attribute and the bad length.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "platform/linux/dcb_state.h"
#include "util/expected.h"

namespace fabricctl {

/// One complete netlink message, as sent or received.
using NetlinkBytes = std::vector<uint8_t>;

/// The parts of an IEEE set: what is absent is not sent, so the kernel leaves it unchanged. The kernel
/// applies them in its own fixed order (ETS, PFC, then each app entry) and stops at the first one the
/// driver refuses: a failed set may have applied the parts before it.
struct DcbIeeeSet {
  std::optional<DcbEts> ets;
  std::optional<DcbPfc> pfc;  // requests/indications are counters: sent, ignored by drivers
  std::vector<DcbApp> apps;   // added (or replaced, same selector and protocol) to the app table
  bool operator==(const DcbIeeeSet&) const = default;
};

/// RTM_GETDCB, DCB_CMD_IEEE_GET for `ifname`: PFC, ETS, the app table (and DCBX mode) in one reply.
/// Error: an interface name the kernel would refuse (empty, longer than 15 bytes, '/', ':', space or a
/// control character), quoted.
Expected<NetlinkBytes> encode_ieee_get(std::string_view ifname);

/// RTM_SETDCB, DCB_CMD_IEEE_SET for `ifname`, nested as iproute2 nests it: DCB_ATTR_IEEE holding
/// DCB_ATTR_IEEE_ETS (struct ieee_ets), DCB_ATTR_IEEE_PFC (struct ieee_pfc) and DCB_ATTR_IEEE_APP_TABLE
/// (one DCB_ATTR_IEEE_APP struct dcb_app per entry). Error: a bad name, nothing to set, or a value out
/// of range (a priority or TC above 7, a bandwidth above 100).
Expected<NetlinkBytes> encode_ieee_set(std::string_view ifname, const DcbIeeeSet& set);

/// RTM_SETDCB, DCB_CMD_IEEE_DEL for `ifname`: removes these app table entries (matched on all three
/// fields). Error: a bad name, no entries, or a priority above 7.
Expected<NetlinkBytes> encode_ieee_del_apps(std::string_view ifname, const std::vector<DcbApp>& apps);

/// Decodes the kernel's reply to encode_ieee_get(): exactly one RTM_GETDCB message with cmd
/// DCB_CMD_IEEE_GET. Attributes this codec does not know (peer state, maxrate, buffers, ...) are skipped;
/// the ones it knows must have exactly their uapi size.
Expected<DcbState> decode_ieee_get_reply(std::span<const uint8_t> message);

/// Decodes the kernel's reply to encode_ieee_set() (`cmd` DCB_CMD_IEEE_SET) or encode_ieee_del_apps()
/// (DCB_CMD_IEEE_DEL): one RTM_SETDCB message whose 1-byte DCB_ATTR_IEEE is the driver's result, a
/// negative errno in a u8 (the netlink ACK that follows says 0 even when the driver refused). Error: a
/// malformed reply, or the driver's refusal with its errno named.
Expected<void> decode_ieee_set_reply(std::span<const uint8_t> message, uint8_t cmd);

// The kernel's side, for fakes (a fake transport that answers from a table of DcbState and records the
// sets it was sent) and for round-trip tests.

/// A decoded RTM_SETDCB request.
struct DcbSetRequest {
  uint8_t cmd = 0;  // DCB_CMD_IEEE_SET or DCB_CMD_IEEE_DEL
  std::string ifname;
  DcbIeeeSet set;  // for DCB_CMD_IEEE_DEL only `apps`
  bool operator==(const DcbSetRequest&) const = default;
};

/// Decodes what encode_ieee_set() or encode_ieee_del_apps() built, as strictly as the replies.
Expected<DcbSetRequest> decode_ieee_set_request(std::span<const uint8_t> message);

/// The reply the kernel sends to an IEEE get for `state` (dcbnl_ieee_fill's order: DCB_ATTR_IFNAME, the
/// DCB_ATTR_IEEE nest with ETS, PFC and the app table, then DCB_ATTR_DCBX); nlmsg_seq and pid 0.
Expected<NetlinkBytes> encode_ieee_get_reply(const DcbState& state);

/// The reply the kernel sends to an IEEE set or del (`cmd`) whose driver returned `err` (0 or a negative
/// errno), nlmsg_seq and pid 0.
NetlinkBytes encode_ieee_set_reply(uint8_t cmd, int err);

}  // namespace fabricctl
