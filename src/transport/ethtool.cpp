#include "transport/ethtool.h"

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

#include "util/diag.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl {

namespace {

/// A socket for the ioctl (any family the kernel's dev_ioctl accepts; ethtool uses AF_INET, which a
/// namespace always has), closed on scope exit.
class IoctlSocket {
 public:
  IoctlSocket() : fd_(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) {}
  ~IoctlSocket() {
    if (fd_ >= 0) ::close(fd_);
  }
  IoctlSocket(const IoctlSocket&) = delete;
  IoctlSocket& operator=(const IoctlSocket&) = delete;
  [[nodiscard]] int fd() const { return fd_; }

 private:
  int fd_;
};

/// One SIOCETHTOOL request: `data` is the ethtool command struct, its first u32 the command. 0 or errno.
int ethtool_ioctl(int fd, std::string_view ifname, void* data) {
  ifreq ifr{};
  std::memcpy(ifr.ifr_name, ifname.data(), ifname.size());
  ifr.ifr_data = static_cast<char*>(data);
  return ::ioctl(fd, SIOCETHTOOL, &ifr) == 0 ? 0 : errno;
}

std::string errno_text(int e) { return std::string(std::strerror(e)) + " (errno " + std::to_string(e) + ")"; }

/// The number of ETH_SS_STATS strings (ETHTOOL_GSSET_INFO with one bit in sset_mask: the kernel
/// answers that bit and one u32 after the header).
Expected<size_t> stats_count(int fd, std::string_view ifname) {
  // struct ethtool_sset_info, then one u32 (the answer for the one bit asked), in u64s for alignment.
  std::array<uint64_t, (sizeof(ethtool_sset_info) + sizeof(uint32_t) + 7) / 8> buf{};
  auto* info = reinterpret_cast<ethtool_sset_info*>(buf.data());
  info->cmd = ETHTOOL_GSSET_INFO;
  info->sset_mask = uint64_t{1} << ETH_SS_STATS;
  if (const int e = ethtool_ioctl(fd, ifname, info); e != 0)
    return unexpected(quote(ifname) + ": the statistics' count (ETHTOOL_GSSET_INFO): " + errno_text(e));
  if ((info->sset_mask & (uint64_t{1} << ETH_SS_STATS)) == 0) return size_t{0};  // no statistics
  uint32_t len = 0;
  std::memcpy(&len, reinterpret_cast<const uint8_t*>(buf.data()) + sizeof(ethtool_sset_info), sizeof len);
  return size_t{len};
}

}  // namespace

Expected<std::vector<std::string>> decode_stat_names(std::span<const uint8_t> strings, size_t count) {
  if (strings.size() / ETH_GSTRING_LEN < count)
    return unexpected(std::to_string(strings.size()) + " bytes of names hold fewer than the " + std::to_string(count) +
                      " announced");
  std::vector<std::string> names;
  names.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const auto* slot = reinterpret_cast<const char*>(strings.data() + i * ETH_GSTRING_LEN);
    const size_t len = ::strnlen(slot, ETH_GSTRING_LEN);
    if (len == ETH_GSTRING_LEN) return unexpected("statistic " + std::to_string(i) + ": its name has no end");
    std::string name(slot, len);
    if (name.empty()) return unexpected("statistic " + std::to_string(i) + ": an empty name");
    if (!printable_ascii(name))
      return unexpected("statistic " + std::to_string(i) + ": name " + quote(name) + " is not printable");
    names.push_back(std::move(name));
  }
  return names;
}

Expected<std::vector<Statistic>> read_ethtool_stats(std::string_view ifname) {
  if (std::string why = interface_name_error(ifname); !why.empty()) return unexpected("not an interface name: " + why);
  const IoctlSocket sock;
  if (sock.fd() < 0) return unexpected("socket for the ethtool ioctl: " + errno_text(errno));
  auto count = stats_count(sock.fd(), ifname);
  if (!count) return unexpected(count.error());
  if (*count > kMaxStatistics)
    return unexpected(quote(ifname) + ": " + std::to_string(*count) + " statistics are more than the limit of " +
                      std::to_string(kMaxStatistics));
  if (*count == 0) return std::vector<Statistic>{};

  // ETHTOOL_GSTRINGS: struct ethtool_gstrings, then len * ETH_GSTRING_LEN bytes of names.
  std::vector<uint8_t> strings(sizeof(ethtool_gstrings) + *count * ETH_GSTRING_LEN);
  auto* gs = reinterpret_cast<ethtool_gstrings*>(strings.data());
  gs->cmd = ETHTOOL_GSTRINGS;
  gs->string_set = ETH_SS_STATS;
  gs->len = static_cast<uint32_t>(*count);
  if (const int e = ethtool_ioctl(sock.fd(), ifname, gs); e != 0)
    return unexpected(quote(ifname) + ": the statistics' names (ETHTOOL_GSTRINGS): " + errno_text(e));
  if (gs->len != *count)
    return unexpected(quote(ifname) + ": the driver's statistics changed while read (" + std::to_string(*count) +
                      " counted, " + std::to_string(gs->len) + " named); read again");
  auto names = decode_stat_names(std::span(strings).subspan(sizeof(ethtool_gstrings)), *count);
  if (!names) return unexpected(quote(ifname) + ": " + names.error());

  // ETHTOOL_GSTATS: struct ethtool_stats, then n_stats u64 values in the names' order.
  std::vector<uint64_t> values(1 + (sizeof(ethtool_stats) + *count * sizeof(uint64_t)) / sizeof(uint64_t));
  auto* st = reinterpret_cast<ethtool_stats*>(values.data());
  st->cmd = ETHTOOL_GSTATS;
  st->n_stats = static_cast<uint32_t>(*count);
  if (const int e = ethtool_ioctl(sock.fd(), ifname, st); e != 0)
    return unexpected(quote(ifname) + ": the statistics' values (ETHTOOL_GSTATS): " + errno_text(e));
  if (st->n_stats != *count)
    return unexpected(quote(ifname) + ": the driver's statistics changed while read (" + std::to_string(*count) +
                      " named, " + std::to_string(st->n_stats) + " valued); read again");
  std::vector<Statistic> out;
  out.reserve(*count);
  for (size_t i = 0; i < *count; ++i) {
    uint64_t v = 0;
    std::memcpy(&v, reinterpret_cast<const uint8_t*>(st->data) + i * sizeof(uint64_t), sizeof v);
    out.push_back({std::move((*names)[i]), v});
  }
  return out;
}

}  // namespace fabricctl
