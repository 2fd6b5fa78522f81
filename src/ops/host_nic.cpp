#include "ops/host_nic.h"

#include "platform/linux/dcb_observed.h"
#include "platform/linux/dcbnl.h"
#include "platform/linux/ethtool_text.h"
#include "platform/linux/hex_dump.h"
#include "platform/linux/host_sysfs.h"
#include "platform/linux/nic_counters.h"
#include "transport/ethtool.h"
#include "util/file_io.h"

namespace fabricctl::ops {
namespace {

constexpr size_t kMaxReply = size_t{1} << 20;  // bytes of one saved reply's hex dump

/// The port's DCB state: asked of the kernel, or read from its saved reply.
Expected<DcbReply> dcb_state(const NicSource& s, const std::string& netdev) {
  if (s.dcb_from.empty()) return dcb_ieee_get(netdev);
  auto state = read_saved_dcb(s.dcb_from, netdev);
  if (!state) return unexpected(state.error());
  return DcbReply{true, std::move(*state)};
}

/// The driver's statistics: the stand-in NIC's saved `ethtool -S` answer (DIR/<netdev>.ethtool, an mlx5
/// port captured on a host) where it has one, otherwise the kernel's (in this namespace, as the link
/// itself: the lab's veths answer for real).
Expected<std::vector<Statistic>> statistics(const NicSource& s, const std::string& netdev) {
  if (!s.dcb_from.empty()) {
    const auto path = s.dcb_from / (netdev + ".ethtool");
    auto text = read_regular_file(path, {kMaxReply, "saved ethtool -S answer"});
    if (text) {
      auto stats = linux_host::parse_ethtool_statistics(*text);
      if (!stats) return unexpected(path.string() + ": " + stats.error());
      return stats;
    }
    if (text.error().kind != FileError::Kind::missing) return unexpected(text.error().message);
  }
  return read_ethtool_stats(netdev);
}

/// The port's counters in neutral names: its statistics and its RDMA port's hw_counters under the root.
Expected<std::map<std::string, uint64_t>> counters(const NicSource& s, const std::string& netdev) {
  auto stats = statistics(s, netdev);
  if (!stats) return unexpected(stats.error());
  auto hw = linux_host::read_rdma_hw_counters(s.root, netdev);
  if (!hw) return unexpected(hw.error());
  return nic_counters(*stats, *hw);
}

}  // namespace

Expected<DcbState> read_saved_dcb(const std::filesystem::path& dcb_from, const std::string& netdev) {
  const auto path = dcb_from / (netdev + ".dcbnl");
  auto text = read_regular_file(path, {kMaxReply, "saved DCB reply"});
  if (!text) return unexpected(text.error().message);
  auto bytes = linux_host::parse_hex_dump(*text);
  if (!bytes) return unexpected(path.string() + ": " + bytes.error());
  auto state = decode_ieee_get_reply(*bytes);
  if (!state) return unexpected(path.string() + ": " + state.error());
  return state;
}

Expected<NicPort> read_nic_port(const NicSource& source, const LinkState& link) {
  NicPort n;
  n.port.name = link.name;
  n.port.mtu = link.mtu;
  n.port.oper_up = link.oper_up;
  if (auto files = linux_host::read_port_files(source.root, n.port); !files) return unexpected(files.error());
  auto dcb = dcb_state(source, link.name);
  if (!dcb) return unexpected("DCB: " + dcb.error());
  if (dcb->supported) {
    if (auto filled = fill_observed(dcb->state, n.port); !filled) return unexpected("DCB: " + filled.error());
    n.dcb = std::move(dcb->state);
  }
  if (!source.counters) return n;
  auto c = counters(source, link.name);
  if (!c) return unexpected("counters: " + c.error());
  n.port.counters = std::move(*c);
  // The kernel's own count of the link's carrier changes (any netdev, the lab's veths too): what
  // EOS calls linkStatusChanges, so the same neutral name.
  if (link.carrier_changes) n.port.counters["link_changes"] = *link.carrier_changes;
  return n;
}

}  // namespace fabricctl::ops
