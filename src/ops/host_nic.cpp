#include "ops/host_nic.h"

#include "platform/linux/dcb_observed.h"
#include "platform/linux/dcbnl.h"
#include "platform/linux/hex_dump.h"
#include "platform/linux/host_sysfs.h"
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
  return n;
}

}  // namespace fabricctl::ops
