#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fixtures.h"
#include "state/observed.h"
#include "verify/check.h"
#include "verify/checks/checks.h"

using namespace fabricctl;

namespace {

// host1 (Linux) has two NICs cabled to leaf1 (SONiC); leaf1:Ethernet48 is cabled to spine1 (EOS).
// Links, in CheckContext order: host1:ens1f0np0~leaf1:Ethernet0, host1:ens2f0np0~leaf1:Ethernet4,
// leaf1:Ethernet48~spine1:Ethernet1/1. The observed state starts as a perfect copy of the intent.
struct Lab {
  FabricDesired desired;
  FabricObserved observed;

  Lab() {
    DeviceDesired host = test::example_host();
    cable(host, 0, "leaf1", "Ethernet0");
    cable(host, 1, "leaf1", "Ethernet4");
    DeviceDesired leaf = test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet4", "Ethernet48"});
    cable(leaf, 0, "host1", "ens1f0np0");
    cable(leaf, 1, "host1", "ens2f0np0");
    cable(leaf, 2, "spine1", "Ethernet1/1");
    DeviceDesired spine = test::example_switch(Platform::eos, {"Ethernet1/1"});
    spine.name = "spine1";
    cable(spine, 0, "leaf1", "Ethernet48");
    desired.devices = {host, leaf, spine};
    observe();
  }

  static void cable(DeviceDesired& d, size_t port, const std::string& peer, const std::string& peer_port) {
    d.ports.at(port).peer_device = peer;
    d.ports.at(port).peer_port = peer_port;
  }

  /// Rebuilds the observed state from the intent (after the intent changed).
  void observe() {
    observed.devices.clear();
    for (const DeviceDesired& d : desired.devices) observed.devices[d.name] = observed_from_desired(d);
  }

  DeviceDesired& intent(const std::string& device) {
    for (DeviceDesired& d : desired.devices)
      if (d.name == device) return d;
    FAIL("no device " << device);
    throw;
  }

  PortObserved& port(const std::string& device, const std::string& name) {
    for (PortObserved& p : observed.devices.at(device).ports)
      if (p.name == name) return p;
    FAIL("no port " << device << ":" << name);
    throw;
  }

  /// Runs one link check over the whole fabric.
  std::vector<Result> run(std::string_view id) const {
    const CheckContext ctx(desired, observed);
    for (const Check& c : link_checks()) {
      if (c.id != id) continue;
      std::vector<Result> out;
      c.run(ctx, out);
      return out;
    }
    FAIL("no check " << id);
    throw;
  }
};

const std::vector<std::string> kIds = {"link.mtu.mismatch",  "link.pfc.mismatch",     "link.trust.mismatch",
                                       "link.dscp.mismatch", "link.ecn.missing",      "link.dcqcn.missing",
                                       "link.watchdog.missing", "link.speed.mismatch", "link.oper.down"};

const Endpoint kHost1{"host1", "ens1f0np0"};
const Endpoint kHost2{"host1", "ens2f0np0"};
const Endpoint kLeafH1{"leaf1", "Ethernet0"};
const Endpoint kLeafH2{"leaf1", "Ethernet4"};
const Endpoint kLeafUp{"leaf1", "Ethernet48"};
const Endpoint kSpine{"spine1", "Ethernet1/1"};

/// Statuses of all three links, in link order.
std::vector<Status> statuses(const std::vector<Result>& rs) {
  std::vector<Status> s;
  for (const Result& r : rs) s.push_back(r.status);
  return s;
}

constexpr Status P = Status::pass;
constexpr Status F = Status::fail;
constexpr Status M = Status::missing;

}  // namespace

TEST_CASE("link checks: catalog rows in order, with their severities") {
  std::vector<std::string> ids;
  for (const Check& c : link_checks()) {
    ids.emplace_back(c.id);
    CHECK(!c.summary.empty());
    CHECK(static_cast<bool>(c.run));
    CHECK(c.severity == (c.id == "link.watchdog.missing" ? Severity::warning : Severity::error));
  }
  CHECK(ids == kIds);
}

