#include <doctest/doctest.h>

#include <algorithm>
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

const std::vector<Check>& link_family() {
  static const std::vector<Check> checks = link_checks();
  return checks;
}

const std::vector<std::string> kIds = {"link.mtu.mismatch",  "link.pfc.mismatch",   "link.trust.mismatch",
                                       "link.dscp.mismatch", "link.speed.mismatch", "link.oper.down"};

const Endpoint kHost1{"host1", "ens1f0np0"};
const Endpoint kHost2{"host1", "ens2f0np0"};
const Endpoint kLeaf1{"leaf1", "Ethernet0"};
const Endpoint kLeaf2{"leaf2", "Ethernet1/1"};
const Endpoint kUplink{"leaf1", "Ethernet48"};
const Endpoint kSpine{"spine1", "swp1"};

/// Links, in CheckContext order.
enum LinkIndex : size_t { kL1 = 0, kL2 = 1, kUp = 2 };

std::vector<Result> run(const Lab& lab, std::string_view id) {
  std::vector<Result> rs = lab.run(link_family(), id);
  REQUIRE(rs.size() == 3);
  return rs;
}

/// Statuses of all three links, in link order.
std::vector<Status> statuses(const std::vector<Result>& rs) {
  std::vector<Status> s;
  for (const Result& r : rs) s.push_back(r.status);
  return s;
}

constexpr Status P = Status::pass;
constexpr Status F = Status::fail;
constexpr Status M = Status::missing;
constexpr Status C = Status::consequence;

/// A disagreement explained by an end's drift: no hint, the cause names the drift finding.
void check_consequence(const Result& r, const std::string& cause, const LinkRef& link) {
  CAPTURE(r.object());
  CHECK(r.status == Status::consequence);
  CHECK(r.severity == Severity::error);
  CHECK(r.cause == cause);
  CHECK(r.hint.empty());
  CHECK(same_link(r.link, link));
}

}  // namespace

TEST_CASE("link checks: catalog rows in order, with their severities") {
  std::vector<std::string> ids;
  for (const Check& c : link_family()) {
    ids.emplace_back(c.id);
    CHECK_FALSE(c.summary.empty());
    CHECK(static_cast<bool>(c.run));
    CHECK(c.severity == Severity::error);
    CHECK_FALSE(c.optional_data);
  }
  CHECK(ids == kIds);
}

TEST_CASE("link checks: a perfect fabric passes every check on every link, host end first") {
  const Lab lab;
  for (const std::string& id : kIds) {
    CAPTURE(id);
    const std::vector<Result> rs = run(lab, id);
    CHECK(statuses(rs) == std::vector<Status>{P, P, P});
    CHECK(rs[kL1].a == kHost1);
    CHECK(rs[kL1].b == kLeaf1);
    CHECK(rs[kL2].a == kHost2);
    CHECK(rs[kL2].b == kLeaf2);
    CHECK(rs[kUp].a == kUplink);
    CHECK(rs[kUp].b == kSpine);
    CHECK(rs[kL1].object() == "host1:ens1f0np0~leaf1:Ethernet0");
    for (const Result& r : rs) {
      CHECK(r.check == id);
      test::check_bare_pass(r, Severity::error);
    }
  }
}

TEST_CASE("link.pfc.mismatch: the classic case, PFC off on the leaf end only, is a consequence of its drift") {
  Lab lab;
  (*lab.port("leaf1", "Ethernet0").lossless)[3] = false;
  const std::vector<Result> rs = run(lab, "link.pfc.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{C, P, P});
  const Result& r = rs[kL1];
  check_consequence(r, "port.pfc.drift leaf1:Ethernet0", kHost1Link);
  CHECK(r.a == kHost1);
  CHECK(r.b == kLeaf1);
  CHECK(r.expected == "lossless 3 on both ends");
  CHECK(r.observed == "host1:ens1f0np0=3, leaf1:Ethernet0=none");
  CHECK(r.message == "PFC disagrees: host1:ens1f0np0 lossless 3, leaf1:Ethernet0 no lossless priority");

  // The whole catalog: one fault, with its fix, and the disagreement under it.
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"port.pfc.drift leaf1:Ethernet0"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"link.pfc.mismatch host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0",
                              "link.roce.class host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0"});
  CHECK(lab.result(drift_checks(), "port.pfc.drift", "leaf1", "Ethernet0").hint ==
        "sudo config interface pfc priority 'Ethernet0' 3 on");
}

