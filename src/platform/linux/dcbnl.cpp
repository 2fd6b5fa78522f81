// The DCB netlink codec (dcbnl.h). Requests are built with libnl's message API (nlmsg_alloc_simple,
// nla_put, nla_nest_start), which lays out headers and padding the way the kernel and iproute2 do.
// Replies are walked with libnl's attribute primitives (nla_ok, nla_next, nla_type, nla_data) but not
// with nla_parse: it skips trailing bytes silently and reports a short attribute only as -NLE_RANGE,
// while a reply from a driver is untrusted input whose every fault must be named (which attribute, what
// length, where). Payloads are copied out with memcpy into the uapi structs, never cast in place.
#include "platform/linux/dcbnl.h"

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <sys/socket.h>

#include <cctype>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "util/names.h"

namespace fabricctl {
namespace {

// The uapi sizes the kernel copies in and out (linux/dcbnl.h); the fixtures under tests/fixtures/dcbnl
// pin the same numbers from the other side.
static_assert(sizeof(ieee_pfc) == 136,
              "struct ieee_pfc: 3 u8, u16 delay at 4, u64 requests[8] at 8, indications[8] at 72");
static_assert(sizeof(ieee_ets) == 59, "struct ieee_ets: 3 u8 then 7 u8[8]");
static_assert(sizeof(dcb_app) == 4, "struct dcb_app: u8 selector, u8 priority, u16 protocol");
static_assert(sizeof(dcbmsg) == 4, "struct dcbmsg: u8 family, u8 cmd, u16 pad");

constexpr size_t kHeaderBytes = NLMSG_HDRLEN + sizeof(dcbmsg);  // 16 + 4
constexpr size_t kMaxApps = 256;  // 8 B each on the wire: far inside libnl's 4 KiB default message
// DCB_ATTR_DCB_APP (kernel 6.5+): app entries with a non-IEEE selector (PCP) in the same table. Debian
// 12's uapi header predates it.
constexpr int kAttrDcbApp = 2;
constexpr size_t kMaxIfname = 15;  // IFNAMSIZ - 1, the longest name a reply may carry

using MsgPtr = std::unique_ptr<nl_msg, decltype(&nlmsg_free)>;

/// The kernel's dev_valid_name(), so a name it would refuse fails here with the name quoted.
Expected<void> check_ifname(std::string_view name) {
  if (std::string why = interface_name_error(name); !why.empty()) return unexpected(std::move(why));
  return {};
}

/// nlmsghdr + dcbmsg + DCB_ATTR_IFNAME, as iproute2's dcb_prepare() builds them.
Expected<MsgPtr> start_message(int type, uint8_t cmd, std::string_view ifname) {
  if (auto ok = check_ifname(ifname); !ok) return unexpected(ok.error());
  MsgPtr msg(nlmsg_alloc_simple(type, NLM_F_REQUEST | NLM_F_ACK), &nlmsg_free);
  if (!msg) return unexpected("out of memory for a netlink message");
  dcbmsg dcb{};
  dcb.dcb_family = AF_UNSPEC;
  dcb.cmd = cmd;
  const std::string name(ifname);  // NUL-terminated: DCB_ATTR_IFNAME is NLA_NUL_STRING
  if (nlmsg_append(msg.get(), &dcb, sizeof(dcb), NLMSG_ALIGNTO) < 0 ||
      nla_put_string(msg.get(), DCB_ATTR_IFNAME, name.c_str()) < 0)
    return unexpected("netlink message too large");
  return msg;
}

NetlinkBytes bytes_of(nl_msg* msg) {
  const nlmsghdr* h = nlmsg_hdr(msg);
  const auto* p = reinterpret_cast<const uint8_t*>(h);
  return {p, p + h->nlmsg_len};
}

/// Closes a nest as iproute2 (mnl_attr_nest_end) and the kernel (nla_nest_end) do: kept when empty (the
/// kernel always sends DCB_ATTR_IEEE and its app table), and without the NLA_F_NESTED bit, which libnl's
/// nla_nest_start sets and neither of them does (dcbnl parses with nla_parse_nested_deprecated, which
/// takes both; without it the requests are dcb's byte for byte).
void end_nest(nl_msg* msg, nlattr* nest) {
  nla_nest_end_keep_empty(msg, nest);
  nest->nla_type = static_cast<uint16_t>(nest->nla_type & ~NLA_F_NESTED);
}

Expected<void> check_app(const DcbApp& a) {
  if (a.priority >= kDcbMaxTcs) return unexpected("app entry priority " + std::to_string(a.priority) + " is above 7");
  if (a.selector == kAppSelDscp && a.protocol > 63)
    return unexpected("app entry DSCP " + std::to_string(a.protocol) + " is above 63");
  return {};
}

Expected<void> check_ets(const DcbEts& e) {
  for (int i = 0; i < kDcbMaxTcs; ++i) {
    if (e.prio_tc[i] >= kDcbMaxTcs)
      return unexpected("ets prio_tc of priority " + std::to_string(i) + " is " + std::to_string(e.prio_tc[i]) +
                        ", above 7");
    if (e.tc_tx_bw[i] > 100)
      return unexpected("ets tc_tx_bw of tc " + std::to_string(i) + " is " + std::to_string(e.tc_tx_bw[i]) +
                        "%, above 100");
    const uint8_t t = e.tc_tsa[i];
    if (t != kTsaStrict && t != kTsaCbShaper && t != kTsaEts && t != kTsaVendor)
      return unexpected("ets tc_tsa of tc " + std::to_string(i) + " is " + std::to_string(t) + ", not 0, 1, 2 or 255");
  }
  return {};
}

ieee_ets to_uapi(const DcbEts& e) {
  ieee_ets u{};
  u.willing = e.willing;
  u.ets_cap = e.ets_cap;
  u.cbs = e.cbs;
  for (int i = 0; i < kDcbMaxTcs; ++i) {
    u.tc_tx_bw[i] = e.tc_tx_bw[i];
    u.tc_rx_bw[i] = e.tc_rx_bw[i];
    u.tc_tsa[i] = e.tc_tsa[i];
    u.prio_tc[i] = e.prio_tc[i];
    u.tc_reco_bw[i] = e.tc_reco_bw[i];
    u.tc_reco_tsa[i] = e.tc_reco_tsa[i];
    u.reco_prio_tc[i] = e.reco_prio_tc[i];
  }
  return u;
}

ieee_pfc to_uapi(const DcbPfc& p) {
  ieee_pfc u{};
  u.pfc_cap = p.pfc_cap;
  for (int i = 0; i < kDcbMaxTcs; ++i) {
    if (p.enabled[i]) u.pfc_en = static_cast<uint8_t>(u.pfc_en | (1U << i));
    u.requests[i] = p.requests[i];
    u.indications[i] = p.indications[i];
  }
  u.mbc = p.mbc;
  u.delay = p.delay;
  return u;
}

DcbEts from_uapi(const ieee_ets& u) {
  DcbEts e;
  e.willing = u.willing;
  e.ets_cap = u.ets_cap;
  e.cbs = u.cbs;
  for (int i = 0; i < kDcbMaxTcs; ++i) {
    e.tc_tx_bw[i] = u.tc_tx_bw[i];
    e.tc_rx_bw[i] = u.tc_rx_bw[i];
    e.tc_tsa[i] = u.tc_tsa[i];
    e.prio_tc[i] = u.prio_tc[i];
    e.tc_reco_bw[i] = u.tc_reco_bw[i];
    e.tc_reco_tsa[i] = u.tc_reco_tsa[i];
    e.reco_prio_tc[i] = u.reco_prio_tc[i];
  }
  return e;
}

DcbPfc from_uapi(const ieee_pfc& u) {
  DcbPfc p;
  p.pfc_cap = u.pfc_cap;
  for (int i = 0; i < kDcbMaxTcs; ++i) {
    p.enabled[i] = ((u.pfc_en >> i) & 1U) != 0;
    p.requests[i] = u.requests[i];
    p.indications[i] = u.indications[i];
  }
  p.mbc = u.mbc;
  p.delay = u.delay;
  return p;
}

/// DCB_ATTR_IEEE > DCB_ATTR_IEEE_APP_TABLE > one DCB_ATTR_IEEE_APP per entry (iproute2 dcb_app_add_del_cb).
Expected<void> put_apps(nl_msg* msg, const std::vector<DcbApp>& apps) {
  if (apps.size() > kMaxApps)
    return unexpected(std::to_string(apps.size()) + " app entries in one message, at most 256");
  nlattr* table = nla_nest_start(msg, DCB_ATTR_IEEE_APP_TABLE);
  if (table == nullptr) return unexpected("netlink message too large");
  for (const DcbApp& a : apps) {
    if (auto ok = check_app(a); !ok) return ok;
    dcb_app u{};
    u.selector = a.selector;
    u.priority = a.priority;
    u.protocol = a.protocol;
    if (nla_put(msg, DCB_ATTR_IEEE_APP, sizeof(u), &u) < 0) return unexpected("netlink message too large");
  }
  end_nest(msg, table);
  return {};
}

// ---- decoding ----

/// A reply copied into memory aligned for nlmsghdr/nlattr (a span from a socket buffer or a test vector
/// need not be), with its checked header.
struct Reply {
  std::vector<uint8_t> bytes;  // the whole message, nlmsg_len bytes
  const uint8_t* attrs() const { return bytes.data() + kHeaderBytes; }
  int attrs_len() const { return static_cast<int>(bytes.size() - kHeaderBytes); }
};

Expected<Reply> check_header(std::span<const uint8_t> m, uint16_t type, uint8_t cmd) {
  const std::string n = std::to_string(m.size());
  if (m.size() < NLMSG_HDRLEN) return unexpected(n + " bytes is shorter than a netlink header (16 bytes)");
  nlmsghdr h{};
  std::memcpy(&h, m.data(), sizeof(h));
  if (h.nlmsg_len < kHeaderBytes)
    return unexpected("nlmsg_len " + std::to_string(h.nlmsg_len) + " is shorter than a DCB message header (20 bytes)");
  if (h.nlmsg_len > m.size())
    return unexpected("nlmsg_len " + std::to_string(h.nlmsg_len) + " exceeds the " + n + " bytes received (truncated)");
  if (NLMSG_ALIGN(h.nlmsg_len) < m.size())
    return unexpected(std::to_string(m.size() - h.nlmsg_len) + " bytes after the message of " +
                      std::to_string(h.nlmsg_len) + " bytes");
  if (h.nlmsg_type != type)
    return unexpected("nlmsg_type " + std::to_string(h.nlmsg_type) + ", expected " + std::to_string(type));
  dcbmsg d{};
  std::memcpy(&d, m.data() + NLMSG_HDRLEN, sizeof(d));
  if (d.dcb_family != AF_UNSPEC)
    return unexpected("dcb_family " + std::to_string(d.dcb_family) + ", expected 0 (AF_UNSPEC)");
  if (d.cmd != cmd) return unexpected("dcb cmd " + std::to_string(d.cmd) + ", expected " + std::to_string(cmd));
  return Reply{std::vector<uint8_t>(m.begin(), m.begin() + h.nlmsg_len)};
}

/// Calls f(attr) for each attribute in [data, data + len); `where` names the enclosing attribute and
/// `base` is the message start, for offsets in errors. Trailing bytes that are no attribute are an error;
/// a last attribute without its alignment padding is not (the kernel's own walk accepts it).
template <typename F>
Expected<void> walk(const uint8_t* base, const uint8_t* data, int len, const std::string& where, F&& f) {
  // nlattr pointers into `data`: 4-aligned, since every attribute starts at an NLA_ALIGN offset of an
  // aligned buffer (Reply::bytes).
  const auto* nla = reinterpret_cast<const nlattr*>(data);
  int rem = len;
  while (rem > 0) {
    const auto offset = std::to_string(reinterpret_cast<const uint8_t*>(nla) - base);
    if (rem < static_cast<int>(sizeof(nlattr)))
      return unexpected(where + ": " + std::to_string(rem) + " stray bytes at offset " + offset +
                        ", too few for an attribute");
    if (nla_ok(nla, rem) == 0)
      return unexpected(where + ": attribute type " + std::to_string(nla_type(nla)) + " at offset " + offset +
                        " has nla_len " + std::to_string(nla->nla_len) + ", but " + std::to_string(rem) +
                        " bytes remain");
    if (auto ok = f(nla); !ok) return ok;
    nla = nla_next(nla, &rem);
  }
  return {};
}

template <typename T>
Expected<T> payload(const nlattr* nla, const char* name, const char* uapi) {
  if (nla_len(nla) != static_cast<int>(sizeof(T)))
    return unexpected(std::string(name) + " is " + std::to_string(nla_len(nla)) + " bytes, " + uapi + " is " +
                      std::to_string(sizeof(T)));
  T t{};
  std::memcpy(&t, nla_data(nla), sizeof(T));
  return t;
}

Expected<void> once(bool& seen, const char* name) {
  if (seen) return unexpected(std::string(name) + " appears twice");
  seen = true;
  return {};
}

Expected<void> read_ifname(const nlattr* a, std::string& out) {
  const auto* p = static_cast<const char*>(nla_data(a));
  const auto n = static_cast<size_t>(nla_len(a));
  if (n < 2 || n > kMaxIfname + 1 || p[n - 1] != '\0' || std::memchr(p, '\0', n - 1) != nullptr)
    return unexpected("DCB_ATTR_IFNAME of " + std::to_string(n) + " bytes is not a NUL-terminated name of 1-15 bytes");
  out.assign(p, n - 1);
  return {};
}

/// The header of a message the kernel sends (no request flags), as dcbnl_newmsg() builds it.
Expected<MsgPtr> start_reply(int type, uint8_t cmd) {
  MsgPtr msg(nlmsg_alloc_simple(type, 0), &nlmsg_free);
  if (!msg) return unexpected("out of memory for a netlink message");
  dcbmsg dcb{};
  dcb.dcb_family = AF_UNSPEC;
  dcb.cmd = cmd;
  if (nlmsg_append(msg.get(), &dcb, sizeof(dcb), NLMSG_ALIGNTO) < 0) return unexpected("netlink message too large");
  return msg;
}

Expected<void> decode_app_table(const Reply& r, const nlattr* table, DcbState& s) {
  return walk(r.bytes.data(), static_cast<const uint8_t*>(nla_data(table)), nla_len(table), "DCB_ATTR_IEEE_APP_TABLE",
              [&](const nlattr* a) -> Expected<void> {
                if (nla_type(a) != DCB_ATTR_IEEE_APP && nla_type(a) != kAttrDcbApp) return {};
                auto app = payload<dcb_app>(a, "app table entry", "struct dcb_app");
                if (!app) return unexpected(app.error());
                if (app->priority >= kDcbMaxTcs)
                  return unexpected("app table entry (selector " + std::to_string(app->selector) + ", protocol " +
                                    std::to_string(app->protocol) + ") has priority " + std::to_string(app->priority) +
                                    ", above 7");
                s.apps.push_back({app->selector, app->priority, app->protocol});
                return {};
              });
}

Expected<void> decode_ieee(const Reply& r, const nlattr* ieee, DcbState& s) {
  bool seen_ets = false, seen_pfc = false, seen_apps = false;
  return walk(r.bytes.data(), static_cast<const uint8_t*>(nla_data(ieee)), nla_len(ieee), "DCB_ATTR_IEEE",
              [&](const nlattr* a) -> Expected<void> {
                switch (nla_type(a)) {
                  case DCB_ATTR_IEEE_ETS: {
                    if (auto ok = once(seen_ets, "DCB_ATTR_IEEE_ETS"); !ok) return ok;
                    auto ets = payload<ieee_ets>(a, "DCB_ATTR_IEEE_ETS", "struct ieee_ets");
                    if (!ets) return unexpected(ets.error());
                    s.ets = from_uapi(*ets);
                    return {};
                  }
                  case DCB_ATTR_IEEE_PFC: {
                    if (auto ok = once(seen_pfc, "DCB_ATTR_IEEE_PFC"); !ok) return ok;
                    auto pfc = payload<ieee_pfc>(a, "DCB_ATTR_IEEE_PFC", "struct ieee_pfc");
                    if (!pfc) return unexpected(pfc.error());
                    s.pfc = from_uapi(*pfc);
                    return {};
                  }
                  case DCB_ATTR_IEEE_APP_TABLE:
                    if (auto ok = once(seen_apps, "DCB_ATTR_IEEE_APP_TABLE"); !ok) return ok;
                    return decode_app_table(r, a, s);
                  default: return {};  // peer state, maxrate, QCN, buffers: not read here
                }
              });
}

std::string errno_text(int e) {
  const char* name = strerrorname_np(e);
  const char* desc = strerrordesc_np(e);
  std::string out = desc != nullptr ? desc : "unknown error";
  out += " (";
  out += name != nullptr ? name : "errno";
  out += " " + std::to_string(e) + ")";
  return out;
}

}  // namespace

Expected<NetlinkBytes> encode_ieee_get(std::string_view ifname) {
  auto msg = start_message(RTM_GETDCB, DCB_CMD_IEEE_GET, ifname);
  if (!msg) return unexpected(msg.error());
  return bytes_of(msg->get());
}

Expected<NetlinkBytes> encode_ieee_set(std::string_view ifname, const DcbIeeeSet& set) {
  if (!set.ets && !set.pfc && set.apps.empty()) return unexpected("nothing to set: no ets, pfc or app entries");
  if (set.ets) {
    if (auto ok = check_ets(*set.ets); !ok) return unexpected(ok.error());
  }
  auto msg = start_message(RTM_SETDCB, DCB_CMD_IEEE_SET, ifname);
  if (!msg) return unexpected(msg.error());
  nl_msg* m = msg->get();
  nlattr* ieee = nla_nest_start(m, DCB_ATTR_IEEE);
  if (ieee == nullptr) return unexpected("netlink message too large");
  // In the order the kernel applies them (dcbnl_ieee_set), so the message reads as what happens.
  if (set.ets) {
    const ieee_ets u = to_uapi(*set.ets);
    if (nla_put(m, DCB_ATTR_IEEE_ETS, sizeof(u), &u) < 0) return unexpected("netlink message too large");
  }
  if (set.pfc) {
    const ieee_pfc u = to_uapi(*set.pfc);
    if (nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(u), &u) < 0) return unexpected("netlink message too large");
  }
  if (!set.apps.empty()) {
    if (auto ok = put_apps(m, set.apps); !ok) return unexpected(ok.error());
  }
  end_nest(m, ieee);
  return bytes_of(m);
}