TEST_CASE("link checks: a perfect fabric passes every check on every link, host end first") {
  const Lab lab;
  for (const std::string& id : kIds) {
    CAPTURE(id);
    const std::vector<Result> rs = lab.run(id);
    REQUIRE(rs.size() == 3);
    CHECK(statuses(rs) == std::vector<Status>{P, P, P});
    CHECK(rs[0].a == kHost1);
    CHECK(rs[0].b == kLeafH1);
    CHECK(rs[1].a == kHost2);
    CHECK(rs[1].b == kLeafH2);
    CHECK(rs[2].a == kLeafUp);
    CHECK(rs[2].b == kSpine);
    CHECK(rs[0].object() == "host1:ens1f0np0~leaf1:Ethernet0");
    for (const Result& r : rs) {
      CHECK(r.check == id);
      CHECK(!r.message.empty());
      CHECK(r.hint.empty());
    }
  }
  // What a pass says it compared.
  CHECK(lab.run("link.mtu.mismatch")[0].message == "MTU agrees: host1:ens1f0np0=9000, leaf1:Ethernet0=9100");
  CHECK(lab.run("link.mtu.mismatch")[0].expected == "host 9000, switch >= 9000");
  CHECK(lab.run("link.mtu.mismatch")[2].expected == "9100 on both ends");
  CHECK(lab.run("link.pfc.mismatch")[0].message == "PFC agrees: host1:ens1f0np0=3, leaf1:Ethernet0=3");
  CHECK(lab.run("link.dscp.mismatch")[0].observed == "host1:ens1f0np0=26->3 48->6, leaf1:Ethernet0=26->3 48->6");
  CHECK(lab.run("link.ecn.missing")[0].message == "ECN marked: leaf1:Ethernet0=TC3");
  CHECK(lab.run("link.ecn.missing")[2].expected == "ECN on TC3 at leaf1:Ethernet48 and spine1:Ethernet1/1");
  CHECK(lab.run("link.dcqcn.missing")[0].message == "DCQCN on: host1:ens1f0np0=RP 3 NP 3");
  CHECK(lab.run("link.dcqcn.missing")[2].message == "DCQCN not applicable between switches");
  CHECK(lab.run("link.watchdog.missing")[2].observed == "leaf1:Ethernet48=on, spine1:Ethernet1/1=on");
  CHECK(lab.run("link.speed.mismatch")[0].expected == "400G on both ends");
  CHECK(lab.run("link.oper.down")[2].message == "Link up: leaf1:Ethernet48=up, spine1:Ethernet1/1=up");
}

TEST_CASE("link.pfc.mismatch: the classic case, PFC off on the switch end only") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").lossless->at(3) = false;
  const std::vector<Result> rs = lab.run("link.pfc.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{F, P, P});
  const Result& r = rs[0];
  CHECK(r.severity == Severity::error);
  CHECK(r.a == kHost1);
  CHECK(r.b == kLeafH1);
  CHECK(r.expected == "lossless 3 on both ends");
  CHECK(r.observed == "host1:ens1f0np0=3, leaf1:Ethernet0=none");
  CHECK(r.message ==
        "PFC disagrees: host1:ens1f0np0 has priority 3 lossless, leaf1:Ethernet0 has none; "
        "the profile wants priority 3 lossless");
  CHECK(r.hint ==
        "Enable PFC for priority 3 on leaf1:Ethernet0 (SONiC: config interface pfc priority Ethernet0 3 on)");
}

