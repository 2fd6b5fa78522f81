// The one NIC reader of `host collect` and `host apply`, on a fixture root and a saved DCB reply.
#include "ops/host_nic.h"

#include <doctest/doctest.h>

#include <cstdio>

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

TEST_CASE("ops host nic: the link, the files under the root and the DCB reply make one port") {
  test::TempDir dir;
  test::spit(dir.path / "sys/class/net/eth0/speed", "400000\n");
  save_reply(dir.path / "dcb", "eth0");
  const NicSource source{dir.path, dir.path / "dcb"};
  auto got = read_nic_port(source, LinkState{"eth0", 9000, true, false});
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->port.mtu == 9000);
  CHECK(got->port.oper_up == true);
  CHECK(got->port.speed_mbps == 400000);
  REQUIRE(got->dcb);
  REQUIRE(got->port.lossless);
  CHECK((*got->port.lossless)[3]);
  CHECK_FALSE((*got->port.lossless)[0]);
}

TEST_CASE("ops host nic: a missing DCB reply and a malformed file are errors, DCB's named as such") {
  test::TempDir dir;
  test::spit(dir.path / "sys/class/net/eth0/speed", "400000\n");
  const NicSource source{dir.path, dir.path / "dcb"};
  auto no_dcb = read_nic_port(source, LinkState{"eth0", 9000, true, false});
  REQUIRE_FALSE(no_dcb);
  CHECK(no_dcb.error().rfind("DCB: ", 0) == 0);
  test::spit(dir.path / "sys/class/net/eth0/speed", "fast\n");
  save_reply(dir.path / "dcb", "eth0");
  auto bad = read_nic_port(source, LinkState{"eth0", 9000, true, false});
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("DCB") == std::string::npos);
  CHECK(bad.error().find("speed") != std::string::npos);
}