TEST_CASE("link.pfc.mismatch: the drifted end is named, on either end and on switch-switch links") {
  Lab lab;
  (*lab.port("host1", "ens2f0np0").lossless)[4] = true;
  lab.port("spine1", "swp1").lossless = std::array<bool, kPriorities>{};
  const std::vector<Result> rs = run(lab, "link.pfc.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{P, C, C});
  check_consequence(rs[kL2], "port.pfc.drift host1:ens2f0np0", kHost2Link);
  CHECK(rs[kL2].message == "PFC disagrees: host1:ens2f0np0 lossless 3,4, leaf2:Ethernet1/1 lossless 3");
  check_consequence(rs[kUp], "port.pfc.drift spine1:swp1", kSpineLink);
  CHECK(rs[kUp].observed == "leaf1:Ethernet48=3, spine1:swp1=none");
  CHECK(rs[kUp].message == "PFC disagrees: leaf1:Ethernet48 lossless 3, spine1:swp1 no lossless priority");

  // Both ends drifted, differently: two faults, and the disagreement is the first end's consequence.
  lab.port("leaf2", "Ethernet1/1").lossless = std::array<bool, kPriorities>{};
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"port.pfc.drift host1:ens2f0np0",
                                                     "port.pfc.drift leaf2:Ethernet1/1", "port.pfc.drift spine1:swp1"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"link.pfc.mismatch host1:ens2f0np0~leaf2:Ethernet1/1 <- port.pfc.drift "
                              "host1:ens2f0np0",
                              "link.pfc.mismatch leaf1:Ethernet48~spine1:swp1 <- port.pfc.drift spine1:swp1",
                              "link.roce.class host1:ens2f0np0~leaf2:Ethernet1/1 <- port.pfc.drift "
                              "leaf2:Ethernet1/1"});
}

TEST_CASE("link.pfc.mismatch: ends that agree pass, even when both are wrong; port drift reports each") {
  Lab lab;
  (*lab.port("host1", "ens1f0np0").lossless)[4] = true;
  (*lab.port("leaf1", "Ethernet0").lossless)[4] = true;
  CHECK(statuses(run(lab, "link.pfc.mismatch")) == std::vector<Status>{P, P, P});
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) ==
        std::set<std::string>{"port.pfc.drift host1:ens1f0np0", "port.pfc.drift leaf1:Ethernet0"});
  CHECK(test::consequences(all).empty());
}

TEST_CASE("link.pfc.mismatch: profiles that disagree are a failure without a device fix") {
  Lab lab;
  lab.device("leaf2").qos.lossless[4] = true;
  lab.refresh_observed();  // every device as its intent says: no drift anywhere
  const std::vector<Result> rs = run(lab, "link.pfc.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{P, F, P});
  const Result& r = rs[kL2];
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == "host1:ens2f0np0 lossless 3, leaf2:Ethernet1/1 lossless 3,4");
  CHECK(r.observed == "host1:ens2f0np0=3, leaf2:Ethernet1/1=3,4");
  CHECK(r.message ==
        "PFC disagrees: host1:ens2f0np0 lossless 3, leaf2:Ethernet1/1 lossless 3,4; the profiles of host1 and leaf2 "
        "disagree on PFC: make them agree, then render and apply both");
  CHECK(r.hint.empty());
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost2Link));
  CHECK(test::failures(lab.run_all()) == std::set<std::string>{"link.pfc.mismatch host1:ens2f0np0~leaf2:Ethernet1/1"});
}