TEST_CASE("link.pfc.mismatch: both ends agree on the wrong set, or each end is wrong differently") {
  Lab lab;
  lab.port("host1", "ens1f0np0").lossless->at(4) = true;
  lab.port("leaf1", "Ethernet0").lossless->at(4) = true;
  Result r = lab.run("link.pfc.mismatch")[0];
  CHECK(r.status == Status::fail);
  CHECK(r.message ==
        "PFC differs from the profile: host1:ens1f0np0 and leaf1:Ethernet0 both have priorities 3,4 lossless; "
        "the profile wants priority 3 lossless");
  CHECK(r.hint ==
        "Disable PFC for priority 4 on host1:ens1f0np0 (Linux: dcb pfc set dev ens1f0np0 prio-pfc 4:off); "
        "disable PFC for priority 4 on leaf1:Ethernet0 (SONiC: config interface pfc priority Ethernet0 4 off)");

  // On the switch-switch link the EOS end gets EOS syntax.
  lab.port("spine1", "Ethernet1/1").lossless = std::array<bool, kPriorities>{};
  r = lab.run("link.pfc.mismatch")[2];
  CHECK(r.status == Status::fail);
  CHECK(r.a == kLeafUp);
  CHECK(r.b == kSpine);
  CHECK(r.message ==
        "PFC disagrees: leaf1:Ethernet48 has priority 3 lossless, spine1:Ethernet1/1 has none; "
        "the profile wants priority 3 lossless");
  CHECK(r.hint ==
        "Enable PFC for priority 3 on spine1:Ethernet1/1 (EOS: interface Ethernet1/1, priority-flow-control on, "
        "priority-flow-control priority 3 no-drop)");
}

TEST_CASE("link.mtu.mismatch: the classic case, a host NIC left at MTU 1500") {
  Lab lab;
  lab.port("host1", "ens1f0np0").mtu = 1500;
  const std::vector<Result> rs = lab.run("link.mtu.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{F, P, P});
  const Result& r = rs[0];
  CHECK(r.severity == Severity::error);
  CHECK(r.a == kHost1);
  CHECK(r.b == kLeafH1);
  CHECK(r.expected == "host 9000, switch >= 9000");
  CHECK(r.observed == "host1:ens1f0np0=1500, leaf1:Ethernet0=9100");
  CHECK(r.message ==
        "MTU mismatch: host1:ens1f0np0 is at MTU 1500, the profile wants 9000 (RoCE path MTU 1024 instead of "
        "4096); leaf1:Ethernet0 is at MTU 9100");
  CHECK(r.hint == "Set the MTU of host1:ens1f0np0 to 9000 (Linux: ip link set dev ens1f0np0 mtu 9000)");
}

TEST_CASE("link.mtu.mismatch: the switch port must be at least the host MTU") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").mtu = 9000;  // below its own intent (9100), but carries host frames
  CHECK(lab.run("link.mtu.mismatch")[0].status == Status::pass);

  lab.port("leaf1", "Ethernet0").mtu = 1500;
  const Result r = lab.run("link.mtu.mismatch")[0];
  CHECK(r.status == Status::fail);
  CHECK(r.message ==
        "MTU mismatch: host1:ens1f0np0 is at MTU 9000; leaf1:Ethernet0 is at MTU 1500, below the host MTU 9000");
  CHECK(r.hint == "Set the MTU of leaf1:Ethernet0 to 9100 (SONiC: config interface mtu Ethernet0 9100)");

  // A host above its intent is wrong too, even though the switch carries it.
  lab.port("leaf1", "Ethernet0").mtu = 9100;
  lab.port("host1", "ens1f0np0").mtu = 9100;
  CHECK(lab.run("link.mtu.mismatch")[0].message ==
        "MTU mismatch: host1:ens1f0np0 is at MTU 9100, the profile wants 9000; leaf1:Ethernet0 is at MTU 9100");
}

