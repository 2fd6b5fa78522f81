// Link state through rtnetlink (libnl-route): what `ip link show` reads, in the network namespace the
// process runs in. The host collector's netlink path for MTU and operational state; the write side
// (MTU changes) will join it here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl {

struct LinkState {
  std::string name;
  int mtu = 0;           // bytes (IFLA_MTU)
  bool oper_up = false;  // IFLA_OPERSTATE is IF_OPER_UP
  bool loopback = false;
  /// Times the carrier came up or went down since the link was created (IFLA_CARRIER_CHANGES: a flap
  /// is two); nullopt where the kernel does not report it.
  std::optional<uint32_t> carrier_changes;
};

/// Every link of the current network namespace, in ifindex order.
Expected<std::vector<LinkState>> link_states();

/// One link by name; the error says "no network interface NAME" when the kernel has none.
Expected<LinkState> link_state(std::string_view name);

/// Sets the MTU of link `name` (bytes; RTM_NEWLINK with IFLA_MTU, as `ip link set dev NAME mtu N`).
/// Error: no such link, not permitted (CAP_NET_ADMIN), or the driver's refusal (EINVAL: out of its range).
Expected<void> set_link_mtu(std::string_view name, int mtu);

}  // namespace fabricctl