// When the intents of the two ends disagree, fixing a drift cannot make the ends agree: the profile
// disagreement, which only this check can see, is a failure even when an end also drifted.
TEST_CASE("link.pfc.mismatch: profiles that disagree stay a failure when an end also drifted") {
  Lab lab;
  lab.device("leaf2").qos.lossless[4] = true;  // leaf2's profile: 3,4; host1's: 3
  lab.refresh_observed();
  lab.port("host1", "ens2f0np0").lossless = std::array<bool, kPriorities>{};  // and host1 drifted to none
  const Result r = run(lab, "link.pfc.mismatch")[kL2];
  CHECK(r.status == Status::fail);
  CHECK(r.cause.empty());
  CHECK(r.message ==
        "PFC disagrees: host1:ens2f0np0 no lossless priority, leaf2:Ethernet1/1 lossless 3,4; the profiles of host1 "
        "and leaf2 disagree on PFC: make them agree, then render and apply both");
}

TEST_CASE("link.mtu.mismatch: the classic case, a host NIC left at MTU 1500, still fits its switch port") {
  Lab lab;
  lab.port("host1", "ens2f0np0").mtu = 1500;
  lab.port("host1", "ens2f0np0").rdma->active_mtu = 1024;
  CHECK(statuses(run(lab, "link.mtu.mismatch")) == std::vector<Status>{P, P, P});
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"port.mtu.drift host1:ens2f0np0"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"rdma.mtu.mismatch host1:ens2f0np0 <- port.mtu.drift host1:ens2f0np0"});
}

TEST_CASE("link.mtu.mismatch: a host MTU above its switch port's") {
  Lab lab;
  lab.port("host1", "ens1f0np0").mtu = 9216;  // drifted up
  Result r = run(lab, "link.mtu.mismatch")[kL1];
  check_consequence(r, "port.mtu.drift host1:ens1f0np0", kHost1Link);
  CHECK(r.expected == "switch >= host (9000)");
  CHECK(r.observed == "host1:ens1f0np0=9216, leaf1:Ethernet0=9100");
  CHECK(r.message ==
        "MTU mismatch: host1:ens1f0np0 is at MTU 9216, above leaf1:Ethernet0 at 9100: full-size frames from the host "
        "are dropped");

  // The switch end drifted below the host.
  lab.refresh_observed();
  lab.port("leaf2", "Ethernet1/1").mtu = 1500;
  r = run(lab, "link.mtu.mismatch")[kL2];
  check_consequence(r, "port.mtu.drift leaf2:Ethernet1/1", kHost2Link);
  CHECK(r.message ==
        "MTU mismatch: host1:ens2f0np0 is at MTU 9000, above leaf2:Ethernet1/1 at 1500: full-size frames from the host "
        "are dropped");
  CHECK(test::failures(lab.run_all()) == std::set<std::string>{"port.mtu.drift leaf2:Ethernet1/1"});

  // A switch port below its own intent that still carries the host's frames: only port drift reports it.
  lab.port("leaf2", "Ethernet1/1").mtu = 9000;
  CHECK(statuses(run(lab, "link.mtu.mismatch")) == std::vector<Status>{P, P, P});
  CHECK(test::failures(lab.run_all()) == std::set<std::string>{"port.mtu.drift leaf2:Ethernet1/1"});
}

TEST_CASE("link.mtu.mismatch: an intent that puts the switch port below the host is a failure without a device fix") {
  Lab lab;
  lab.intent("leaf1", "Ethernet0").mtu = 4200;
  lab.refresh_observed();
  const Result r = run(lab, "link.mtu.mismatch")[kL1];
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "switch >= host (9000)");
  CHECK(r.observed == "host1:ens1f0np0=9000, leaf1:Ethernet0=4200");
  CHECK(r.message ==
        "MTU mismatch: host1:ens1f0np0 is at MTU 9000, above leaf1:Ethernet0 at 4200: full-size frames from the host "
        "are dropped; the intent puts the switch port below the host: raise it in the profile");
  CHECK(r.hint.empty());
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost1Link));
}