Expected<NetlinkBytes> encode_ieee_del_apps(std::string_view ifname, const std::vector<DcbApp>& apps) {
  if (apps.empty()) return unexpected("nothing to delete: no app entries");
  auto msg = start_message(RTM_SETDCB, DCB_CMD_IEEE_DEL, ifname);
  if (!msg) return unexpected(msg.error());
  nl_msg* m = msg->get();
  nlattr* ieee = nla_nest_start(m, DCB_ATTR_IEEE);
  if (ieee == nullptr) return unexpected("netlink message too large");
  if (auto ok = put_apps(m, apps); !ok) return unexpected(ok.error());
  end_nest(m, ieee);
  return bytes_of(m);
}

Expected<DcbState> decode_ieee_get_reply(std::span<const uint8_t> message) {
  const std::string prefix = "dcb ieee get reply: ";
  auto r = check_header(message, RTM_GETDCB, DCB_CMD_IEEE_GET);
  if (!r) return unexpected(prefix + r.error());
  DcbState s;
  bool seen_name = false, seen_ieee = false, seen_dcbx = false;
  auto ok = walk(r->bytes.data(), r->attrs(), r->attrs_len(), "message", [&](const nlattr* a) -> Expected<void> {
    switch (nla_type(a)) {
      case DCB_ATTR_IFNAME:
        if (auto once_ok = once(seen_name, "DCB_ATTR_IFNAME"); !once_ok) return once_ok;
        return read_ifname(a, s.ifname);
      case DCB_ATTR_IEEE:
        if (auto once_ok = once(seen_ieee, "DCB_ATTR_IEEE"); !once_ok) return once_ok;
        return decode_ieee(*r, a, s);
      case DCB_ATTR_DCBX: {
        if (auto once_ok = once(seen_dcbx, "DCB_ATTR_DCBX"); !once_ok) return once_ok;
        auto v = payload<uint8_t>(a, "DCB_ATTR_DCBX", "u8");
        if (!v) return unexpected(v.error());
        s.dcbx = *v;
        return {};
      }
      default: return {};
    }
  });
  if (!ok) return unexpected(prefix + ok.error());
  if (!seen_ieee) return unexpected(prefix + "no DCB_ATTR_IEEE attribute");
  return s;
}

