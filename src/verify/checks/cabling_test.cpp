#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "verify/checks/check_test_support.h"
#include "verify/checks/checks.h"

using namespace fabricctl;
using fabricctl::test::kHost1Link;
using fabricctl::test::kHost2Link;
using fabricctl::test::kSpineLink;
using fabricctl::test::Lab;
using fabricctl::test::same_link;

namespace {

const std::vector<Check>& cabling_family() {
  static const std::vector<Check> checks = cabling_checks();
  return checks;
}

constexpr std::string_view kLldp = "cabling.lldp.mismatch";
constexpr std::string_view kSwapped = "cabling.swapped";
constexpr std::string_view kRail = "cabling.rail.mismatch";

std::vector<Result> lldp(const Lab& lab) {
  std::vector<Result> rs = lab.run(cabling_family(), kLldp);
  REQUIRE(rs.size() == 3);
  return rs;
}

/// The host's two NICs swapped: each reaches the other's inventory peer, across the two rails.
Lab swapped_lab() {
  Lab lab;
  lab.port("host1", "ens1f0np0").lldp = LldpNeighbor{"leaf2", "Ethernet1/1"};
  lab.port("host1", "ens2f0np0").lldp = LldpNeighbor{"leaf1", "Ethernet0"};
  lab.port("leaf1", "Ethernet0").lldp = LldpNeighbor{"host1", "ens2f0np0"};
  lab.port("leaf2", "Ethernet1/1").lldp = LldpNeighbor{"host1", "ens1f0np0"};
  return lab;
}

/// host1:ens1f0np0 (rail 0) plugged into a free port of leaf2, the rail-1 leaf; its inventory peer
/// leaf1:Ethernet0 is left without a cable.
Lab rail_lab() {
  Lab lab;
  lab.port("host1", "ens1f0np0").lldp = LldpNeighbor{"leaf2", "Ethernet2/1"};
  lab.port("leaf2", "Ethernet2/1").lldp = LldpNeighbor{"host1", "ens1f0np0"};
  lab.port("leaf2", "Ethernet2/1").oper_up = true;
  lab.port("leaf1", "Ethernet0").lldp.reset();
  lab.port("leaf1", "Ethernet0").oper_up = false;
  return lab;
}

}  // namespace

TEST_CASE("cabling checks: the catalog rows; LLDP is optional data") {
  std::vector<std::string> ids;
  for (const Check& c : cabling_family()) {
    ids.emplace_back(c.id);
    CHECK(c.severity == Severity::error);
    CHECK_FALSE(c.summary.empty());
    CHECK(c.optional_data);
  }
  CHECK(ids == std::vector<std::string>{"cabling.lldp.mismatch", "cabling.swapped", "cabling.rail.mismatch"});
}

TEST_CASE("cabling checks pass on a perfect fabric: one result per link, per swapped pair, per railed NIC") {
  const Lab lab;
  CHECK(test::outline(lldp(lab)) == std::vector<std::string>{"pass host1:ens1f0np0~leaf1:Ethernet0",
                                                             "pass host1:ens2f0np0~leaf2:Ethernet1/1",
                                                             "pass leaf1:Ethernet48~spine1:swp1"});
  CHECK(lab.run(cabling_family(), kSwapped).empty());  // no swapped pair, nothing to report
  CHECK(test::outline(lab.run(cabling_family(), kRail)) ==
        std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0"});
  for (const Check& c : cabling_family())
    for (const Result& r : lab.run(cabling_family(), c.id)) test::check_bare_pass(r, Severity::error);

  // A neighbour may announce its FQDN, or a MAC address as its port ID; one end's LLDP is enough.
  Lab other;
  other.port("host1", "ens1f0np0").lldp = LldpNeighbor{"leaf1.example.net", "Ethernet0"};
  other.port("host1", "ens2f0np0").lldp = LldpNeighbor{"leaf2", "0c:42:a1:00:00:01"};
  other.port("leaf1", "Ethernet48").lldp.reset();
  CHECK(test::count(lldp(other), Status::pass) == 3);
  CHECK(test::count(other.run(cabling_family(), kRail), Status::pass) == 2);
}

TEST_CASE("cabling checks: no LLDP data is missing, not a failure") {
  Lab lab;
  lab.port("host1", "ens1f0np0").lldp.reset();
  lab.port("leaf1", "Ethernet0").lldp.reset();
  Result r = lldp(lab)[0];
  CHECK(r.status == Status::missing);
  CHECK(r.expected == "LLDP: host1:ens1f0np0 <-> leaf1:Ethernet0");
  CHECK(r.message == "LLDP neighbour not collected on host1:ens1f0np0 or leaf1:Ethernet0");
  CHECK(r.hint.empty());
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost1Link));

  r = lab.result(cabling_family(), kRail, "host1", "ens1f0np0");
  CHECK(r.status == Status::missing);
  CHECK(r.expected == "a rail-0 switch");
  CHECK(r.message == "LLDP neighbour not collected on host1:ens1f0np0");
  CHECK(r.hint.empty());
  CHECK(same_link(r.link, kHost1Link));

  // An LLDP entry without a system name or port ID says nothing either.
  lab.port("leaf1", "Ethernet48").lldp = LldpNeighbor{"", "swp1"};
  lab.port("spine1", "swp1").lldp = LldpNeighbor{"leaf1", ""};
  CHECK(lldp(lab)[2].status == Status::missing);

  Lab none;
  none.observed.devices.clear();
  for (const Check& c : cabling_family())
    for (const Result& x : none.run(cabling_family(), c.id)) CHECK(x.status == Status::missing);
}