TEST_CASE("link.mtu.mismatch: switch-switch ends must be equal") {
  Lab lab;
  lab.port("spine1", "swp1").mtu = 9216;
  Result r = run(lab, "link.mtu.mismatch")[kUp];
  check_consequence(r, "port.mtu.drift spine1:swp1", kSpineLink);
  CHECK(r.expected == "9100 on both ends");
  CHECK(r.observed == "leaf1:Ethernet48=9100, spine1:swp1=9216");
  CHECK(r.message == "MTU disagrees: leaf1:Ethernet48 at 9100, spine1:swp1 at 9216");

  // Equal, both off intent: port drift reports each end.
  lab.port("leaf1", "Ethernet48").mtu = 9216;
  CHECK(run(lab, "link.mtu.mismatch")[kUp].status == Status::pass);

  // Profiles that give the two ends different MTUs can never agree.
  lab.intent("spine1", "swp1").mtu = 9216;
  lab.refresh_observed();
  r = run(lab, "link.mtu.mismatch")[kUp];
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "leaf1:Ethernet48 9100, spine1:swp1 9216");
  CHECK(r.message ==
        "MTU disagrees: leaf1:Ethernet48 at 9100, spine1:swp1 at 9216; the profiles of leaf1 and spine1 disagree on "
        "MTU: make them agree, then render and apply both");
  CHECK(r.hint.empty());
  CHECK(r.cause.empty());
}

TEST_CASE("link.trust.mismatch") {
  Lab lab;
  lab.port("host1", "ens2f0np0").trust = Trust::pcp;
  const std::vector<Result> rs = run(lab, "link.trust.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{P, C, P});
  const Result& r = rs[kL2];
  check_consequence(r, "port.trust.drift host1:ens2f0np0", kHost2Link);
  CHECK(r.expected == "trusts dscp on both ends");
  CHECK(r.observed == "host1:ens2f0np0=pcp, leaf2:Ethernet1/1=dscp");
  CHECK(r.message == "Trust disagrees: host1:ens2f0np0 trusts pcp, leaf2:Ethernet1/1 trusts dscp");
  CHECK(test::failures(lab.run_all()) == std::set<std::string>{"port.trust.drift host1:ens2f0np0"});

  // A leaf whose profile trusts PCP disagrees with both of its neighbours; no DSCP comparison then.
  Lab pcp;
  pcp.device("leaf1").qos.trust = Trust::pcp;
  pcp.refresh_observed();
  const std::vector<Result> ps = run(pcp, "link.trust.mismatch");
  CHECK(statuses(ps) == std::vector<Status>{F, P, F});
  CHECK(ps[kL1].expected == "host1:ens1f0np0 trusts dscp, leaf1:Ethernet0 trusts pcp");
  CHECK(ps[kL1].message ==
        "Trust disagrees: host1:ens1f0np0 trusts dscp, leaf1:Ethernet0 trusts pcp; the profiles of host1 and leaf1 "
        "disagree on Trust: make them agree, then render and apply both");
  CHECK(ps[kL1].hint.empty());
  CHECK(ps[kUp].message ==
        "Trust disagrees: leaf1:Ethernet48 trusts pcp, spine1:swp1 trusts dscp; the profiles of leaf1 and spine1 "
        "disagree on Trust: make them agree, then render and apply both");
  // DSCP maps do not apply where an end trusts PCP (leaf1's two links): not compared, so not a pass
  // either. The link that trusts DSCP on both ends still passes.
  CHECK(statuses(pcp.run(link_family(), "link.dscp.mismatch")) == std::vector<Status>{P});
}

TEST_CASE("link.dscp.mismatch: RoCE and CNP DSCP map to the same priorities on both ends") {
  Lab lab;
  (*lab.port("leaf1", "Ethernet0").dscp_to_priority)[26] = 1;  // SONiC's default map does this
  Result r = run(lab, "link.dscp.mismatch")[kL1];
  check_consequence(r, "port.dscp.drift leaf1:Ethernet0", kHost1Link);
  CHECK(r.expected == "26->3 48->6 on both ends");
  CHECK(r.observed == "host1:ens1f0np0=26->3 48->6, leaf1:Ethernet0=26->1 48->6");
  CHECK(r.message == "DSCP map disagrees: host1:ens1f0np0 maps 26->3 48->6, leaf1:Ethernet0 maps 26->1 48->6");

  (*lab.port("spine1", "swp1").dscp_to_priority)[48] = 0;
  r = run(lab, "link.dscp.mismatch")[kUp];
  check_consequence(r, "port.dscp.drift spine1:swp1", kSpineLink);
  CHECK(r.message == "DSCP map disagrees: leaf1:Ethernet48 maps 26->3 48->6, spine1:swp1 maps 26->3 48->0");

  // Other DSCP values do not matter to this check; port.dscp.drift reports them.
  Lab other;
  (*other.port("leaf1", "Ethernet0").dscp_to_priority)[10] = 5;
  CHECK(statuses(run(other, "link.dscp.mismatch")) == std::vector<Status>{P, P, P});
  CHECK(test::failures(other.run_all()) == std::set<std::string>{"port.dscp.drift leaf1:Ethernet0"});

  // Profiles that map RoCE traffic differently.
  Lab profiles;
  profiles.device("leaf2").qos.dscp_to_priority[26] = 4;
  profiles.refresh_observed();
  r = run(profiles, "link.dscp.mismatch")[kL2];
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "host1:ens2f0np0 26->3 48->6, leaf2:Ethernet1/1 26->4 48->6");
  CHECK(r.message ==
        "DSCP map disagrees: host1:ens2f0np0 maps 26->3 48->6, leaf2:Ethernet1/1 maps 26->4 48->6; the profiles of "
        "host1 and leaf2 disagree on DSCP map: make them agree, then render and apply both");
  CHECK(r.hint.empty());
}