TEST_CASE("link.mtu.mismatch: switch-switch ends must be equal and equal the intent") {
  Lab lab;
  lab.port("spine1", "Ethernet1/1").mtu = 9214;
  const Result r = lab.run("link.mtu.mismatch")[2];
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "9100 on both ends");
  CHECK(r.observed == "leaf1:Ethernet48=9100, spine1:Ethernet1/1=9214");
  CHECK(r.message ==
        "MTU disagrees: leaf1:Ethernet48 is at MTU 9100, spine1:Ethernet1/1 is at MTU 9214; "
        "the profile wants MTU 9100");
  CHECK(r.hint == "Set the MTU of spine1:Ethernet1/1 to 9100 (EOS: interface Ethernet1/1, mtu 9100)");

  // Profiles that give the two ends different MTUs can never agree: the hint says to fix the intent.
  lab.intent("spine1").ports[0].mtu = 9214;
  const Result p = lab.run("link.mtu.mismatch")[2];
  CHECK(p.status == Status::fail);
  CHECK(p.expected == "leaf1:Ethernet48 9100, spine1:Ethernet1/1 9214");
  CHECK(p.message ==
        "MTU disagrees: leaf1:Ethernet48 is at MTU 9100, spine1:Ethernet1/1 is at MTU 9214; the profiles "
        "disagree: leaf1:Ethernet48 should have MTU 9100, spine1:Ethernet1/1 MTU 9214");
  CHECK(p.hint == "Make the profiles of leaf1 and spine1 agree on MTU, then apply both");
}

TEST_CASE("link.trust.mismatch") {
  Lab lab;
  lab.port("host1", "ens2f0np0").trust = Trust::pcp;
  const std::vector<Result> rs = lab.run("link.trust.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{P, F, P});
  const Result& r = rs[1];
  CHECK(r.a == kHost2);
  CHECK(r.b == kLeafH2);
  CHECK(r.expected == "trust dscp on both ends");
  CHECK(r.observed == "host1:ens2f0np0=pcp, leaf1:Ethernet4=dscp");
  CHECK(r.message ==
        "Trust disagrees: host1:ens2f0np0 trusts pcp, leaf1:Ethernet4 trusts dscp; the profile wants trust dscp");
  CHECK(r.hint == "Set trust dscp on host1:ens2f0np0 (Linux: dcb app replace dev ens2f0np0 dscp-prio 26:3 48:6)");
}

TEST_CASE("link.dscp.mismatch: RoCE and CNP DSCP map to the same priorities on both ends") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").dscp_to_priority->at(26) = 1;  // SONiC's default template does this
  Result r = lab.run("link.dscp.mismatch")[0];
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "26->3 48->6 on both ends");
  CHECK(r.observed == "host1:ens1f0np0=26->3 48->6, leaf1:Ethernet0=26->1 48->6");
  CHECK(r.message ==
        "DSCP map disagrees: host1:ens1f0np0 maps DSCP 26->3 48->6, leaf1:Ethernet0 maps DSCP 26->1 48->6; "
        "the profile wants DSCP 26->3 48->6");
  CHECK(r.hint ==
        "Map DSCP 26 to priority 3 on leaf1:Ethernet0 (SONiC: set \"26\": \"3\" in the DSCP_TO_TC_MAP bound to "
        "Ethernet0)");

  // Other DSCP values do not matter to this check.
  lab = Lab();
  lab.port("leaf1", "Ethernet0").dscp_to_priority->at(10) = 5;
  CHECK(lab.run("link.dscp.mismatch")[0].status == Status::pass);

  lab.port("host1", "ens1f0np0").dscp_to_priority->at(48) = 0;
  r = lab.run("link.dscp.mismatch")[0];
  CHECK(r.status == Status::fail);
  CHECK(r.hint == "Map DSCP 48 to priority 6 on host1:ens1f0np0 (Linux: dcb app replace dev ens1f0np0 dscp-prio 48:6)");
}

