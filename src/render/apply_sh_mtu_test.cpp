#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "state/desired.h"

using namespace fabricctl;

// apply.sh's comment once said 4200 where the docs, the rdma.mtu checks and roce_mtu_for() say 4192:
// the number the host template prints is the smallest netdev MTU that carries a 4096-byte RoCE MTU.
TEST_CASE("apply.sh states the netdev MTU a 4096-byte RoCE MTU needs, as roce_mtu_for() computes it") {
  std::ifstream in(std::string(FABRICCTL_SOURCE_DIR) + "/templates/linux/apply.sh.mustache");
  std::stringstream text;
  text << in.rdbuf();
  std::smatch m;
  const std::string s = text.str();
  REQUIRE(std::regex_search(s, m, std::regex("4096 needs at least ([0-9]+)")));
  const int stated = std::stoi(m[1]);
  CHECK(roce_mtu_for(stated) == 4096);
  CHECK(roce_mtu_for(stated - 1) < 4096);
}