TEST_CASE("link.speed.mismatch: the message names the slow end, the fix checks it") {
  Lab lab;
  lab.port("host1", "ens2f0np0").speed_mbps = 100000;
  const std::vector<Result> rs = run(lab, "link.speed.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{P, F, P});
  const Result& r = rs[kL2];
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == "400G on both ends");
  CHECK(r.observed == "host1:ens2f0np0=100G, leaf2:Ethernet1/1=400G");
  CHECK(r.message ==
        "Speed mismatch: host1:ens2f0np0 runs at 100G, leaf2:Ethernet1/1 at 400G, expected 400G: the slow end is "
        "host1:ens2f0np0");
  CHECK(r.hint == "ethtool 'ens2f0np0'");
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost2Link));
  CHECK(test::failures(lab.run_all()) ==
        std::set<std::string>{"link.speed.mismatch host1:ens2f0np0~leaf2:Ethernet1/1"});

  // The slow end on a switch, in its platform's words.
  Lab sonic;
  sonic.port("leaf1", "Ethernet0").speed_mbps = 200000;
  CHECK(run(sonic, "link.speed.mismatch")[kL1].hint ==
        "show interfaces status 'Ethernet0'\nshow interfaces transceiver presence 'Ethernet0'");

  // Both ends equal but below the expected speed: the link itself; check it from both ends.
  lab.port("leaf2", "Ethernet1/1").speed_mbps = 100000;
  const Result both = run(lab, "link.speed.mismatch")[kL2];
  CHECK(both.status == Status::fail);
  CHECK(both.message == "Speed mismatch: host1:ens2f0np0 and leaf2:Ethernet1/1 both run at 100G, expected 400G");
  CHECK(both.hint ==
        "# on host1:ens2f0np0\nethtool 'ens2f0np0'\n"
        "# on leaf2:Ethernet1/1\nshow interfaces Ethernet1/1 status\nshow interfaces Ethernet1/1 transceiver");

  // An end faster than expected is the one off intent; the slow end is fine.
  lab.port("leaf2", "Ethernet1/1").speed_mbps = 400000;
  lab.port("host1", "ens2f0np0").speed_mbps = 800000;
  const Result fast = run(lab, "link.speed.mismatch")[kL2];
  CHECK(fast.message ==
        "Speed mismatch: host1:ens2f0np0 runs at 800G, leaf2:Ethernet1/1 at 400G, expected 400G: host1:ens2f0np0 "
        "runs faster than expected");
  CHECK(fast.hint == "ethtool 'ens2f0np0'");

  // Without an expected speed, the ends must still agree.
  Lab loose;
  for (DeviceDesired& d : loose.desired.devices)
    for (PortDesired& p : d.ports) p.speed_mbps.reset();
  loose.port("spine1", "swp1").speed_mbps = 200000;
  const Result l = run(loose, "link.speed.mismatch")[kUp];
  CHECK(l.status == Status::fail);
  CHECK(l.expected == "equal on both ends");
  CHECK(l.message == "Speed mismatch: leaf1:Ethernet48 runs at 400G, spine1:swp1 at 200G: the slow end is spine1:swp1");
  CHECK(l.hint == "nv show interface swp1 link");
}

