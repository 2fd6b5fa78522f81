// lldpcli's json0 output: the real capture in shared/, lldpd's shape with no neighbours, and hostile
// or malformed variants.
#include "platform/linux/lldpcli.h"

#include <doctest/doctest.h>

#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::linux_host;

namespace {

std::string one(const std::string& ifname, const std::string& system, const std::string& port) {
  return R"({"lldp": [{"interface": [{"name": ")" + ifname + R"(", "via": "LLDP",
    "chassis": [{"id": [{"type": "mac", "value": "0e:00:00:00:00:01"}], "name": [{"value": ")" +
         system + R"("}]}],
    "port": [{"id": [{"type": "ifname", "value": ")" +
         port + R"("}], "ttl": [{"value": "120"}]}]}]}]})";
}

}  // namespace

TEST_CASE("lldpcli json0: a real capture (an H3C switch with CRLF in its description, Ubuntu hosts)" *
          doctest::test_suite("external")) {
  const auto path = test::shared_path("reference/outputs/linux/lldpcli-f-json0-show-neighbors_h3c-and-hosts.json");
  if (!test::shared_available(path)) return;
  const auto got = lldp_neighbors(test::file_text(path));
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->contains("enp129s0f0"));
  CHECK(got->at("enp129s0f0").system_name == "DaoCloud_ShangPu_H3C_D01_AccessSwitch");
  CHECK(got->at("enp129s0f0").port_id == "GigabitEthernet1/0/17");
  REQUIRE(got->contains("enp5s0f0np0"));
  CHECK(got->at("enp5s0f0np0").system_name == "10-20-1-50");
}

TEST_CASE("lldpcli json0: one neighbour, none, and names fabricctl does not pass on") {
  const auto got = lldp_neighbors(one("ens1f0np0", "leaf1", "Ethernet0"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->at("ens1f0np0").system_name == "leaf1");
  CHECK(got->at("ens1f0np0").port_id == "Ethernet0");
  const auto none = lldp_neighbors(R"({"lldp": [{}]})");
  REQUIRE(none);
  CHECK(none->empty());
  // A neighbour's name with a shell metacharacter or a terminal escape is left out, not passed on.
  for (const char* system : {"leaf1;reboot", "leaf\\u001b[2J", ""}) {
    const auto hostile = lldp_neighbors(one("ens1f0np0", system, "Ethernet0"));
    REQUIRE(hostile);
    CHECK(hostile->empty());
  }
}

TEST_CASE("lldpcli json0: truncated, oversized and wrong-shaped output is an error") {
  const std::string good = one("ens1f0np0", "leaf1", "Ethernet0");
  CHECK_FALSE(lldp_neighbors(good.substr(0, good.size() / 2)));
  CHECK_FALSE(lldp_neighbors(""));
  CHECK_FALSE(lldp_neighbors(R"({"lldp": {"interface": {}}})"));  // -f json's folded shape, not json0
  CHECK_FALSE(lldp_neighbors(R"({"lldp": [{"interface": [{"name": 5}]}]})"));
  const std::string huge = R"({"lldp": [{"interface": [{"name": ")" + std::string(size_t{9} << 20, 'a') + R"("}]}]})";
  const auto big = lldp_neighbors(huge);
  REQUIRE_FALSE(big);
  CHECK(big.error().find("lldpcli") == 0);
}