TEST_CASE("link.ecn.missing: each switch end marks the RoCE traffic class") {
  Lab lab;
  lab.port("spine1", "Ethernet1/1").ecn = std::vector<EcnQueue>{};
  lab.port("leaf1", "Ethernet0").ecn = std::vector<EcnQueue>{{1, 153600, 1536000, 20}};
  const std::vector<Result> rs = lab.run("link.ecn.missing");
  CHECK(statuses(rs) == std::vector<Status>{F, P, F});
  CHECK(rs[0].expected == "ECN on TC3 at leaf1:Ethernet0");
  CHECK(rs[0].observed == "leaf1:Ethernet0=TC1");
  CHECK(rs[0].message ==
        "ECN missing between host1:ens1f0np0 and leaf1:Ethernet0: leaf1:Ethernet0 does not ECN-mark TC3, the RoCE "
        "queue (marks TC1)");
  CHECK(rs[0].hint ==
        "Enable ECN marking on TC3 of leaf1:Ethernet0 (SONiC: give QUEUE|Ethernet0|3 a WRED_PROFILE with ecn "
        "ecn_all and wred_green_enable true)");
  CHECK(rs[2].a == kLeafUp);
  CHECK(rs[2].b == kSpine);
  CHECK(rs[2].observed == "leaf1:Ethernet48=TC3, spine1:Ethernet1/1=none");
  CHECK(rs[2].message ==
        "ECN missing between leaf1:Ethernet48 and spine1:Ethernet1/1: spine1:Ethernet1/1 does not ECN-mark TC3, "
        "the RoCE queue (marks none)");
  CHECK(rs[2].hint == "Enable ECN marking on TC3 of spine1:Ethernet1/1");
}

TEST_CASE("link.ecn.missing: not required when the profile has ECN off") {
  Lab lab;
  for (DeviceDesired& d : lab.desired.devices) {
    d.qos.ecn_enabled = false;
    d.qos.ecn.clear();
  }
  lab.observe();
  lab.observed.devices.erase("leaf1");  // nothing to read is fine when nothing is required
  for (const Result& r : lab.run("link.ecn.missing")) {
    CHECK(r.status == Status::pass);
    CHECK(r.message == "ECN not required by profile");
  }
}

TEST_CASE("link.dcqcn.missing: the host end has RP and NP on the RoCE priority") {
  Lab lab;
  lab.port("host1", "ens1f0np0").dcqcn->np_enabled[3] = false;
  // A switch end is not asked: even missing switch state does not block the host-end check.
  lab.port("leaf1", "Ethernet4").dcqcn.reset();
  const std::vector<Result> rs = lab.run("link.dcqcn.missing");
  CHECK(statuses(rs) == std::vector<Status>{F, P, P});
  const Result& r = rs[0];
  CHECK(r.a == kHost1);
  CHECK(r.b == kLeafH1);
  CHECK(r.expected == "RP and NP on priority 3 at host1:ens1f0np0");
  CHECK(r.observed == "host1:ens1f0np0=RP 3 NP none");
  CHECK(r.message ==
        "DCQCN off between host1:ens1f0np0 and leaf1:Ethernet0: host1:ens1f0np0 has no DCQCN notification point "
        "on priority 3 (RP 3 NP none)");
  CHECK(r.hint ==
        "Enable the DCQCN notification point for priority 3 on host1:ens1f0np0 (Linux: echo 1 > "
        "/sys/class/net/ens1f0np0/ecn/roce_np/enable/3)");
  CHECK(rs[2].message == "DCQCN not applicable between switches");

  lab.intent("host1").qos.dcqcn.enabled = false;
  const Result off = lab.run("link.dcqcn.missing")[0];
  CHECK(off.status == Status::pass);
  CHECK(off.message == "DCQCN not required by profile");
}

TEST_CASE("link.watchdog.missing: a warning on each switch end without it") {
  Lab lab;
  lab.port("leaf1", "Ethernet4").watchdog->enabled = false;
  const std::vector<Result> rs = lab.run("link.watchdog.missing");
  CHECK(statuses(rs) == std::vector<Status>{P, F, P});
  const Result& r = rs[1];
  CHECK(r.severity == Severity::warning);
  CHECK(r.expected == "watchdog on at leaf1:Ethernet4");
  CHECK(r.observed == "leaf1:Ethernet4=off");
  CHECK(r.message == "PFC watchdog off between host1:ens2f0np0 and leaf1:Ethernet4: leaf1:Ethernet4 has no PFC watchdog");
  CHECK(r.hint ==
        "Enable the PFC watchdog on leaf1:Ethernet4 (SONiC: config pfcwd start --action drop --restoration-time 200 "
        "Ethernet4 200)");

  lab.intent("leaf1").qos.watchdog.enabled = false;
  const Result off = lab.run("link.watchdog.missing")[1];
  CHECK(off.status == Status::pass);
  CHECK(off.message == "PFC watchdog not required by profile");
}