TEST_CASE("link.speed.mismatch: a down link's speed does not apply; link.oper.down is the finding") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").oper_up = false;
  lab.port("leaf1", "Ethernet0").speed_mbps = 10000;
  // Neither a pass nor a comparison: the down link has no speed result at all.
  const std::vector<Result> speed = lab.run(link_family(), "link.speed.mismatch");
  CHECK(statuses(speed) == std::vector<Status>{P, P});
  for (const Result& r : speed) CHECK(r.object().find("leaf1:Ethernet0") == std::string::npos);
  // A down port that reports no speed (ethtool's "Unknown!") is not missing data either.
  lab.port("leaf1", "Ethernet0").speed_mbps.reset();
  CHECK(statuses(lab.run(link_family(), "link.speed.mismatch")) == std::vector<Status>{P, P});
  CHECK(statuses(run(lab, "link.oper.down")) == std::vector<Status>{F, P, P});
}

TEST_CASE("link.oper.down: names the down ends and brings each up") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").oper_up = false;
  const std::vector<Result> rs = run(lab, "link.oper.down");
  CHECK(statuses(rs) == std::vector<Status>{F, P, P});
  CHECK(rs[kL1].expected == "up on both ends");
  CHECK(rs[kL1].observed == "host1:ens1f0np0=up, leaf1:Ethernet0=down");
  CHECK(rs[kL1].message ==
        "Link down between host1:ens1f0np0 and leaf1:Ethernet0: leaf1:Ethernet0 is down; check the cable and optics "
        "if it stays down");
  CHECK(rs[kL1].hint == "sudo config interface startup 'Ethernet0'");
  CHECK(rs[kL1].cause.empty());
  CHECK(same_link(rs[kL1].link, kHost1Link));

  lab.port("host1", "ens1f0np0").oper_up = false;
  const Result both = run(lab, "link.oper.down")[kL1];
  CHECK(both.message ==
        "Link down between host1:ens1f0np0 and leaf1:Ethernet0: host1:ens1f0np0 and leaf1:Ethernet0 are down; check "
        "the cable and optics if it stays down");
  CHECK(both.hint ==
        "# on host1:ens1f0np0\nip link set dev 'ens1f0np0' up\n# on leaf1:Ethernet0\nsudo config interface startup "
        "'Ethernet0'");

  lab.port("leaf2", "Ethernet1/1").oper_up = false;
  CHECK(run(lab, "link.oper.down")[kL2].hint == "configure\ninterface Ethernet1/1\n   no shutdown\nend");
  lab.port("spine1", "swp1").oper_up = false;
  CHECK(run(lab, "link.oper.down")[kUp].hint == "nv set interface swp1 link state up\nnv config apply -y");
}

TEST_CASE("link.oper.down: a host NIC down takes its RDMA port down with it, one fault") {
  Lab lab;
  lab.port("host1", "ens1f0np0").oper_up = false;
  lab.port("leaf1", "Ethernet0").oper_up = false;
  lab.port("host1", "ens1f0np0").rdma->active = false;
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"link.oper.down host1:ens1f0np0~leaf1:Ethernet0"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"rdma.port.down host1:ens1f0np0 <- link.oper.down host1:ens1f0np0~leaf1:Ethernet0"});
}

