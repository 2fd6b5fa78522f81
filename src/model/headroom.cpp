#include "model/headroom.h"

namespace fabricctl {
namespace {

// Peer response in pause quanta by speed, as SONiC's Mellanox headroom calculation uses them.
int64_t response_quanta(int64_t speed_mbps) {
  if (speed_mbps <= 25000) return 80;
  if (speed_mbps <= 40000) return 118;
  if (speed_mbps <= 50000) return 147;
  if (speed_mbps <= 100000) return 394;
  if (speed_mbps <= 200000) return 453;
  return 905;  // 400G and 800G
}

}  // namespace

uint32_t pfc_headroom_bytes(int64_t speed_mbps, int cable_length_m, int mtu) {
  if (speed_mbps <= 0) return 0;
  constexpr int64_t kL2Overhead = 22;  // Ethernet header 14 + 802.1Q tag 4 + FCS 4, bytes
  const int64_t frames = 2 * (mtu + kL2Overhead);
  // Round trip 2L metres at 2e8 m/s, at speed_mbps * 1e6 bit/s, in bytes: 2L * speed_mbps / 1600.
  const int64_t cable = (2 * cable_length_m * speed_mbps + 1599) / 1600;
  const int64_t response = response_quanta(speed_mbps) * 512 / 8;
  const int64_t total = frames + cable + response;
  return static_cast<uint32_t>((total + 1023) / 1024 * 1024);
}

}  // namespace fabricctl