TEST_CASE("link.speed.mismatch: the message flags the slow end") {
  Lab lab;
  lab.port("host1", "ens2f0np0").speed_mbps = 100000;
  const std::vector<Result> rs = lab.run("link.speed.mismatch");
  CHECK(statuses(rs) == std::vector<Status>{P, F, P});
  const Result& r = rs[1];
  CHECK(r.expected == "400G on both ends");
  CHECK(r.observed == "host1:ens2f0np0=100G, leaf1:Ethernet4=400G");
  CHECK(r.message ==
        "Speed mismatch: host1:ens2f0np0 runs at 100G, leaf1:Ethernet4 at 400G, expected 400G: the slow end is "
        "host1:ens2f0np0");
  CHECK(r.hint ==
        "Bring host1:ens2f0np0 to 400G: check its optic, cable and autonegotiation (Linux: ethtool ens2f0np0)");

  // Both ends equal but below the expected speed.
  lab.port("leaf1", "Ethernet4").speed_mbps = 100000;
  CHECK(lab.run("link.speed.mismatch")[1].message ==
        "Speed mismatch: host1:ens2f0np0 and leaf1:Ethernet4 both run at 100G, expected 400G");

  // An end faster than expected is the one off intent; the slow end is fine.
  lab.port("leaf1", "Ethernet4").speed_mbps = 400000;
  lab.port("host1", "ens2f0np0").speed_mbps = 800000;
  const Result fast = lab.run("link.speed.mismatch")[1];
  CHECK(fast.message ==
        "Speed mismatch: host1:ens2f0np0 runs at 800G, leaf1:Ethernet4 at 400G, expected 400G: host1:ens2f0np0 "
        "runs faster than expected");
  CHECK(fast.hint ==
        "Bring host1:ens2f0np0 to 400G: check its optic, cable and autonegotiation (Linux: ethtool ens2f0np0)");

  // Without an expected speed, the ends must still agree.
  Lab loose;
  for (DeviceDesired& d : loose.desired.devices)
    for (PortDesired& p : d.ports) p.speed_mbps.reset();
  loose.port("leaf1", "Ethernet48").speed_mbps = 400000;
  loose.port("spine1", "Ethernet1/1").speed_mbps = 200000;
  const Result l = loose.run("link.speed.mismatch")[2];
  CHECK(l.status == Status::fail);
  CHECK(l.expected == "equal on both ends");
  CHECK(l.message ==
        "Speed mismatch: leaf1:Ethernet48 runs at 400G, spine1:Ethernet1/1 at 200G: the slow end is "
        "spine1:Ethernet1/1");
  CHECK(l.hint == "Bring spine1:Ethernet1/1 to 400G: check its optic, cable and autonegotiation");
}

TEST_CASE("link.oper.down") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").oper_up = false;
  const std::vector<Result> rs = lab.run("link.oper.down");
  CHECK(statuses(rs) == std::vector<Status>{F, P, P});
  CHECK(rs[0].observed == "host1:ens1f0np0=up, leaf1:Ethernet0=down");
  CHECK(rs[0].message == "Link down between host1:ens1f0np0 and leaf1:Ethernet0: leaf1:Ethernet0 is down");
  CHECK(rs[0].hint ==
        "Bring up leaf1:Ethernet0: check the cable, the optics and that it is admin up (SONiC: config interface "
        "startup Ethernet0)");

  lab.port("host1", "ens1f0np0").oper_up = false;
  const Result both = lab.run("link.oper.down")[0];
  CHECK(both.message ==
        "Link down between host1:ens1f0np0 and leaf1:Ethernet0: host1:ens1f0np0 is down; leaf1:Ethernet0 is down");
  CHECK(both.hint ==
        "Bring up host1:ens1f0np0: check the cable, the optics and that it is admin up (Linux: ip link set dev "
        "ens1f0np0 up); bring up leaf1:Ethernet0: check the cable, the optics and that it is admin up (SONiC: "
        "config interface startup Ethernet0)");
}