TEST_CASE("link.oper.down: one end read as down is a fault, whatever the other end could say") {
  Lab lab;
  lab.observed.devices.erase("leaf1");
  lab.port("host1", "ens1f0np0").oper_up = false;
  const Result r = run(lab, "link.oper.down")[kL1];
  CHECK(r.status == Status::fail);
  CHECK(r.message ==
        "Link down between host1:ens1f0np0 and leaf1:Ethernet0: host1:ens1f0np0 is down; check the cable and optics "
        "if it stays down");
  CHECK(r.observed == "host1:ens1f0np0=down, leaf1:Ethernet0=unknown");
  CHECK(r.hint == "ip link set dev 'ens1f0np0' up");
  // Up on the end that was read says nothing about the link: still missing.
  lab.port("host1", "ens1f0np0").oper_up = true;
  CHECK(run(lab, "link.oper.down")[kL1].status == Status::missing);
}

TEST_CASE("link checks: missing data names the end that lacks it") {
  SUBCASE("a device with no observed state") {
    Lab lab;
    lab.observed.devices.erase("leaf1");
    for (const std::string& id : kIds) {
      CAPTURE(id);
      const std::vector<Result> rs = run(lab, id);
      CHECK(statuses(rs) == std::vector<Status>{M, P, M});
      CHECK(rs[kL1].hint.empty());
      CHECK(rs[kL1].cause.empty());
      CHECK(same_link(rs[kL1].link, kHost1Link));
      CHECK(same_link(rs[kUp].link, kSpineLink));
    }
    const Result r = run(lab, "link.mtu.mismatch")[kL1];
    CHECK(r.severity == Severity::error);
    CHECK(r.a == kHost1);
    CHECK(r.b == kLeaf1);
    CHECK(r.expected == "switch >= host (9000)");
    CHECK(r.observed == "host1:ens1f0np0=9000, leaf1:Ethernet0=unknown");
    CHECK(r.message == "MTU not compared between host1:ens1f0np0 and leaf1:Ethernet0: leaf1 has no observed state");
    CHECK(run(lab, "link.oper.down")[kUp].message ==
          "Link not compared between leaf1:Ethernet48 and spine1:swp1: leaf1 has no observed state");
  }
  SUBCASE("an unreadable device, with the first line of why") {
    Lab lab;
    lab.observed.devices.erase("spine1");
    lab.observed.unreadable["spine1"] = "ssh: connection timed out\nafter 10 s";
    const Result r = run(lab, "link.speed.mismatch")[kUp];
    CHECK(r.status == Status::missing);
    CHECK(r.observed == "leaf1:Ethernet48=400G, spine1:swp1=unknown");
    CHECK(r.message ==
          "Speed not compared between leaf1:Ethernet48 and spine1:swp1: spine1 could not be read (ssh: connection "
          "timed out)");
  }
  SUBCASE("a port the device did not report") {
    Lab lab;
    auto& ports = lab.observed.devices.at("leaf2").ports;
    ports.erase(ports.begin());  // Ethernet1/1
    const std::vector<Result> rs = run(lab, "link.trust.mismatch");
    CHECK(statuses(rs) == std::vector<Status>{P, M, P});
    CHECK(rs[kL2].message ==
          "Trust not compared between host1:ens2f0np0 and leaf2:Ethernet1/1: leaf2 reported no port Ethernet1/1");
  }
  SUBCASE("a field one or both ends did not report") {
    Lab lab;
    lab.port("host1", "ens1f0np0").lossless.reset();
    lab.port("leaf1", "Ethernet0").lossless.reset();
    Result r = run(lab, "link.pfc.mismatch")[kL1];
    CHECK(r.status == Status::missing);
    CHECK(r.expected == "lossless 3 on both ends");
    CHECK(r.observed == "host1:ens1f0np0=unknown, leaf1:Ethernet0=unknown");
    CHECK(r.message ==
          "PFC not compared between host1:ens1f0np0 and leaf1:Ethernet0: host1:ens1f0np0 did not report its PFC "
          "priorities; leaf1:Ethernet0 did not report its PFC priorities");

    lab.port("spine1", "swp1").oper_up.reset();
    r = run(lab, "link.oper.down")[kUp];
    CHECK(r.status == Status::missing);
    CHECK(r.observed == "leaf1:Ethernet48=up, spine1:swp1=unknown");
    CHECK(r.message ==
          "Link not compared between leaf1:Ethernet48 and spine1:swp1: spine1:swp1 did not report its link state");

    lab.port("host1", "ens2f0np0").dscp_to_priority.reset();
    CHECK(run(lab, "link.dscp.mismatch")[kL2].message ==
          "DSCP map not compared between host1:ens2f0np0 and leaf2:Ethernet1/1: host1:ens2f0np0 did not report its "
          "DSCP map");
    lab.port("leaf2", "Ethernet1/1").trust.reset();
    CHECK(run(lab, "link.trust.mismatch")[kL2].message ==
          "Trust not compared between host1:ens2f0np0 and leaf2:Ethernet1/1: leaf2:Ethernet1/1 did not report its "
          "trust mode");
    lab.port("leaf2", "Ethernet1/1").mtu.reset();
    CHECK(run(lab, "link.mtu.mismatch")[kL2].message ==
          "MTU not compared between host1:ens2f0np0 and leaf2:Ethernet1/1: leaf2:Ethernet1/1 did not report its MTU");
    lab.port("leaf2", "Ethernet1/1").speed_mbps.reset();
    CHECK(run(lab, "link.speed.mismatch")[kL2].message ==
          "Speed not compared between host1:ens2f0np0 and leaf2:Ethernet1/1: leaf2:Ethernet1/1 did not report its "
          "speed");
  }
}

