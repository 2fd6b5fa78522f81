#include "transport/rtnl_link.h"

#include <linux/if.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>

#include <memory>

namespace fabricctl {
namespace {

struct SocketFree {
  void operator()(nl_sock* s) const { nl_socket_free(s); }
};
struct CacheFree {
  void operator()(nl_cache* c) const { nl_cache_free(c); }
};
struct LinkPut {
  void operator()(::rtnl_link* l) const { rtnl_link_put(l); }
};
using Socket = std::unique_ptr<nl_sock, SocketFree>;

Expected<Socket> route_socket() {
  Socket sock(nl_socket_alloc());
  if (!sock) return unexpected(std::string("rtnetlink: out of memory"));
  if (const int err = nl_connect(sock.get(), NETLINK_ROUTE); err < 0)
    return unexpected("rtnetlink: cannot connect: " + std::string(nl_geterror(err)));
  return sock;
}

LinkState state_of(::rtnl_link* link) {
  LinkState s;
  const char* name = rtnl_link_get_name(link);
  s.name = name == nullptr ? "" : name;
  s.mtu = static_cast<int>(rtnl_link_get_mtu(link));
  s.oper_up = rtnl_link_get_operstate(link) == IF_OPER_UP;
  s.loopback = (rtnl_link_get_flags(link) & IFF_LOOPBACK) != 0;
  if (uint32_t changes = 0; rtnl_link_get_carrier_changes(link, &changes) == 0) s.carrier_changes = changes;
  return s;
}

}  // namespace

Expected<std::vector<LinkState>> link_states() {
  auto sock = route_socket();
  if (!sock) return unexpected(sock.error());
  nl_cache* raw = nullptr;
  if (const int err = rtnl_link_alloc_cache(sock->get(), AF_UNSPEC, &raw); err < 0)
    return unexpected("rtnetlink: cannot list links: " + std::string(nl_geterror(err)));
  const std::unique_ptr<nl_cache, CacheFree> cache(raw);
  std::vector<LinkState> out;
  for (nl_object* o = nl_cache_get_first(cache.get()); o != nullptr; o = nl_cache_get_next(o))
    out.push_back(state_of(reinterpret_cast<::rtnl_link*>(o)));  // libnl's object model: a link is an nl_object
  return out;
}

Expected<LinkState> link_state(std::string_view name) {
  auto sock = route_socket();
  if (!sock) return unexpected(sock.error());
  ::rtnl_link* raw = nullptr;
  const std::string n(name);
  if (const int err = rtnl_link_get_kernel(sock->get(), 0, n.c_str(), &raw); err < 0) {
    if (err == -NLE_NODEV || err == -NLE_OBJ_NOTFOUND) return unexpected("no network interface " + n);
    return unexpected("rtnetlink: " + n + ": " + std::string(nl_geterror(err)));
  }
  const std::unique_ptr<::rtnl_link, LinkPut> link(raw);
  return state_of(link.get());
}

Expected<void> set_link_mtu(std::string_view name, int mtu) {
  auto sock = route_socket();
  if (!sock) return unexpected(sock.error());
  const std::string n(name);
  ::rtnl_link* raw = nullptr;
  if (const int err = rtnl_link_get_kernel(sock->get(), 0, n.c_str(), &raw); err < 0) {
    if (err == -NLE_NODEV || err == -NLE_OBJ_NOTFOUND) return unexpected("no network interface " + n);
    return unexpected("rtnetlink: " + n + ": " + std::string(nl_geterror(err)));
  }
  const std::unique_ptr<::rtnl_link, LinkPut> link(raw);
  const std::unique_ptr<::rtnl_link, LinkPut> change(rtnl_link_alloc());
  if (!change) return unexpected(std::string("rtnetlink: out of memory"));
  rtnl_link_set_mtu(change.get(), static_cast<unsigned>(mtu));
  if (const int err = rtnl_link_change(sock->get(), link.get(), change.get(), 0); err < 0)
    return unexpected("rtnetlink: " + n + ": mtu " + std::to_string(mtu) + ": " + std::string(nl_geterror(err)));
  return {};
}

}  // namespace fabricctl