TEST_CASE("link checks: missing data names the end that lacks it") {
  SUBCASE("a device with no observed state") {
    Lab lab;
    lab.observed.devices.erase("leaf1");
    for (const char* id : {"link.mtu.mismatch", "link.pfc.mismatch", "link.oper.down", "link.ecn.missing"}) {
      CAPTURE(id);
      const std::vector<Result> rs = lab.run(id);
      CHECK(statuses(rs) == std::vector<Status>{M, M, M});
      CHECK(rs[0].hint.empty());
    }
    const Result r = lab.run("link.mtu.mismatch")[0];
    CHECK(r.severity == Severity::error);
    CHECK(r.a == kHost1);
    CHECK(r.b == kLeafH1);
    CHECK(r.expected == "host 9000, switch >= 9000");
    CHECK(r.observed == "host1:ens1f0np0=9000, leaf1:Ethernet0=unknown");
    CHECK(r.message == "MTU not compared between host1:ens1f0np0 and leaf1:Ethernet0: leaf1 has no observed state");
    // DCQCN needs only the host end, which is there.
    CHECK(statuses(lab.run("link.dcqcn.missing")) == std::vector<Status>{P, P, P});
  }
  SUBCASE("an unreadable device, with why") {
    Lab lab;
    lab.observed.devices.erase("spine1");
    lab.observed.unreadable["spine1"] = "ssh: connection timed out\nafter 10 s";
    const Result r = lab.run("link.speed.mismatch")[2];
    CHECK(r.status == Status::missing);
    CHECK(r.message ==
          "Speed not compared between leaf1:Ethernet48 and spine1:Ethernet1/1: spine1 could not be read (ssh: "
          "connection timed out)");
  }
  SUBCASE("a port the device did not report") {
    Lab lab;
    auto& ports = lab.observed.devices.at("leaf1").ports;
    ports.erase(ports.begin() + 1);  // Ethernet4
    const std::vector<Result> rs = lab.run("link.trust.mismatch");
    CHECK(statuses(rs) == std::vector<Status>{P, M, P});
    CHECK(rs[1].message ==
          "Trust not compared between host1:ens2f0np0 and leaf1:Ethernet4: leaf1 reported no port Ethernet4");
  }
  SUBCASE("a field an end did not report") {
    Lab lab;
    lab.port("host1", "ens1f0np0").lossless.reset();
    lab.port("leaf1", "Ethernet0").lossless.reset();
    lab.port("leaf1", "Ethernet48").watchdog.reset();
    Result r = lab.run("link.pfc.mismatch")[0];
    CHECK(r.status == Status::missing);
    CHECK(r.observed == "host1:ens1f0np0=unknown, leaf1:Ethernet0=unknown");
    CHECK(r.message ==
          "PFC not compared between host1:ens1f0np0 and leaf1:Ethernet0: host1:ens1f0np0 did not report its PFC "
          "priorities; leaf1:Ethernet0 did not report its PFC priorities");
    r = lab.run("link.watchdog.missing")[2];
    CHECK(r.status == Status::missing);
    CHECK(r.observed == "leaf1:Ethernet48=unknown, spine1:Ethernet1/1=on");
    CHECK(r.message ==
          "PFC watchdog not compared between leaf1:Ethernet48 and spine1:Ethernet1/1: leaf1:Ethernet48 did not "
          "report its PFC watchdog");
    lab.port("host1", "ens2f0np0").dcqcn.reset();
    CHECK(lab.run("link.dcqcn.missing")[1].message ==
          "DCQCN not compared between host1:ens2f0np0 and leaf1:Ethernet4: host1:ens2f0np0 did not report its "
          "DCQCN state");
  }
}