TEST_CASE("link checks under --limit: a link with an end in scope, and the drift of its other end") {
  Lab lab;
  (*lab.port("leaf1", "Ethernet0").lossless)[3] = false;
  const std::set<std::string> both{"host1", "leaf1"};
  const std::vector<Result> all = lab.run_all(&both);
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"port.pfc.drift leaf1:Ethernet0"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"link.pfc.mismatch host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0",
                              "link.roce.class host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0"});
}

// When both ends drifted, the cause is the drift that drops the host's frames (the switch end at 1500),
// not the harmless one (the host at 9100 still fits its switch port's intended 9100).
TEST_CASE("link.mtu.mismatch: the cause is the drift that makes the host not fit") {
  Lab lab;
  lab.port("host1", "ens1f0np0").mtu = 9100;
  lab.port("leaf1", "Ethernet0").mtu = 1500;
  const Result r = run(lab, "link.mtu.mismatch")[kL1];
  CHECK(r.status == Status::consequence);
  CHECK(r.cause == "port.mtu.drift leaf1:Ethernet0");
}

TEST_CASE("the whole catalog on the perfect lab: nothing but passes") {
  const Lab lab;
  const std::vector<Result> all = lab.run_all();
  CHECK(all.size() > 50);
  CHECK(test::count(all, Status::pass) == all.size());
  for (const Result& r : all) {
    const auto c = std::find_if(checks().begin(), checks().end(), [&](const Check& k) { return k.id == r.check; });
    REQUIRE(c != checks().end());
    test::check_bare_pass(r, c->severity);
  }
}

TEST_CASE("the classic lab case: PFC off on a leaf port and a host NIC at MTU 1500 are two findings") {
  Lab lab;
  (*lab.port("leaf1", "Ethernet0").lossless)[3] = false;
  lab.port("host1", "ens2f0np0").mtu = 1500;
  lab.port("host1", "ens2f0np0").rdma->active_mtu = 1024;
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) ==
        std::set<std::string>{"port.mtu.drift host1:ens2f0np0", "port.pfc.drift leaf1:Ethernet0"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"link.pfc.mismatch host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0",
                              "link.roce.class host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0",
                              "rdma.mtu.mismatch host1:ens2f0np0 <- port.mtu.drift host1:ens2f0np0"});
  for (const Result& r : all) {
    if (r.status == Status::pass) continue;
    CAPTURE(r.check + " " + r.object());
    CHECK(r.severity == Severity::error);
    CHECK(r.link.has_value());  // every finding of the case is about a cabled port, grouped by its link
    CHECK(r.hint.empty() == (r.status == Status::consequence));
  }
}