Expected<void> decode_ieee_set_reply(std::span<const uint8_t> message, uint8_t cmd) {
  const std::string prefix = cmd == DCB_CMD_IEEE_DEL ? "dcb ieee del reply: " : "dcb ieee set reply: ";
  auto r = check_header(message, RTM_SETDCB, cmd);
  if (!r) return unexpected(prefix + r.error());
  std::optional<uint8_t> status;
  auto ok = walk(r->bytes.data(), r->attrs(), r->attrs_len(), "message", [&](const nlattr* a) -> Expected<void> {
    if (nla_type(a) != DCB_ATTR_IEEE) return {};
    if (status) return unexpected("DCB_ATTR_IEEE appears twice");
    auto v = payload<uint8_t>(a, "status attribute DCB_ATTR_IEEE", "u8");
    if (!v) return unexpected(v.error());
    status = *v;
    return {};
  });
  if (!ok) return unexpected(prefix + ok.error());
  if (!status) return unexpected(prefix + "no DCB_ATTR_IEEE status attribute");
  // A negative errno truncated to u8 by the kernel's nla_put_u8(skb, DCB_ATTR_IEEE, err).
  const int err = *status >= 0x80 ? int{*status} - 0x100 : int{*status};
  if (err == 0) return {};
  if (err > 0) return unexpected(prefix + "status " + std::to_string(*status) + " is not a negative errno");
  return unexpected("the driver refused the change: " + errno_text(-err) +
                    "; parts the kernel applies earlier (ETS, then PFC, then app entries in order) may be in effect");
}