TEST_CASE("cabling.lldp.mismatch: a wrong neighbour on a link, in the words of the end that sees it") {
  Lab lab;
  lab.port("leaf1", "Ethernet48").lldp = LldpNeighbor{"spine1", "swp2"};
  std::vector<Result> rs = lldp(lab);
  CHECK(test::outline(rs) == std::vector<std::string>{"pass host1:ens1f0np0~leaf1:Ethernet0",
                                                      "pass host1:ens2f0np0~leaf2:Ethernet1/1",
                                                      "fail leaf1:Ethernet48~spine1:swp1"});
  Result r = rs[2];
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"leaf1", "Ethernet48"});
  CHECK(r.b == Endpoint{"spine1", "swp1"});
  CHECK(r.expected == "LLDP: leaf1:Ethernet48 <-> spine1:swp1");
  CHECK(r.message == "leaf1:Ethernet48 reaches spine1:swp2, the inventory says spine1:swp1");
  CHECK(r.hint == "show lldp neighbors 'Ethernet48'");
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kSpineLink));

  lab.port("leaf1", "Ethernet48").lldp = LldpNeighbor{"spine1", "swp1"};
  lab.port("spine1", "swp1").lldp = LldpNeighbor{"leaf1", "Ethernet52"};
  r = lldp(lab)[2];
  CHECK(r.status == Status::fail);
  CHECK(r.message == "spine1:swp1 reaches leaf1:Ethernet52, the inventory says leaf1:Ethernet48");
  CHECK(r.hint == "nv show interface swp1 lldp");

  // Both ends see someone else: both views, and the fix on the first end.
  lab.port("leaf1", "Ethernet48").lldp = LldpNeighbor{"spine2", "swp1"};
  r = lldp(lab)[2];
  CHECK(r.message ==
        "leaf1:Ethernet48 reaches spine2:swp1, the inventory says spine1:swp1; spine1:swp1 reaches leaf1:Ethernet52, "
        "the inventory says leaf1:Ethernet48");
  CHECK(r.hint == "show lldp neighbors 'Ethernet48'");

  // The EOS end of a host link.
  Lab eos;
  eos.port("leaf2", "Ethernet1/1").lldp = LldpNeighbor{"host9", "ens1f0np0"};
  r = lldp(eos)[1];
  CHECK(r.status == Status::fail);
  CHECK(r.message == "leaf2:Ethernet1/1 reaches host9:ens1f0np0, the inventory says host1:ens2f0np0");
  CHECK(r.hint == "show lldp neighbors Ethernet1/1 detail");
}

TEST_CASE("cabling.lldp.mismatch: a host NIC on the wrong port of its own rail's leaf") {
  Lab lab;
  lab.port("host1", "ens1f0np0").lldp = LldpNeighbor{"leaf1", "Ethernet4"};
  lab.port("leaf1", "Ethernet0").lldp.reset();
  const Result r = lldp(lab)[0];
  CHECK(r.status == Status::fail);
  CHECK(r.message == "host1:ens1f0np0 reaches leaf1:Ethernet4, the inventory says leaf1:Ethernet0");
  CHECK(r.hint == "lldpcli show neighbors ports 'ens1f0np0'");
  CHECK(same_link(r.link, kHost1Link));
  // Right rail: not a rail finding.
  test::check_bare_pass(lab.result(cabling_family(), kRail, "host1", "ens1f0np0"), Severity::error);
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"cabling.lldp.mismatch host1:ens1f0np0~leaf1:Ethernet0"});
  CHECK(test::consequences(all).empty());
}

