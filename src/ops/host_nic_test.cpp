// The one NIC reader of `host collect` and `host apply`, on a fixture root and a saved DCB reply.
#include "ops/host_nic.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <map>

#include "platform/linux/dcbnl.h"
#include "temp_dir.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

/// A saved DCB_CMD_IEEE_GET reply with PFC on priority 3, as `--dcb-from` reads it.
void save_reply(const std::filesystem::path& dir, const std::string& netdev) {
  DcbState s;
  s.ifname = netdev;
  s.pfc = DcbPfc{};
  s.pfc->pfc_cap = 8;
  s.pfc->enabled[3] = true;
  auto bytes = encode_ieee_get_reply(s);
  REQUIRE(bytes);
  std::string text;
  char hex[4];
  for (const uint8_t b : *bytes) {
    std::snprintf(hex, sizeof hex, "%02x ", b);
    text += hex;
  }
  test::spit(dir / (netdev + ".dcbnl"), text + "\n");
}

}  // namespace

/// A stand-in mlx5 port's saved `ethtool -S` answer, and its RDMA port's hw_counters under the root.
void save_counters(const std::filesystem::path& root, const std::string& netdev) {
  test::spit(root / "dcb" / (netdev + ".ethtool"),
             "NIC statistics:\n     rx_packets: 5\n     rx_prio3_pause: 120\n     tx_prio3_pause_duration: 80\n"
             "     rx_crc_errors_phy: 2\n");
  test::spit(root / "sys/class/net" / netdev / "device/infiniband/mlx5_0/.keep", "");
  const auto hw = root / "sys/class/infiniband/mlx5_0/ports/1/hw_counters";
  test::spit(hw / "np_cnp_sent", "40\n");
  test::spit(hw / "rp_cnp_handled", "38\n");
  test::spit(hw / "lifespan", "10\n");  // a setting, not a counter
}

TEST_CASE("ops host nic: the link, the files under the root and the DCB reply make one port") {
  test::TempDir dir;
  test::spit(dir.path / "sys/class/net/eth0/speed", "400000\n");
  save_reply(dir.path / "dcb", "eth0");
  save_counters(dir.path, "eth0");
  const NicSource source{dir.path, dir.path / "dcb"};
  auto got = read_nic_port(source, LinkState{"eth0", 9000, true, false, 3});  // 3 carrier changes
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->port.mtu == 9000);
  CHECK(got->port.oper_up == true);
  CHECK(got->port.speed_mbps == 400000);
  REQUIRE(got->dcb);
  REQUIRE(got->port.lossless);
  CHECK((*got->port.lossless)[3]);
  CHECK_FALSE((*got->port.lossless)[0]);
  CHECK(got->port.counters == std::map<std::string, uint64_t>{{"pfc_rx_pause_3", 120},
                                                              {"pfc_tx_pause_duration_3", 80},
                                                              {"fcs_errors", 2},
                                                              {"cnp_sent", 40},
                                                              {"cnp_handled", 38},
                                                              {"link_changes", 3}});
}

TEST_CASE("ops host nic: a bad saved ethtool answer or hw_counters file makes the port unreadable, named") {
  test::TempDir dir;
  save_reply(dir.path / "dcb", "eth0");
  save_counters(dir.path, "eth0");
  test::spit(dir.path / "dcb/eth0.ethtool", "NIC statistics:\n     rx_prio3_pause: lots\n");
  auto bad = read_nic_port({dir.path, dir.path / "dcb"}, LinkState{"eth0", 9000, true, false, std::nullopt});
  REQUIRE_FALSE(bad);
  CHECK(bad.error() ==
        "counters: " + (dir.path / "dcb/eth0.ethtool").string() + ": line 2: \"lots\" is not a counter (0-2^64-1)");
  save_counters(dir.path, "eth0");
  test::spit(dir.path / "sys/class/infiniband/mlx5_0/ports/1/hw_counters/np_cnp_sent", "-4\n");
  bad = read_nic_port({dir.path, dir.path / "dcb"}, LinkState{"eth0", 9000, true, false, std::nullopt});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("hw_counters/np_cnp_sent: \"-4\" is not a counter") != std::string::npos);
}

TEST_CASE("ops host nic: a missing DCB reply and a malformed file are errors, DCB's named as such") {
  test::TempDir dir;
  test::spit(dir.path / "sys/class/net/eth0/speed", "400000\n");
  const NicSource source{dir.path, dir.path / "dcb"};
  auto no_dcb = read_nic_port(source, LinkState{"eth0", 9000, true, false, std::nullopt});
  REQUIRE_FALSE(no_dcb);
  CHECK(no_dcb.error().rfind("DCB: ", 0) == 0);
  test::spit(dir.path / "sys/class/net/eth0/speed", "fast\n");
  save_reply(dir.path / "dcb", "eth0");
  save_counters(dir.path, "eth0");
  auto bad = read_nic_port(source, LinkState{"eth0", 9000, true, false, std::nullopt});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("DCB") == std::string::npos);
  CHECK(bad.error().find("speed") != std::string::npos);
}
