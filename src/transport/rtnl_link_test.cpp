// rtnetlink for real, in the test's own network namespace: loopback is always there; a name the kernel
// does not have is named in the error. (tests/cli/host_collect.sh reads veths in a namespace of its own.)
#include "transport/rtnl_link.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace fabricctl;

TEST_CASE("rtnetlink: the namespace's links, loopback among them, and one by name") {
  const auto links = link_states();
  REQUIRE_MESSAGE(links, links.error());
  const auto lo = std::find_if(links->begin(), links->end(), [](const LinkState& l) { return l.name == "lo"; });
  REQUIRE(lo != links->end());
  CHECK(lo->loopback);
  CHECK(lo->mtu > 0);
  const auto one = link_state("lo");
  REQUIRE_MESSAGE(one, one.error());
  CHECK(one->mtu == lo->mtu);
  const auto none = link_state("fabricctl-none");
  REQUIRE_FALSE(none);
  CHECK(none.error() == "no network interface fabricctl-none");
}