TEST_CASE("cabling.swapped: two NICs swapped across rails are one finding, the rest its consequences") {
  Lab lab = swapped_lab();
  const std::vector<Result> sw = lab.run(cabling_family(), kSwapped);
  REQUIRE(sw.size() == 1);
  const Result& r = sw.front();
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"host1", "ens1f0np0"});
  CHECK(r.b == Endpoint{"host1", "ens2f0np0"});
  CHECK(r.object() == "host1:ens1f0np0~host1:ens2f0np0");
  CHECK(r.expected == "ens1f0np0 -> leaf1:Ethernet0, ens2f0np0 -> leaf2:Ethernet1/1");
  CHECK(r.observed == "swapped");
  CHECK(r.message ==
        "cables of host1 ens1f0np0 and ens2f0np0 swapped: ens1f0np0 reaches leaf2:Ethernet1/1 and ens2f0np0 reaches "
        "leaf1:Ethernet0, each the other's inventory peer (between the rail-0 and rail-1 leaves)");
  CHECK(r.hint == "lldpcli show neighbors ports 'ens1f0np0'\nlldpcli show neighbors ports 'ens2f0np0'");
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost1Link));

  const std::string cause = "cabling.swapped host1:ens1f0np0~host1:ens2f0np0";
  const std::vector<Result> ls = lldp(lab);
  CHECK(test::outline(ls) == std::vector<std::string>{"consequence host1:ens1f0np0~leaf1:Ethernet0",
                                                      "consequence host1:ens2f0np0~leaf2:Ethernet1/1",
                                                      "pass leaf1:Ethernet48~spine1:swp1"});
  CHECK(ls[0].cause == cause);
  CHECK(ls[0].hint.empty());
  CHECK(ls[0].message == "LLDP neighbours of host1:ens1f0np0 and leaf1:Ethernet0 are not the inventory's");
  CHECK(same_link(ls[1].link, kHost2Link));

  const Result rail = lab.result(cabling_family(), kRail, "host1", "ens2f0np0");
  CHECK(rail.status == Status::consequence);
  CHECK(rail.cause == cause);
  CHECK(rail.hint.empty());
  CHECK(rail.expected == "a rail-1 switch");
  CHECK(rail.message == "host1:ens2f0np0 does not reach its rail-1 switch");
  CHECK(same_link(rail.link, kHost2Link));

  // The whole catalog: the link checks compare ports that are not connected to each other, and say so.
  lab.port("host1", "ens1f0np0").speed_mbps = 100000;  // the two ends actually connected run at 100G
  lab.port("leaf2", "Ethernet1/1").speed_mbps = 100000;
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{cause});
  CHECK(test::consequences(all) == std::set<std::string>{
                                       "cabling.lldp.mismatch host1:ens1f0np0~leaf1:Ethernet0 <- " + cause,
                                       "cabling.lldp.mismatch host1:ens2f0np0~leaf2:Ethernet1/1 <- " + cause,
                                       "cabling.rail.mismatch host1:ens1f0np0 <- " + cause,
                                       "cabling.rail.mismatch host1:ens2f0np0 <- " + cause,
                                       "link.speed.mismatch host1:ens1f0np0~leaf1:Ethernet0 <- " + cause,
                                       "link.speed.mismatch host1:ens2f0np0~leaf2:Ethernet1/1 <- " + cause,
                                   });
  const Result speed = lab.result(link_checks(), "link.speed.mismatch", "host1", "ens2f0np0");
  CHECK(speed.message ==
        "Speed mismatch: host1:ens2f0np0 runs at 400G, leaf2:Ethernet1/1 at 100G, expected 400G: the slow end is "
        "leaf2:Ethernet1/1 (compares ports that LLDP shows are not connected)");
  CHECK(speed.hint.empty());
}

TEST_CASE("cabling.swapped: a pair on one leaf, reported once whatever the order of the NICs") {
  Lab lab;
  // Both NICs on leaf1, Ethernet0 and Ethernet4; leaf2 keeps no host.
  Lab::cable(lab.device("host1"), 1, "leaf1", "Ethernet4");
  Lab::cable(lab.device("leaf1"), 1, "host1", "ens2f0np0");
  Lab::cable(lab.device("leaf2"), 0, "", "");
  lab.device("host1").ports[1].rail = 0;
  lab.refresh_observed();
  lab.port("host1", "ens1f0np0").lldp = LldpNeighbor{"leaf1", "Ethernet4"};
  lab.port("host1", "ens2f0np0").lldp = LldpNeighbor{"leaf1", "Ethernet0"};
  const std::vector<Result> sw = lab.run(cabling_family(), kSwapped);
  REQUIRE(sw.size() == 1);
  CHECK(sw[0].object() == "host1:ens1f0np0~host1:ens2f0np0");
  CHECK(sw[0].message ==
        "cables of host1 ens1f0np0 and ens2f0np0 swapped: ens1f0np0 reaches leaf1:Ethernet4 and ens2f0np0 reaches "
        "leaf1:Ethernet0, each the other's inventory peer");
  // Same rail: the rail check has nothing to say but that the NIC is not where it should be.
  for (const Result& r : lab.run(cabling_family(), kRail)) CHECK(r.status == Status::consequence);
  CHECK(test::failures(lab.run_all()) == std::set<std::string>{"cabling.swapped host1:ens1f0np0~host1:ens2f0np0"});

  // Only one NIC sees the other's peer: not a swap.
  lab.port("host1", "ens2f0np0").lldp.reset();
  CHECK(lab.run(cabling_family(), kSwapped).empty());
  CHECK(lldp(lab)[0].status == Status::fail);
}