Expected<DcbSetRequest> decode_ieee_set_request(std::span<const uint8_t> message) {
  const std::string prefix = "dcb ieee set request: ";
  if (message.size() < kHeaderBytes)
    return unexpected(prefix + std::to_string(message.size()) + " bytes is shorter than a DCB message (20 bytes)");
  DcbSetRequest req;
  req.cmd = message[NLMSG_HDRLEN + 1];
  if (req.cmd != DCB_CMD_IEEE_SET && req.cmd != DCB_CMD_IEEE_DEL)
    return unexpected(prefix + "dcb cmd " + std::to_string(req.cmd) + ", expected 20 (IEEE_SET) or 27 (IEEE_DEL)");
  auto r = check_header(message, RTM_SETDCB, req.cmd);
  if (!r) return unexpected(prefix + r.error());
  DcbState parts;  // decode_ieee() fills a DcbState; a set request has the same nest
  bool seen_name = false, seen_ieee = false;
  auto ok = walk(r->bytes.data(), r->attrs(), r->attrs_len(), "message", [&](const nlattr* a) -> Expected<void> {
    switch (nla_type(a)) {
      case DCB_ATTR_IFNAME:
        if (auto once_ok = once(seen_name, "DCB_ATTR_IFNAME"); !once_ok) return once_ok;
        return read_ifname(a, req.ifname);
      case DCB_ATTR_IEEE:
        if (auto once_ok = once(seen_ieee, "DCB_ATTR_IEEE"); !once_ok) return once_ok;
        return decode_ieee(*r, a, parts);
      default: return {};
    }
  });
  if (!ok) return unexpected(prefix + ok.error());
  if (!seen_name) return unexpected(prefix + "no DCB_ATTR_IFNAME attribute");
  if (!seen_ieee) return unexpected(prefix + "no DCB_ATTR_IEEE attribute");
  if (req.cmd == DCB_CMD_IEEE_DEL && (parts.ets || parts.pfc))
    return unexpected(prefix + "IEEE_DEL carries ETS or PFC, which only IEEE_SET takes");
  req.set = {parts.ets, parts.pfc, std::move(parts.apps)};
  return req;
}

