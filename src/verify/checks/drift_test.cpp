#include <doctest/doctest.h>

#include "verify/checks/check_test_support.h"
#include "verify/checks/checks.h"

using namespace fabricctl;
using fabricctl::test::TinyFabric;

namespace {

const std::vector<Check>& family() {
  static const std::vector<Check> checks = drift_checks();
  return checks;
}

Result one(const TinyFabric& f, std::string_view id, std::string_view dev, std::string_view port,
           Tolerance t = {}) {
  return f.result(family(), id, dev, port, t);
}

}  // namespace

TEST_CASE("drift checks: the catalog rows") {
  std::vector<std::string> ids;
  for (const Check& c : family()) {
    ids.emplace_back(c.id);
    CHECK(c.severity == Severity::error);
    CHECK_FALSE(c.summary.empty());
  }
  CHECK(ids == std::vector<std::string>{"port.mtu.drift", "port.speed.drift", "port.oper.down", "port.trust.drift",
                                        "port.dscp.drift", "port.pfc.drift", "port.ets.drift", "port.ecn.drift",
                                        "port.watchdog.drift", "port.dcqcn.drift"});
}

TEST_CASE("drift checks pass on a perfect fabric, in desired order, on the ports in their scope") {
  test::check_perfect_state(family());
  TinyFabric f;
  const std::vector<std::string> all = {"pass host1:ens1f0np0", "pass host1:ens2f0np0", "pass leaf1:Ethernet0",
                                        "pass leaf1:Ethernet4"};
  CHECK(test::outline(f.run(family(), "port.mtu.drift")) == all);
  CHECK(test::outline(f.run(family(), "port.ets.drift")) == all);
  CHECK(test::outline(f.run(family(), "port.oper.down")) ==
        std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0", "pass leaf1:Ethernet0"});
  CHECK(test::outline(f.run(family(), "port.ecn.drift")) ==
        std::vector<std::string>{"pass leaf1:Ethernet0", "pass leaf1:Ethernet4"});
  CHECK(test::outline(f.run(family(), "port.watchdog.drift")) ==
        std::vector<std::string>{"pass leaf1:Ethernet0", "pass leaf1:Ethernet4"});
  CHECK(test::outline(f.run(family(), "port.dcqcn.drift")) ==
        std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0"});
}

TEST_CASE("drift checks report missing data when the device or port is absent") {
  test::check_absent_state(family());
}

TEST_CASE("port.mtu.drift") {
  TinyFabric f;
  const Result ok = one(f, "port.mtu.drift", "leaf1", "Ethernet0");
  CHECK(ok.status == Status::pass);
  CHECK(ok.message == "leaf1:Ethernet0: MTU 9100 as intended");

  f.port("leaf1", "Ethernet0").mtu = 1500;
  const Result r = one(f, "port.mtu.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"leaf1", "Ethernet0"});
  CHECK_FALSE(r.b);
  CHECK(r.expected == "9100");
  CHECK(r.observed == "1500");
  CHECK(r.message == "leaf1:Ethernet0: MTU 1500, expected 9100");
  CHECK(r.hint == 
        "Set the port MTU to 9100 (SONiC: config interface mtu Ethernet0 9100)");
  CHECK(test::count(f.run(family(), "port.mtu.drift"), Status::fail) == 1);

  f.port("host1", "ens2f0np0").mtu = 1500;
  const Result h = one(f, "port.mtu.drift", "host1", "ens2f0np0");
  CHECK(h.status == Status::fail);
  CHECK(h.message == "host1:ens2f0np0: MTU 1500, expected 9000");
  CHECK(h.hint == 
        "Set the NIC MTU to 9000 (Linux: ip link set dev ens2f0np0 mtu 9000)");

  f.port("leaf1", "Ethernet0").mtu.reset();
  const Result m = one(f, "port.mtu.drift", "leaf1", "Ethernet0");
  CHECK(m.status == Status::missing);
  CHECK(m.expected == "9100");
  CHECK(m.observed == "not collected");
  CHECK(m.message == "leaf1:Ethernet0: MTU not collected");
  CHECK(m.hint.empty());
}

TEST_CASE("port.speed.drift says slower or faster, and skips ports without an expected speed") {
  TinyFabric f;
  f.port("leaf1", "Ethernet0").speed_mbps = 200000;
  Result r = one(f, "port.speed.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "400G");
  CHECK(r.observed == "200G");
  CHECK(r.message == "leaf1:Ethernet0: speed 200G is slower than the expected 400G");
  CHECK(r.hint == 
        "Check the optic and cable on both ends, then set the port to 400G (SONiC: config interface speed Ethernet0 400000)");

  f.port("leaf1", "Ethernet0").speed_mbps = 800000;
  CHECK(one(f, "port.speed.drift", "leaf1", "Ethernet0").message ==
        "leaf1:Ethernet0: speed 800G is faster than the expected 400G");

  f.port("host1", "ens1f0np0").speed_mbps.reset();
  r = one(f, "port.speed.drift", "host1", "ens1f0np0");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "host1:ens1f0np0: speed not collected");

  f.device("leaf1").ports[1].speed_mbps.reset();
  CHECK(test::outline(f.run(family(), "port.speed.drift")) ==
        std::vector<std::string>{"missing host1:ens1f0np0", "pass host1:ens2f0np0", "fail leaf1:Ethernet0"});
}

TEST_CASE("port.oper.down applies to cabled ports only") {
  TinyFabric f;
  CHECK_FALSE(*f.port("leaf1", "Ethernet4").oper_up);  // uncabled, down, not judged
  f.port("leaf1", "Ethernet0").oper_up = false;
  const Result r = one(f, "port.oper.down", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "up");
  CHECK(r.observed == "down");
  CHECK(r.message == "leaf1:Ethernet0: link down, cabled to host1:ens1f0np0");
  CHECK(r.hint == 
        "Bring the link up: check admin state, optic and cable to host1:ens1f0np0 (SONiC: config interface startup Ethernet0)");

  f.port("host1", "ens1f0np0").oper_up = false;
  CHECK(one(f, "port.oper.down", "host1", "ens1f0np0").hint ==
        "Bring the link up: check admin state, optic and cable to leaf1:Ethernet0 (Linux: ip link set dev ens1f0np0 up)");

  f.port("leaf1", "Ethernet0").oper_up.reset();
  CHECK(one(f, "port.oper.down", "leaf1", "Ethernet0").status == Status::missing);
}

TEST_CASE("port.trust.drift") {
  TinyFabric f;
  f.port("leaf1", "Ethernet0").trust = Trust::pcp;
  const Result r = one(f, "port.trust.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "dscp");
  CHECK(r.observed == "pcp");
  CHECK(r.message == "leaf1:Ethernet0: trust mode pcp, expected dscp");
  CHECK(r.hint == 
        "Trust DSCP on the port (SONiC: PORT_QOS_MAP dscp_to_tc_map)");

  f.port("host1", "ens1f0np0").trust = Trust::pcp;
  CHECK(one(f, "port.trust.drift", "host1", "ens1f0np0").hint ==
        "Trust DSCP on the port (Linux: mlnx_qos -i ens1f0np0 --trust dscp)");

  f.port("leaf1", "Ethernet0").trust.reset();
  CHECK(one(f, "port.trust.drift", "leaf1", "Ethernet0").message == "leaf1:Ethernet0: trust mode not collected");
}

TEST_CASE("port.dscp.drift lists the differing DSCPs compactly") {
  TinyFabric f;
  CHECK(one(f, "port.dscp.drift", "leaf1", "Ethernet0").expected == "26->3, 48->6, others->0");

  (*f.port("host1", "ens1f0np0").dscp_to_priority)[26] = 0;
  Result r = one(f, "port.dscp.drift", "host1", "ens1f0np0");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "26->3, 48->6, others->0");
  CHECK(r.observed == "26->0 (want 3)");
  CHECK(r.message == "host1:ens1f0np0: DSCP map differs: 26->0 (want 3)");
  CHECK(r.hint == 
        "Map DSCP->priority 26->3 (Linux: dcb app replace dev ens1f0np0 dscp-prio 26:3)");

  auto& leaf_map = *f.port("leaf1", "Ethernet0").dscp_to_priority;
  leaf_map[26] = 1;
  leaf_map[48] = 0;
  r = one(f, "port.dscp.drift", "leaf1", "Ethernet0");
  CHECK(r.observed == "26->1 (want 3), 48->0 (want 6)");
  CHECK(r.hint == 
        "Map DSCP->priority 26->3, 48->6 (SONiC: DSCP_TO_TC_MAP \"26\": \"3\")");

  leaf_map.fill(5);  // a whole default map left in place: the finding stays one line
  r = one(f, "port.dscp.drift", "leaf1", "Ethernet0");
  CHECK(r.observed == "0->5 (want 0), 1->5 (want 0), 2->5 (want 0), 3->5 (want 0), 4->5 (want 0), 5->5 (want 0), "
                      "6->5 (want 0), 7->5 (want 0), +56 more");

  f.port("leaf1", "Ethernet0").dscp_to_priority.reset();
  CHECK(one(f, "port.dscp.drift", "leaf1", "Ethernet0").status == Status::missing);
}

TEST_CASE("port.dscp.drift groups ranges and does not apply under PCP trust") {
  TinyFabric f;
  auto& q = f.device("leaf1").qos;
  for (int d = 24; d <= 31; ++d) q.dscp_to_priority[static_cast<size_t>(d)] = 3;
  f.refresh_observed();
  CHECK(one(f, "port.dscp.drift", "leaf1", "Ethernet0").expected == "24-31->3, 48->6, others->0");

  q.trust = Trust::pcp;
  CHECK(test::outline(f.run(family(), "port.dscp.drift")) ==
        std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0"});
}

TEST_CASE("port.pfc.drift") {
  TinyFabric f;
  f.port("leaf1", "Ethernet0").lossless = std::array<bool, kPriorities>{};
  Result r = one(f, "port.pfc.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "3");
  CHECK(r.observed == "none");
  CHECK(r.message == "leaf1:Ethernet0: PFC priorities none, expected 3");
  CHECK(r.hint == 
        "Set PFC on priority 3 and off on all others (SONiC: PORT_QOS_MAP pfc_enable 3)");

  (*f.port("host1", "ens1f0np0").lossless)[4] = true;
  r = one(f, "port.pfc.drift", "host1", "ens1f0np0");
  CHECK(r.observed == "3,4");
  CHECK(r.hint == 
        "Set PFC on priority 3 and off on all others (Linux: dcb pfc set dev ens1f0np0 prio-pfc all:off 3:on)");

  f.port("leaf1", "Ethernet0").lossless.reset();
  CHECK(one(f, "port.pfc.drift", "leaf1", "Ethernet0").message == "leaf1:Ethernet0: PFC priorities not collected");
}

TEST_CASE("port.ets.drift compares the priority->TC map and the used TCs' scheduling") {
  TinyFabric f;
  const std::string want = "prio->tc 3->3, 6->6, others->0; tc0 ets 50%, tc3 ets 50%, tc6 strict";
  (*f.port("host1", "ens1f0np0").priority_to_tc)[3] = 0;
  Result r = one(f, "port.ets.drift", "host1", "ens1f0np0");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == want);
  CHECK(r.observed == "prio->tc 6->6, others->0; tc0 ets 50%, tc3 ets 50%, tc6 strict");
  CHECK(r.message == "host1:ens1f0np0: ETS differs: prio 3->tc 0 (want 3)");
  CHECK(r.hint == 
        "Set priority->TC and TC scheduling to prio->tc 3->3, 6->6, others->0; tc0 ets 50%, tc3 ets 50%, tc6 strict (Linux: dcb ets set dev ens1f0np0 prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 tc-tsa 0:ets 1:strict 2:strict 3:ets 4:strict 5:strict 6:strict 7:strict tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0)");

  auto& tcs = *f.port("leaf1", "Ethernet0").tc;
  tcs[6] = {true, false, 10};
  tcs[3].bandwidth_pct = 40;
  tcs[5] = {false, false, 30};  // not used by the intent: not compared
  r = one(f, "port.ets.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.observed == "prio->tc 3->3, 6->6, others->0; tc0 ets 50%, tc3 ets 40%, tc6 ets 10%");
  CHECK(r.message == "leaf1:Ethernet0: ETS differs: tc3 ets 40% (want ets 50%), tc6 ets 10% (want strict)");

  f.port("leaf1", "Ethernet4").tc.reset();
  CHECK(one(f, "port.ets.drift", "leaf1", "Ethernet4").message == "leaf1:Ethernet4: TC scheduling not collected");
  f.port("leaf1", "Ethernet4").priority_to_tc.reset();
  CHECK(one(f, "port.ets.drift", "leaf1", "Ethernet4").message == "leaf1:Ethernet4: priority->TC map not collected");
}

TEST_CASE("port.ecn.drift: thresholds within the documented tolerance, probability exact") {
  TinyFabric f;
  const std::string want = "tc3 min 153600 B max 1536000 B prob 20%";
  auto& queue = f.port("leaf1", "Ethernet0").ecn->front();

  queue.min_bytes = 163584;  // +6.5 %: Spectrum rounds to buffer cells
  queue.max_bytes = 1635840;
  Result r = one(f, "port.ecn.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::pass);
  CHECK(r.observed == "tc3 min 163584 B max 1635840 B prob 20%");
  CHECK(r.message == "leaf1:Ethernet0: ECN marking as intended (thresholds ±10%)");

  queue.min_bytes = 168960;  // exactly +10 %
  CHECK(one(f, "port.ecn.drift", "leaf1", "Ethernet0").status == Status::pass);

  queue.min_bytes = 184320;  // +20 %
  r = one(f, "port.ecn.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == want);
  CHECK(r.observed == "tc3 min 184320 B max 1635840 B prob 20%");
  CHECK(r.message == "leaf1:Ethernet0: ECN differs: tc3 min 184320 B (want 153600 B ±10%)");
  CHECK(r.hint == 
        "Mark ECN as intended: tc3 min 153600 B max 1536000 B prob 20% (SONiC: WRED_PROFILE ecn ecn_all, wred_green_enable true, green_min_threshold 153600, green_max_threshold 1536000, green_drop_probability 20 on QUEUE Ethernet0|3)");

  // The tolerance is the run's, not a constant.
  CHECK(one(f, "port.ecn.drift", "leaf1", "Ethernet0", Tolerance{25.0}).status == Status::pass);

  queue.min_bytes = 122880;  // -20 %
  queue.max_bytes = 1228800;
  queue.probability_pct = 5;
  CHECK(one(f, "port.ecn.drift", "leaf1", "Ethernet0").message ==
        "leaf1:Ethernet0: ECN differs: tc3 min 122880 B (want 153600 B ±10%), tc3 max 1228800 B (want 1536000 B ±10%), "
        "tc3 probability 5% (want 20%)");
}

TEST_CASE("port.ecn.drift: a desired queue without marking, missing data, switch ports only") {
  TinyFabric f;
  f.port("leaf1", "Ethernet0").ecn = std::vector<EcnQueue>{{0, 153600, 1536000, 20}};
  const Result r = one(f, "port.ecn.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.observed == "tc3 off");
  CHECK(r.message == "leaf1:Ethernet0: ECN differs: tc3 not ECN-marked");

  f.port("leaf1", "Ethernet0").ecn.reset();
  CHECK(one(f, "port.ecn.drift", "leaf1", "Ethernet0").message == "leaf1:Ethernet0: ECN not collected");
  for (const Result& x : f.run(family(), "port.ecn.drift")) CHECK(x.a.device == "leaf1");
}

TEST_CASE("port.ecn.drift: ECN on a lossless queue when the intent has it off is a warning") {
  TinyFabric f;  // observed: ECN on tc3, as the fixture intent had it
  auto& q = f.device("leaf1").qos;
  q.ecn_enabled = false;
  q.ecn.clear();
  Result r = one(f, "port.ecn.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::warning);
  CHECK(r.expected == "no ECN on lossless tc3");
  CHECK(r.observed == "ECN on tc3");
  CHECK(r.message == "leaf1:Ethernet0: ECN marks lossless tc3 though the intent has ECN off");
  CHECK(r.hint == 
        "Turn ECN marking off on lossless tc3, or enable ECN in the profile (SONiC: remove wred_profile from QUEUE Ethernet0|3)");

  f.port("leaf1", "Ethernet0").ecn = std::vector<EcnQueue>{{0, 1000, 2000, 10}};  // a lossy queue may mark
  r = one(f, "port.ecn.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::pass);
  CHECK(r.severity == Severity::error);
  CHECK(r.observed == "no ECN on lossless tc3");
}

TEST_CASE("port.watchdog.drift") {
  TinyFabric f;
  CHECK(one(f, "port.watchdog.drift", "leaf1", "Ethernet0").expected ==
        "on, poll 100 ms, detection 200 ms, restoration 200 ms, action drop");

  f.port("leaf1", "Ethernet0").watchdog->detection_ms = 400;
  f.port("leaf1", "Ethernet0").watchdog->action = WatchdogAction::forward;
  Result r = one(f, "port.watchdog.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.observed == "on, poll 100 ms, detection 400 ms, restoration 200 ms, action forward");
  CHECK(r.message == "leaf1:Ethernet0: PFC watchdog differs: detection 400 ms (want 200 ms), action forward (want drop)");
  CHECK(r.hint == 
        "Enable the PFC watchdog with poll 100 ms, detection 200 ms, restoration 200 ms, action drop (SONiC: config pfcwd interval 100; config pfcwd start --action drop --restoration-time 200 Ethernet0 200)");

  f.port("leaf1", "Ethernet4").watchdog->enabled = false;
  r = one(f, "port.watchdog.drift", "leaf1", "Ethernet4");
  CHECK(r.observed == "off");
  CHECK(r.message == "leaf1:Ethernet4: PFC watchdog differs: off (want on)");

  // Watchdog off in intent: its timers are not compared, but an enabled watchdog is drift.
  TinyFabric g;
  g.device("leaf1").qos.watchdog.enabled = false;
  g.port("leaf1", "Ethernet0").watchdog = Watchdog{false, 500, 900, 900, WatchdogAction::alert};
  CHECK(one(g, "port.watchdog.drift", "leaf1", "Ethernet0").status == Status::pass);
  r = one(g, "port.watchdog.drift", "leaf1", "Ethernet4");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "off");
  CHECK(r.hint == 
        "Disable the PFC watchdog (SONiC: config pfcwd stop Ethernet4)");

  g.port("leaf1", "Ethernet4").watchdog.reset();
  CHECK(one(g, "port.watchdog.drift", "leaf1", "Ethernet4").message == "leaf1:Ethernet4: PFC watchdog not collected");
}

TEST_CASE("port.dcqcn.drift") {
  TinyFabric f;
  auto& dc = *f.port("host1", "ens1f0np0").dcqcn;
  dc.rp_enabled[3] = false;
  Result r = one(f, "port.dcqcn.drift", "host1", "ens1f0np0");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "RP on 3, NP on 3, CNP DSCP 48 priority 6");
  CHECK(r.observed == "RP on none, NP on 3, CNP DSCP 48 priority 6");
  CHECK(r.message == "host1:ens1f0np0: DCQCN differs: reaction point on none (want 3)");
  CHECK(r.hint == 
        "Enable DCQCN reaction and notification points on priority 3 only, CNPs with DSCP 48 priority 6 (Linux: echo 1 > /sys/class/net/ens1f0np0/ecn/roce_rp/enable/3 and /sys/class/net/ens1f0np0/ecn/roce_np/enable/3; echo 48 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp; echo 6 > /sys/class/net/ens1f0np0/ecn/roce_np/cnp_802p_prio)");

  dc.rp_enabled[3] = true;
  dc.np_enabled[5] = true;
  dc.cnp_dscp = 46;
  r = one(f, "port.dcqcn.drift", "host1", "ens1f0np0");
  CHECK(r.message == "host1:ens1f0np0: DCQCN differs: notification point on 3,5 (want 3), CNP DSCP 46 (want 48)");

  dc.cnp_priority.reset();
  CHECK(one(f, "port.dcqcn.drift", "host1", "ens1f0np0").message == "host1:ens1f0np0: CNP priority not collected");
  f.port("host1", "ens1f0np0").dcqcn.reset();
  CHECK(one(f, "port.dcqcn.drift", "host1", "ens1f0np0").message == "host1:ens1f0np0: DCQCN not collected");
}

TEST_CASE("port.dcqcn.drift: DCQCN off in intent means off on every priority, CNP not compared") {
  TinyFabric f;
  f.device("host1").qos.dcqcn.enabled = false;
  Result r = one(f, "port.dcqcn.drift", "host1", "ens1f0np0");  // observed still has DCQCN on 3
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "RP on none, NP on none");
  CHECK(r.observed == "RP on 3, NP on 3");
  CHECK(r.hint == 
        "Turn DCQCN off on every priority (Linux: echo 0 > /sys/class/net/ens1f0np0/ecn/roce_rp/enable/<p> and /sys/class/net/ens1f0np0/ecn/roce_np/enable/<p> for p 0-7)");

  f.refresh_observed();
  f.port("host1", "ens1f0np0").dcqcn->cnp_dscp.reset();
  CHECK(one(f, "port.dcqcn.drift", "host1", "ens1f0np0").status == Status::pass);
}