TEST_CASE("cabling.rail.mismatch: a NIC on another rail's leaf") {
  const Lab lab = rail_lab();
  const Result r = lab.result(cabling_family(), kRail, "host1", "ens1f0np0");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"host1", "ens1f0np0"});
  CHECK_FALSE(r.b);
  CHECK(r.expected == "a rail-0 switch");
  CHECK(r.message ==
        "host1:ens1f0np0 (rail-0) reaches leaf2:Ethernet2/1, a rail-1 switch; the inventory cables it to "
        "leaf1:Ethernet0");
  CHECK(r.hint == "lldpcli show neighbors ports 'ens1f0np0'");
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost1Link));
  test::check_bare_pass(lab.result(cabling_family(), kRail, "host1", "ens2f0np0"), Severity::error);
  CHECK(lab.run(cabling_family(), kSwapped).empty());

  const std::string cause = "cabling.rail.mismatch host1:ens1f0np0";
  const Result l = lldp(lab)[0];
  CHECK(l.status == Status::consequence);
  CHECK(l.cause == cause);
  CHECK(l.hint.empty());

  // The whole catalog: one fault. The inventory's link is down, and says whose finding explains it.
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{cause});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"cabling.lldp.mismatch host1:ens1f0np0~leaf1:Ethernet0 <- " + cause,
                              "link.oper.down host1:ens1f0np0~leaf1:Ethernet0 <- " + cause});
  const Result down = lab.result(link_checks(), "link.oper.down", "host1", "ens1f0np0");
  CHECK(down.message ==
        "Link down between host1:ens1f0np0 and leaf1:Ethernet0: leaf1:Ethernet0 is down; check the cable and optics "
        "if it stays down (compares ports that LLDP shows are not connected)");
  CHECK(down.hint.empty());
}

TEST_CASE("cabling.rail.mismatch: a neighbour of unknown rail is not a rail finding") {
  Lab lab;
  lab.port("host1", "ens2f0np0").lldp = LldpNeighbor{"spine1", "swp7"};  // spine1 has no rail
  test::check_bare_pass(lab.result(cabling_family(), kRail, "host1", "ens2f0np0"), Severity::error);
  CHECK(lldp(lab)[1].status == Status::fail);
  lab.port("host1", "ens2f0np0").lldp = LldpNeighbor{"core9", "Ethernet1"};  // not in the inventory
  test::check_bare_pass(lab.result(cabling_family(), kRail, "host1", "ens2f0np0"), Severity::error);
  CHECK(lldp(lab)[1].message == "host1:ens2f0np0 reaches core9:Ethernet1, the inventory says leaf2:Ethernet1/1");
}

// The other end's view of a miscabled host NIC names the host's finding as its cause, also when the host
// end of that link itself sees nothing wrong. Here
// host1:ens1f0np0 was plugged into leaf2:Ethernet1/1 (host1:ens2f0np0's port, now without a cable): the
// rail finding on ens1f0np0 is the fault, yet leaf2:Ethernet1/1 seeing host1:ens1f0np0 is a second failure.
TEST_CASE("cabling: the far end's view of a NIC on another rail's leaf is a consequence") {
  Lab lab;
  lab.port("host1", "ens1f0np0").lldp = LldpNeighbor{"leaf2", "Ethernet1/1"};
  lab.port("leaf2", "Ethernet1/1").lldp = LldpNeighbor{"host1", "ens1f0np0"};
  lab.port("host1", "ens2f0np0").lldp.reset();
  lab.port("host1", "ens2f0np0").oper_up = false;
  lab.port("leaf1", "Ethernet0").lldp.reset();
  lab.port("leaf1", "Ethernet0").oper_up = false;
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"cabling.rail.mismatch host1:ens1f0np0"});
  CHECK(lldp(lab)[1].cause == "cabling.rail.mismatch host1:ens1f0np0");
}