Expected<NetlinkBytes> encode_ieee_get_reply(const DcbState& state) {
  if (auto ok = check_ifname(state.ifname); !ok) return unexpected(ok.error());
  auto msg = start_reply(RTM_GETDCB, DCB_CMD_IEEE_GET);
  if (!msg) return unexpected(msg.error());
  nl_msg* m = msg->get();
  if (nla_put_string(m, DCB_ATTR_IFNAME, state.ifname.c_str()) < 0) return unexpected("netlink message too large");
  nlattr* ieee = nla_nest_start(m, DCB_ATTR_IEEE);
  if (ieee == nullptr) return unexpected("netlink message too large");
  if (state.ets) {
    const ieee_ets u = to_uapi(*state.ets);
    if (nla_put(m, DCB_ATTR_IEEE_ETS, sizeof(u), &u) < 0) return unexpected("netlink message too large");
  }
  if (state.pfc) {
    const ieee_pfc u = to_uapi(*state.pfc);
    if (nla_put(m, DCB_ATTR_IEEE_PFC, sizeof(u), &u) < 0) return unexpected("netlink message too large");
  }
  if (auto ok = put_apps(m, state.apps); !ok) return unexpected(ok.error());  // the kernel always nests a table
  end_nest(m, ieee);
  if (state.dcbx && nla_put_u8(m, DCB_ATTR_DCBX, *state.dcbx) < 0) return unexpected("netlink message too large");
  return bytes_of(m);
}

NetlinkBytes encode_ieee_set_reply(uint8_t cmd, int err) {
  auto msg = start_reply(RTM_SETDCB, cmd);
  if (!msg || nla_put_u8(msg->get(), DCB_ATTR_IEEE, static_cast<uint8_t>(err)) < 0)
    throw std::bad_alloc();  // a 28-byte message: only memory can fail
  return bytes_of(msg->get());
}

}  // namespace fabricctl
