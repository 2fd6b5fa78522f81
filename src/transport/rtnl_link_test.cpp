// rtnetlink for real, in the test's own network namespace: loopback is always there; a name the kernel
// does not have is named in the error; a veth's carrier changes, counted by the kernel, in a namespace
// of the test's own. (tests/cli/host_collect.sh reads veths in a namespace of its own.)
#include "transport/rtnl_link.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "netns_fixture.h"
#include "util/subprocess.h"

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

TEST_SUITE("external") {
  TEST_CASE("rtnetlink: a veth's carrier changes rise as its link comes up and goes down") {
    test::Netns ns("rtnl");
    if (!ns.available()) return;
    const std::string out = ns.run_inside([&]() -> std::string {
      const auto changes = [&]() -> std::string {
        auto l = link_state(ns.a);
        if (!l) return l.error();
        return l->carrier_changes ? std::to_string(*l->carrier_changes) : "none";
      };
      std::string seen = changes();
      // A veth has carrier when both its ends are up (drivers/net/veth.c veth_open): each step changes it.
      for (const char* step : {"b up", "a up", "b down", "b up"}) {
        const std::string s(step);
        auto r = run_command({"ip", "link", "set", s[0] == 'a' ? ns.a : ns.b, s.substr(2)});
        if (!r) return r.error();
        seen += " " + changes();
      }
      return seen;
    });
    // A new veth already counts one: veth_newlink turns its carrier off. b up alone changes nothing;
    // a up brings the carrier (2); b down loses it (3); b up again (4).
    CHECK(out == "1 1 2 3 4");
  }
}
