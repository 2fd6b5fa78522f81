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

const std::vector<Check>& drift_family() {
  static const std::vector<Check> checks = drift_checks();
  return checks;
}

Result drift_result(const Lab& f, std::string_view id, std::string_view dev, std::string_view port, Tolerance t = {}) {
  return f.result(drift_family(), id, dev, port, t);
}

const std::vector<std::string> kEveryPort = {
    "pass host1:ens1f0np0",  "pass host1:ens2f0np0",   "pass leaf1:Ethernet0",   "pass leaf1:Ethernet4",
    "pass leaf1:Ethernet48", "pass leaf2:Ethernet1/1", "pass leaf2:Ethernet2/1", "pass spine1:swp1"};
const std::vector<std::string> kSwitchPorts = {"pass leaf1:Ethernet0",   "pass leaf1:Ethernet4",
                                               "pass leaf1:Ethernet48",  "pass leaf2:Ethernet1/1",
                                               "pass leaf2:Ethernet2/1", "pass spine1:swp1"};
const std::vector<std::string> kHostPorts = {"pass host1:ens1f0np0", "pass host1:ens2f0np0"};

/// A failure of a port check: one error, about the port alone, with a fix and no cause.
void check_failure(const Result& r, std::string_view id) {
  CAPTURE(r.object());
  CHECK(r.check == id);
  CHECK(r.status == Status::fail);
  CHECK_FALSE(r.b);
  CHECK(r.cause.empty());
  CHECK_FALSE(r.hint.empty());
}

}  // namespace

TEST_CASE("drift checks: the catalog rows") {
  std::vector<std::string> ids;
  for (const Check& c : drift_family()) {
    ids.emplace_back(c.id);
    CHECK(c.severity == Severity::error);
    CHECK_FALSE(c.summary.empty());
    CHECK_FALSE(c.optional_data);
  }
  CHECK(ids == std::vector<std::string>{"port.mtu.drift", "port.speed.drift", "port.trust.drift", "port.dscp.drift",
                                        "port.pfc.drift", "port.ets.drift", "port.ecn.drift", "port.watchdog.drift",
                                        "port.dcqcn.drift", "port.dcqcn.params.drift", "port.cnp.drift"});
}

TEST_CASE("drift checks pass on a perfect fabric, in desired order, on the ports in their scope") {
  test::check_perfect_state(drift_family());
  const Lab f;
  for (const char* id : {"port.mtu.drift", "port.trust.drift", "port.dscp.drift", "port.pfc.drift", "port.ets.drift"}) {
    CAPTURE(id);
    CHECK(test::outline(f.run(drift_family(), id)) == kEveryPort);
  }
  // Speed: uncabled ports only; a cabled port's speed is judged on its link (link.speed.mismatch).
  CHECK(test::outline(f.run(drift_family(), "port.speed.drift")) ==
        std::vector<std::string>{"pass leaf1:Ethernet4", "pass leaf2:Ethernet2/1"});
  CHECK(test::outline(f.run(drift_family(), "port.ecn.drift")) == kSwitchPorts);
  CHECK(test::outline(f.run(drift_family(), "port.watchdog.drift")) == kSwitchPorts);
  CHECK(test::outline(f.run(drift_family(), "port.dcqcn.drift")) == kHostPorts);
  CHECK(test::outline(f.run(drift_family(), "port.dcqcn.params.drift")) == kHostPorts);
  CHECK(test::outline(f.run(drift_family(), "port.cnp.drift")) == kHostPorts);
}

TEST_CASE("drift checks report missing data when the device or port is absent") {
  test::check_absent_state(drift_family());
}

namespace {

/// One wrong setting on a fresh lab, and what its check must say: the finding's message and the fix in
/// the platform's own words. A row per platform for each check; what a row cannot say (links, missing
/// data, several faults at once) is in the cases below.
struct Fault {
  const char* check;
  const char* device;
  const char* port;
  void (*mutate)(PortObserved&);
  const char* message;
  const char* fix;
};

const std::vector<Fault>& faults() {
  static const std::vector<Fault> rows = {
      {"port.mtu.drift", "leaf1", "Ethernet0", [](PortObserved& p) { p.mtu = 1500; },
       "leaf1:Ethernet0: MTU 1500, expected 9100", "sudo config interface mtu 'Ethernet0' 9100"},
      {"port.mtu.drift", "leaf2", "Ethernet1/1", [](PortObserved& p) { p.mtu = 9214; },
       "leaf2:Ethernet1/1: MTU 9214, expected 9100", "configure\ninterface Ethernet1/1\n   mtu 9100\nend"},
      {"port.mtu.drift", "spine1", "swp1", [](PortObserved& p) { p.mtu = 1500; },
       "spine1:swp1: MTU 1500, expected 9100", "nv set interface swp1 link mtu 9100\nnv config apply -y"},
      {"port.mtu.drift", "host1", "ens2f0np0", [](PortObserved& p) { p.mtu = 1500; },
       "host1:ens2f0np0: MTU 1500, expected 9000", "ip link set dev 'ens2f0np0' mtu 9000"},
      {"port.speed.drift", "leaf1", "Ethernet4", [](PortObserved& p) { p.speed_mbps = 200000; },
       "leaf1:Ethernet4: speed 200G is slower than the expected 400G",
       "show interfaces status 'Ethernet4'\nshow interfaces transceiver presence 'Ethernet4'"},
      {"port.speed.drift", "leaf2", "Ethernet2/1", [](PortObserved& p) { p.speed_mbps = 800000; },
       "leaf2:Ethernet2/1: speed 800G is faster than the expected 400G",
       "show interfaces Ethernet2/1 status\nshow interfaces Ethernet2/1 transceiver"},
      {"port.trust.drift", "leaf1", "Ethernet0", [](PortObserved& p) { p.trust = Trust::pcp; },
       "leaf1:Ethernet0: trust mode pcp, expected dscp",
       "sonic-db-cli CONFIG_DB hset 'PORT_QOS_MAP|Ethernet0' dscp_to_tc_map 'ROCE'\n"
       "sonic-db-cli CONFIG_DB hdel 'PORT_QOS_MAP|Ethernet0' dot1p_to_tc_map"},
      {"port.trust.drift", "leaf2", "Ethernet1/1", [](PortObserved& p) { p.trust = Trust::pcp; },
       "leaf2:Ethernet1/1: trust mode pcp, expected dscp", "configure\ninterface Ethernet1/1\n   qos trust dscp\nend"},
      {"port.trust.drift", "spine1", "swp1", [](PortObserved& p) { p.trust = Trust::pcp; },
       "spine1:swp1: trust mode pcp, expected dscp", "nv set qos mapping default-global trust l3\nnv config apply -y"},
      {"port.dscp.drift", "host1", "ens1f0np0", [](PortObserved& p) { (*p.dscp_to_priority)[26] = 0; },
       "host1:ens1f0np0: DSCP map differs: 26->0 (want 3)", "dcb app replace dev 'ens1f0np0' dscp-prio 26:3"},
      {"port.dscp.drift", "leaf1", "Ethernet0",
       [](PortObserved& p) {
         (*p.dscp_to_priority)[26] = 1;
         (*p.dscp_to_priority)[48] = 0;
       },
       "leaf1:Ethernet0: DSCP map differs: 26->1 (want 3), 48->0 (want 6)",
       "sonic-db-cli CONFIG_DB hset 'DSCP_TO_TC_MAP|ROCE' 26 '3' 48 '6'"},
      {"port.dscp.drift", "leaf2", "Ethernet1/1",
       [](PortObserved& p) {
         (*p.dscp_to_priority)[26] = 1;
         (*p.dscp_to_priority)[48] = 0;
       },
       "leaf2:Ethernet1/1: DSCP map differs: 26->1 (want 3), 48->0 (want 6)",
       "configure\nqos map dscp 26 to traffic-class 3\nqos map dscp 48 to traffic-class 6\nend"},
      {"port.dscp.drift", "spine1", "swp1", [](PortObserved& p) { (*p.dscp_to_priority)[10] = 3; },
       "spine1:swp1: DSCP map differs: 10->3 (want 0)",
       "nv set qos mapping default-global dscp 10 switch-priority 0\nnv config apply -y"},
      {"port.pfc.drift", "leaf1", "Ethernet0", [](PortObserved& p) { p.lossless = std::array<bool, kPriorities>{}; },
       "leaf1:Ethernet0: PFC priorities none, expected 3", "sudo config interface pfc priority 'Ethernet0' 3 on"},
      {"port.pfc.drift", "leaf1", "Ethernet48",
       [](PortObserved& p) { p.lossless = std::array<bool, kPriorities>{true}; },
       "leaf1:Ethernet48: PFC priorities 0, expected 3",
       "sudo config interface pfc priority 'Ethernet48' 0 off\nsudo config interface pfc priority 'Ethernet48' 3 on"},
      {"port.pfc.drift", "leaf2", "Ethernet1/1", [](PortObserved& p) { p.lossless = std::array<bool, kPriorities>{}; },
       "leaf2:Ethernet1/1: PFC priorities none, expected 3",
       "configure\ninterface Ethernet1/1\n   priority-flow-control on\n   priority-flow-control priority 3 no-drop\nend"},
      {"port.pfc.drift", "spine1", "swp1", [](PortObserved& p) { p.lossless = std::array<bool, kPriorities>{}; },
       "spine1:swp1: PFC priorities none, expected 3",
       "nv set qos pfc default-global switch-priority 3\nnv config apply -y"},
      {"port.pfc.drift", "host1", "ens1f0np0", [](PortObserved& p) { (*p.lossless)[4] = true; },
       "host1:ens1f0np0: PFC priorities 3,4, expected 3", "dcb pfc set dev 'ens1f0np0' prio-pfc 4:off"},
      {"port.pfc.drift", "host1", "ens2f0np0",
       [](PortObserved& p) {
         (*p.lossless)[3] = false;
         (*p.lossless)[5] = true;
       },
       "host1:ens2f0np0: PFC priorities 5, expected 3", "dcb pfc set dev 'ens2f0np0' prio-pfc 3:on 5:off"},
      {"port.ets.drift", "host1", "ens1f0np0", [](PortObserved& p) { (*p.priority_to_tc)[3] = 0; },
       "host1:ens1f0np0: ETS differs: prio 3->tc 0 (want 3)",
       "dcb ets set dev 'ens1f0np0' prio-tc 0:0 1:0 2:0 3:3 4:0 5:0 6:6 7:0 tc-tsa 0:ets 1:strict 2:strict 3:ets "
       "4:strict 5:strict 6:strict 7:strict tc-bw 0:50 1:0 2:0 3:50 4:0 5:0 6:0 7:0"},
      {"port.ets.drift", "leaf2", "Ethernet1/1", [](PortObserved& p) { (*p.tc)[3].bandwidth_pct = 40; },
       "leaf2:Ethernet1/1: ETS differs: tc3 ets 40% (want ets 50%)",
       "configure\n"
       "qos map traffic-class 0 1 2 4 5 to uc-tx-queue 0\n"
       "qos map traffic-class 3 to uc-tx-queue 3\n"
       "qos map traffic-class 6 to uc-tx-queue 6\n"
       "interface Ethernet1/1\n"
       "   uc-tx-queue 0\n"
       "      no priority\n"
       "      bandwidth percent 50\n"
       "   uc-tx-queue 3\n"
       "      no priority\n"
       "      bandwidth percent 50\n"
       "   uc-tx-queue 6\n"
       "      priority strict\n"
       "      no bandwidth percent\n"
       "end"},
      {"port.ecn.drift", "spine1", "swp1", [](PortObserved& p) { p.ecn->front().probability_pct = 100; },
       "spine1:swp1: ECN differs: tc3 probability 100% (want 20%)",
       "nv set qos congestion-control default-global traffic-class 3 ecn enable\n"
       "nv set qos congestion-control default-global traffic-class 3 min-threshold 153600\n"
       "nv set qos congestion-control default-global traffic-class 3 max-threshold 1536000\n"
       "nv set qos congestion-control default-global traffic-class 3 probability 20\n"
       "nv config apply -y"},
      {"port.watchdog.drift", "spine1", "swp1", [](PortObserved& p) { p.watchdog->enabled = false; },
       "spine1:swp1: PFC watchdog differs: off (want on)",
       "nv set qos pfc-watchdog polling-interval 100\nnv set qos pfc-watchdog robustness 2\n"
       "nv set interface swp1 qos pfc-watchdog state enable\nnv config apply -y"},
      {"port.dcqcn.drift", "host1", "ens1f0np0", [](PortObserved& p) { p.dcqcn->rp_enabled[3] = false; },
       "host1:ens1f0np0: DCQCN differs: reaction point on none (want 3)",
       "echo 1 > '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3'\n"
       "echo 1 > '/sys/class/net/ens1f0np0/ecn/roce_np/enable/3'"},
      {"port.dcqcn.params.drift", "host1", "ens1f0np0", [](PortObserved& p) { p.dcqcn->rp["rpg_ai_rate"] = 5; },
       "host1:ens1f0np0: DCQCN parameters differ: rpg_ai_rate 5 (want 10)",
       "echo 10 > '/sys/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate'"},
      {"port.cnp.drift", "host1", "ens2f0np0", [](PortObserved& p) { p.dcqcn->cnp_dscp = 46; },
       "host1:ens2f0np0: CNPs sent with DSCP 46 (want 48)",
       "echo 48 > '/sys/class/net/ens2f0np0/ecn/roce_np/cnp_dscp'\n"
       "echo 6 > '/sys/class/net/ens2f0np0/ecn/roce_np/cnp_802p_prio'"},
  };
  return rows;
}

}  // namespace

TEST_CASE("drift checks: each fault's message and fix, in each platform's words (a table)") {
  std::set<std::string> covered;
  for (const Fault& row : faults()) {
    CAPTURE(row.check);
    CAPTURE(row.device);
    CAPTURE(row.port);
    Lab f;
    row.mutate(f.port(row.device, row.port));
    const Result r = drift_result(f, row.check, row.device, row.port);
    check_failure(r, row.check);
    CHECK(r.message == row.message);
    CHECK(r.hint == row.fix);
    // The fault is this check's one failure in the family.
    CHECK(test::failures(f.run_all()).count(std::string(row.check) + " " + row.device + ":" + row.port) == 1);
    covered.insert(row.check);
  }
  // Every check of the family has a row.
  for (const Check& c : drift_family()) CHECK_MESSAGE(covered.count(std::string(c.id)) == 1, c.id << " has no row");
}

TEST_CASE("port.mtu.drift: a port result names its link; missing data") {
  Lab f;
  f.port("leaf1", "Ethernet0").mtu = 1500;
  Result r = drift_result(f, "port.mtu.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.mtu.drift");
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"leaf1", "Ethernet0"});
  CHECK(r.expected == "9100");
  CHECK(r.observed == "1500");
  // A port result of a cabled port names its link, host end first, though the port is the switch end.
  CHECK(same_link(r.link, kHost1Link));
  CHECK(test::outline(f.run(drift_family(), "port.mtu.drift")) ==
        std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0", "fail leaf1:Ethernet0",
                                 "pass leaf1:Ethernet4", "pass leaf1:Ethernet48", "pass leaf2:Ethernet1/1",
                                 "pass leaf2:Ethernet2/1", "pass spine1:swp1"});

  f.port("host1", "ens2f0np0").mtu = 1500;
  r = drift_result(f, "port.mtu.drift", "host1", "ens2f0np0");
  check_failure(r, "port.mtu.drift");
  CHECK(same_link(r.link, kHost2Link));

  f.port("leaf2", "Ethernet1/1").mtu = 9214;
  r = drift_result(f, "port.mtu.drift", "leaf2", "Ethernet1/1");
  check_failure(r, "port.mtu.drift");
  CHECK(same_link(r.link, kHost2Link));

  f.port("spine1", "swp1").mtu = 1500;
  r = drift_result(f, "port.mtu.drift", "spine1", "swp1");
  check_failure(r, "port.mtu.drift");
  CHECK(same_link(r.link, kSpineLink));

  // An uncabled port belongs to no link.
  f.port("leaf1", "Ethernet4").mtu = 1500;
  r = drift_result(f, "port.mtu.drift", "leaf1", "Ethernet4");
  check_failure(r, "port.mtu.drift");
  CHECK(r.hint == "sudo config interface mtu 'Ethernet4' 9100");
  CHECK_FALSE(r.link);
  CHECK(test::count(f.run(drift_family(), "port.mtu.drift"), Status::fail) == 5);

  f.port("leaf1", "Ethernet0").mtu.reset();
  r = drift_result(f, "port.mtu.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::missing);
  CHECK(r.expected == "9100");
  CHECK(r.observed == "not collected");
  CHECK(r.message == "leaf1:Ethernet0: MTU not collected");
  CHECK(r.hint.empty());
  CHECK(same_link(r.link, kHost1Link));
}

TEST_CASE("port.speed.drift: uncabled ports with an expected speed, slower or faster") {
  Lab f;
  f.port("leaf1", "Ethernet4").speed_mbps = 200000;
  Result r = drift_result(f, "port.speed.drift", "leaf1", "Ethernet4");
  check_failure(r, "port.speed.drift");
  CHECK(r.expected == "400G");
  CHECK(r.observed == "200G");
  CHECK_FALSE(r.link);

  f.port("leaf2", "Ethernet2/1").speed_mbps = 800000;

  // A cabled port at the wrong speed is link.speed.mismatch's, not this check's.
  f.port("leaf1", "Ethernet0").speed_mbps = 100000;
  f.port("host1", "ens1f0np0").speed_mbps = 100000;
  CHECK(test::outline(f.run(drift_family(), "port.speed.drift")) ==
        std::vector<std::string>{"fail leaf1:Ethernet4", "fail leaf2:Ethernet2/1"});

  f.port("leaf1", "Ethernet4").speed_mbps.reset();
  r = drift_result(f, "port.speed.drift", "leaf1", "Ethernet4");
  CHECK(r.status == Status::missing);
  CHECK(r.observed == "not collected");
  CHECK(r.message == "leaf1:Ethernet4: speed not collected");

  // Without an expected speed there is nothing to compare.
  f.intent("leaf1", "Ethernet4").speed_mbps.reset();
  CHECK(test::outline(f.run(drift_family(), "port.speed.drift")) == std::vector<std::string>{"fail leaf2:Ethernet2/1"});
}

TEST_CASE("port.trust.drift") {
  Lab f;
  f.port("leaf1", "Ethernet0").trust = Trust::pcp;
  Result r = drift_result(f, "port.trust.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.trust.drift");
  CHECK(r.expected == "dscp");
  CHECK(r.observed == "pcp");

  // mlx5 trusts DSCP while its DSCP app table has entries: the fix writes the whole intended map.
  f.port("host1", "ens1f0np0").trust = Trust::pcp;
  std::string pairs;
  for (int d = 0; d < kDscpValues; ++d) pairs += " " + std::to_string(d) + ":" + (d == 26 ? "3" : d == 48 ? "6" : "0");
  CHECK(drift_result(f, "port.trust.drift", "host1", "ens1f0np0").hint ==
        "dcb app replace dev 'ens1f0np0' dscp-prio" + pairs);

  f.port("leaf1", "Ethernet0").trust.reset();
  r = drift_result(f, "port.trust.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "leaf1:Ethernet0: trust mode not collected");
}

TEST_CASE("port.trust.drift: a PCP intent, fixed with PCP commands") {
  // (SONiC trusts DSCP only: resolve refuses a PCP profile there.)
  Lab f;
  f.device("leaf2").qos.trust = Trust::pcp;
  f.device("host1").qos.trust = Trust::pcp;  // observed still trusts DSCP
  Result r = drift_result(f, "port.trust.drift", "leaf2", "Ethernet1/1");
  check_failure(r, "port.trust.drift");
  CHECK(r.expected == "pcp");
  CHECK(r.observed == "dscp");
  CHECK(r.message == "leaf2:Ethernet1/1: trust mode dscp, expected pcp");
  CHECK(r.hint == "configure\ninterface Ethernet1/1\n   qos trust cos\nend");
  CHECK(drift_result(f, "port.trust.drift", "host1", "ens2f0np0").hint == "dcb app flush dev 'ens2f0np0' dscp-prio");
}

TEST_CASE("port.dscp.drift lists the differing DSCPs compactly and fixes only those") {
  Lab f;
  (*f.port("host1", "ens1f0np0").dscp_to_priority)[26] = 0;
  Result r = drift_result(f, "port.dscp.drift", "host1", "ens1f0np0");
  check_failure(r, "port.dscp.drift");
  CHECK(r.expected == "26->3, 48->6, others->0");
  CHECK(r.observed == "26->0 (want 3)");

  auto& leaf_map = *f.port("leaf1", "Ethernet0").dscp_to_priority;
  leaf_map[26] = 1;
  leaf_map[48] = 0;
  r = drift_result(f, "port.dscp.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.dscp.drift");
  CHECK(r.observed == "26->1 (want 3), 48->0 (want 6)");

  leaf_map.fill(5);  // a whole default map left in place: the finding stays one line
  r = drift_result(f, "port.dscp.drift", "leaf1", "Ethernet0");
  CHECK(r.observed ==
        "0->5 (want 0), 1->5 (want 0), 2->5 (want 0), 3->5 (want 0), 4->5 (want 0), 5->5 (want 0), "
        "6->5 (want 0), 7->5 (want 0), +56 more");
  CHECK(r.message == "leaf1:Ethernet0: DSCP map differs: " + r.observed);

  f.port("leaf1", "Ethernet0").dscp_to_priority.reset();
  r = drift_result(f, "port.dscp.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "leaf1:Ethernet0: DSCP map not collected");
}

TEST_CASE("port.dscp.drift groups ranges and does not apply under PCP trust") {
  Lab f;
  auto& q = f.device("leaf1").qos;
  for (int d = 24; d <= 31; ++d) q.dscp_to_priority[static_cast<size_t>(d)] = 3;
  f.refresh_observed();
  (*f.port("leaf1", "Ethernet0").dscp_to_priority)[0] = 3;
  CHECK(drift_result(f, "port.dscp.drift", "leaf1", "Ethernet0").expected == "24-31->3, 48->6, others->0");

  q.trust = Trust::pcp;
  CHECK(test::outline(f.run(drift_family(), "port.dscp.drift")) ==
        std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0", "pass leaf2:Ethernet1/1",
                                 "pass leaf2:Ethernet2/1", "pass spine1:swp1"});
}

TEST_CASE("port.pfc.drift: observed and expected, the link, missing data") {
  Lab f;
  f.port("leaf1", "Ethernet0").lossless = std::array<bool, kPriorities>{};
  Result r = drift_result(f, "port.pfc.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.pfc.drift");
  CHECK(r.expected == "3");
  CHECK(r.observed == "none");
  CHECK(same_link(r.link, kHost1Link));

  (*f.port("host1", "ens1f0np0").lossless)[4] = true;
  r = drift_result(f, "port.pfc.drift", "host1", "ens1f0np0");
  check_failure(r, "port.pfc.drift");
  CHECK(r.observed == "3,4");

  f.port("leaf1", "Ethernet0").lossless.reset();
  r = drift_result(f, "port.pfc.drift", "leaf1", "Ethernet0");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "leaf1:Ethernet0: PFC priorities not collected");
}

TEST_CASE("port.ets.drift compares the priority->TC map and the used TCs' scheduling") {
  Lab f;
  const std::string want = "prio->tc 3->3, 6->6, others->0; tc0 ets 50%, tc3 ets 50%, tc6 strict";
  (*f.port("host1", "ens1f0np0").priority_to_tc)[3] = 0;
  Result r = drift_result(f, "port.ets.drift", "host1", "ens1f0np0");
  check_failure(r, "port.ets.drift");
  CHECK(r.expected == want);
  CHECK(r.observed == "prio->tc 6->6, others->0; tc0 ets 50%, tc3 ets 50%, tc6 strict");

  auto& tcs = *f.port("leaf1", "Ethernet0").tc;
  tcs[6] = {true, false, 10};
  tcs[3].bandwidth_pct = 40;
  tcs[5] = {false, false, 30};  // not used by the intent: not compared
  r = drift_result(f, "port.ets.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.ets.drift");
  CHECK(r.observed == "prio->tc 3->3, 6->6, others->0; tc0 ets 50%, tc3 ets 40%, tc6 ets 10%");
  CHECK(r.message == "leaf1:Ethernet0: ETS differs: tc3 ets 40% (want ets 50%), tc6 ets 10% (want strict)");
  CHECK(r.hint ==
        "sonic-db-cli CONFIG_DB hset 'TC_TO_QUEUE_MAP|ROCE' 0 '0' 1 '0' 2 '0' 3 '3' 4 '0' 5 '0' 6 '6' 7 '0'\n"
        "sonic-db-cli CONFIG_DB hset 'SCHEDULER|ROCE_TC0' type 'DWRR' weight '50'\n"
        "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|0' scheduler 'ROCE_TC0'\n"
        "sonic-db-cli CONFIG_DB hset 'SCHEDULER|ROCE_TC3' type 'DWRR' weight '50'\n"
        "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|3' scheduler 'ROCE_TC3'\n"
        "sonic-db-cli CONFIG_DB hset 'SCHEDULER|ROCE_TC6' type 'STRICT'\n"
        "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|6' scheduler 'ROCE_TC6'");

  f.port("leaf1", "Ethernet4").tc.reset();
  CHECK(drift_result(f, "port.ets.drift", "leaf1", "Ethernet4").message ==
        "leaf1:Ethernet4: TC scheduling not collected");
  f.port("leaf1", "Ethernet4").priority_to_tc.reset();
  CHECK(drift_result(f, "port.ets.drift", "leaf1", "Ethernet4").message ==
        "leaf1:Ethernet4: priority->TC map not collected");
}

TEST_CASE("port.ecn.drift: thresholds within the documented tolerance, probability exact") {
  Lab f;
  const std::string want = "tc3 min 153600 B max 1536000 B prob 20%";
  auto& queue = f.port("leaf1", "Ethernet0").ecn->front();

  queue.min_bytes = 163584;  // +6.5 %: Spectrum rounds to buffer cells
  queue.max_bytes = 1635840;
  test::check_bare_pass(drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0"), Severity::error);

  queue.min_bytes = 168960;  // exactly +10 %
  CHECK(drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0").status == Status::pass);

  queue.min_bytes = 184320;  // +20 %
  Result r = drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.ecn.drift");
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == want);
  CHECK(r.observed == "tc3 min 184320 B max 1635840 B prob 20%");
  CHECK(r.message == "leaf1:Ethernet0: ECN differs: tc3 min 184320 B (want 153600 B ±10%)");
  CHECK(r.hint ==
        "sonic-db-cli CONFIG_DB hset 'WRED_PROFILE|ROCE_LOSSLESS' ecn 'ecn_all' wred_green_enable 'true' "
        "green_min_threshold '153600' green_max_threshold '1536000' green_drop_probability '20'\n"
        "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|3' wred_profile 'ROCE_LOSSLESS'");

  // The tolerance is the run's, not a constant.
  CHECK(drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0", Tolerance{25.0}).status == Status::pass);

  queue.min_bytes = 122880;  // -20 %
  queue.max_bytes = 1228800;
  queue.probability_pct = 5;
  CHECK(drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0").message ==
        "leaf1:Ethernet0: ECN differs: tc3 min 122880 B (want 153600 B ±10%), tc3 max 1228800 B (want 1536000 B ±10%), "
        "tc3 probability 5% (want 20%)");
}

TEST_CASE("port.ecn.drift: a desired queue without marking, missing data, switch ports only") {
  Lab f;
  f.port("leaf2", "Ethernet1/1").ecn = std::vector<EcnQueue>{{0, 153600, 1536000, 20}};
  const Result r = drift_result(f, "port.ecn.drift", "leaf2", "Ethernet1/1");
  check_failure(r, "port.ecn.drift");
  CHECK(r.observed == "tc3 off; tc0 min 153600 B max 1536000 B prob 20%");
  CHECK(r.message == "leaf2:Ethernet1/1: ECN differs: tc3 not ECN-marked, tc0 marks, which the intent leaves unmarked");
  CHECK(r.severity == Severity::error);  // the missing marking decides
  CHECK(
      r.hint ==
      "configure\ninterface Ethernet1/1\n   uc-tx-queue 0\n      no random-detect ecn minimum-threshold\n   uc-tx-queue 3\n"
      "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1536000 bytes max-mark-probability 20 "
      "weight 0\n"
      "end");

  f.port("leaf1", "Ethernet0").ecn.reset();
  CHECK(drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0").message == "leaf1:Ethernet0: ECN not collected");
  for (const Result& x : f.run(drift_family(), "port.ecn.drift")) CHECK(x.a.device != "host1");
}

TEST_CASE("port.ecn.drift: ECN on a lossless queue when the intent has it off is a warning") {
  Lab f;  // observed: ECN on tc3, as the fixture intent had it
  for (const char* dev : {"leaf1", "leaf2"}) {
    auto& q = f.device(dev).qos;
    q.ecn_enabled = false;
    q.ecn.clear();
  }
  Result r = drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.ecn.drift");
  CHECK(r.severity == Severity::warning);
  CHECK(r.expected == "no ECN on lossless tc3");
  CHECK(r.observed == "ECN on tc3");
  CHECK(r.message == "leaf1:Ethernet0: ECN marks lossless tc3 though the intent has ECN off");
  CHECK(r.hint ==
        "sonic-db-cli CONFIG_DB hset 'WRED_PROFILE|ROCE_NO_ECN' ecn 'ecn_none' wred_green_enable 'false' "
        "wred_yellow_enable 'false' wred_red_enable 'false'\n"
        "sonic-db-cli CONFIG_DB hset 'QUEUE|Ethernet0|3' wred_profile 'ROCE_NO_ECN'");
  CHECK(drift_result(f, "port.ecn.drift", "leaf2", "Ethernet1/1").hint ==
        "configure\ninterface Ethernet1/1\n   uc-tx-queue 3\n      no random-detect ecn minimum-threshold\nend");

  // A lossy queue that marks (NVUE's default on TC0) is no longer silent: best-effort ECN is a choice
  // the profile makes (ecn.tc.0), not a default of one NOS.
  f.port("leaf1", "Ethernet0").ecn = std::vector<EcnQueue>{{0, 1000, 2000, 10}};
  r = drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0");
  CHECK(r.severity == Severity::warning);
  CHECK(r.message == "leaf1:Ethernet0: ECN marks tc0 though the intent has ECN off");
  f.port("leaf1", "Ethernet0").ecn = std::vector<EcnQueue>{};
  test::check_bare_pass(drift_result(f, "port.ecn.drift", "leaf1", "Ethernet0"), Severity::error);
}

TEST_CASE("port.ecn.drift: with ECN on, a queue the intent leaves unmarked that marks is a warning") {
  Lab f;
  f.port("spine1", "swp1").ecn->push_back({0, 150000, 1500000, 100});  // NVUE's default TC0 marking
  const Result r = drift_result(f, "port.ecn.drift", "spine1", "swp1");
  check_failure(r, "port.ecn.drift");
  CHECK(r.severity == Severity::warning);
  CHECK(r.message == "spine1:swp1: ECN differs: tc0 marks, which the intent leaves unmarked");
  CHECK(r.hint == "nv set qos congestion-control default-global traffic-class 0 ecn disable\nnv config apply -y");
}

TEST_CASE("port.watchdog.drift") {
  Lab f;
  CHECK(drift_result(f, "port.watchdog.drift", "leaf1", "Ethernet0").status == Status::pass);

  f.port("leaf1", "Ethernet0").watchdog->detection_ms = 400;
  f.port("leaf1", "Ethernet0").watchdog->action = WatchdogAction::forward;
  Result r = drift_result(f, "port.watchdog.drift", "leaf1", "Ethernet0");
  check_failure(r, "port.watchdog.drift");
  CHECK(r.expected == "on, poll 100 ms, detection 200 ms, restoration 200 ms, action drop");
  CHECK(r.observed == "on, poll 100 ms, detection 400 ms, restoration 200 ms, action forward");
  CHECK(r.message ==
        "leaf1:Ethernet0: PFC watchdog differs: detection 400 ms (want 200 ms), action forward (want drop)");
  CHECK(r.hint ==
        "sudo config pfcwd interval 100\n"
        "sudo config pfcwd start --action drop --restoration-time 200 'Ethernet0' 200");

  f.port("leaf2", "Ethernet2/1").watchdog->enabled = false;
  r = drift_result(f, "port.watchdog.drift", "leaf2", "Ethernet2/1");
  check_failure(r, "port.watchdog.drift");
  CHECK(r.observed == "off");
  CHECK(r.message == "leaf2:Ethernet2/1: PFC watchdog differs: off (want on)");
  CHECK(r.hint ==
        "configure\n"
        "priority-flow-control pause watchdog default timeout 0.2\n"
        "priority-flow-control pause watchdog default recovery-time 0.2\n"
        "priority-flow-control pause watchdog default polling-interval 0.1\n"
        "priority-flow-control pause watchdog action drop\n"
        "interface Ethernet2/1\n"
        "   priority-flow-control pause watchdog\n"
        "end");

  // Watchdog off in intent: its timers are not compared, but an enabled watchdog is drift.
  Lab g;
  for (DeviceDesired& d : g.desired.devices) d.qos.watchdog.enabled = false;
  g.port("leaf1", "Ethernet0").watchdog = Watchdog{false, 500, 900, 900, WatchdogAction::alert};
  CHECK(drift_result(g, "port.watchdog.drift", "leaf1", "Ethernet0").status == Status::pass);
  r = drift_result(g, "port.watchdog.drift", "leaf1", "Ethernet4");
  check_failure(r, "port.watchdog.drift");
  CHECK(r.expected == "off");
  CHECK(r.message == "leaf1:Ethernet4: PFC watchdog differs: on (want off)");
  CHECK(r.hint == "sudo config pfcwd stop 'Ethernet4'");
  CHECK(drift_result(g, "port.watchdog.drift", "leaf2", "Ethernet1/1").hint ==
        "configure\ninterface Ethernet1/1\n   no priority-flow-control pause watchdog\nend");
  CHECK(drift_result(g, "port.watchdog.drift", "spine1", "swp1").hint ==
        "nv unset interface swp1 qos pfc-watchdog\nnv config apply -y");

  g.port("leaf1", "Ethernet4").watchdog.reset();
  CHECK(drift_result(g, "port.watchdog.drift", "leaf1", "Ethernet4").message ==
        "leaf1:Ethernet4: PFC watchdog not collected");
}

TEST_CASE("port.dcqcn.drift: reaction and notification points per priority") {
  Lab f;
  auto& dc = *f.port("host1", "ens1f0np0").dcqcn;
  dc.rp_enabled[3] = false;
  Result r = drift_result(f, "port.dcqcn.drift", "host1", "ens1f0np0");
  check_failure(r, "port.dcqcn.drift");
  CHECK(r.expected == "RP on 3, NP on 3");
  CHECK(r.observed == "RP on none, NP on 3");
  CHECK(same_link(r.link, kHost1Link));

  dc.rp_enabled[3] = true;
  dc.np_enabled[5] = true;
  r = drift_result(f, "port.dcqcn.drift", "host1", "ens1f0np0");
  CHECK(r.message == "host1:ens1f0np0: DCQCN differs: notification point on 3,5 (want 3)");
  CHECK(r.hint ==
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/5'\n"
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_np/enable/5'");

  // CNP marking is port.cnp.drift's: a wrong CNP DSCP is not DCQCN drift.
  dc.np_enabled[5] = false;
  dc.cnp_dscp = 46;
  CHECK(drift_result(f, "port.dcqcn.drift", "host1", "ens1f0np0").status == Status::pass);

  f.port("host1", "ens1f0np0").dcqcn.reset();
  r = drift_result(f, "port.dcqcn.drift", "host1", "ens1f0np0");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "host1:ens1f0np0: DCQCN not collected");
}

TEST_CASE("port.dcqcn.drift: DCQCN off in intent means off on every priority") {
  Lab f;
  f.device("host1").qos.dcqcn.enabled = false;
  const Result r = drift_result(f, "port.dcqcn.drift", "host1", "ens1f0np0");  // observed still has DCQCN on 3
  check_failure(r, "port.dcqcn.drift");
  CHECK(r.expected == "RP on none, NP on none");
  CHECK(r.observed == "RP on 3, NP on 3");
  CHECK(r.message ==
        "host1:ens1f0np0: DCQCN differs: reaction point on 3 (want none), notification point on 3 (want none)");
  CHECK(r.hint ==
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_rp/enable/3'\n"
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_np/enable/3'");
}

TEST_CASE("port.dcqcn.params.drift: only the parameters the profile sets, each against its value") {
  Lab f;
  auto& dc = *f.port("host1", "ens1f0np0").dcqcn;
  dc.rp["rpg_ai_rate"] = 5;       // the firmware's default, not the profile's 10
  dc.rp["rpg_time_reset"] = 600;  // not set by the profile: the firmware's business
  Result r = drift_result(f, "port.dcqcn.params.drift", "host1", "ens1f0np0");
  check_failure(r, "port.dcqcn.params.drift");
  CHECK(r.expected == "rpg_ai_rate 10, rpg_hai_rate 100, min_time_between_cnps 0");
  CHECK(r.observed == "rpg_ai_rate 5, rpg_hai_rate 100, min_time_between_cnps 0");
  CHECK(same_link(r.link, kHost1Link));
  // Parameters are their own setting: the enables still pass.
  CHECK(drift_result(f, "port.dcqcn.drift", "host1", "ens1f0np0").status == Status::pass);

  dc.min_time_between_cnps = 4;
  r = drift_result(f, "port.dcqcn.params.drift", "host1", "ens1f0np0");
  CHECK(r.message ==
        "host1:ens1f0np0: DCQCN parameters differ: rpg_ai_rate 5 (want 10), min_time_between_cnps 4 (want 0)");
  CHECK(r.hint ==
        "echo 10 > '/sys/class/net/ens1f0np0/ecn/roce_rp/rpg_ai_rate'\n"
        "echo 0 > '/sys/class/net/ens1f0np0/ecn/roce_np/min_time_between_cnps'");

  dc.rp.erase("rpg_hai_rate");
  r = drift_result(f, "port.dcqcn.params.drift", "host1", "ens1f0np0");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "host1:ens1f0np0: DCQCN parameter rpg_hai_rate not collected");

  // A profile that sets no parameter leaves them all to the firmware: nothing to judge.
  f.device("host1").qos.dcqcn.rp.clear();
  f.device("host1").qos.dcqcn.np_min_time_between_cnps.reset();
  CHECK(f.run(drift_family(), "port.dcqcn.params.drift").empty());
}

TEST_CASE("port.cnp.drift: the DSCP and priority of the CNPs a NIC sends") {
  Lab f;
  auto& dc = *f.port("host1", "ens2f0np0").dcqcn;
  dc.cnp_dscp = 46;
  Result r = drift_result(f, "port.cnp.drift", "host1", "ens2f0np0");
  check_failure(r, "port.cnp.drift");
  CHECK(r.expected == "DSCP 48 priority 6");
  CHECK(r.observed == "DSCP 46 priority 6");
  CHECK(same_link(r.link, kHost2Link));
  CHECK(drift_result(f, "port.dcqcn.drift", "host1", "ens2f0np0").status == Status::pass);

  dc.cnp_priority = 3;
  r = drift_result(f, "port.cnp.drift", "host1", "ens2f0np0");
  CHECK(r.observed == "DSCP 46 priority 3");
  CHECK(r.message == "host1:ens2f0np0: CNPs sent with DSCP 46 (want 48), priority 3 (want 6)");

  dc.cnp_priority.reset();
  r = drift_result(f, "port.cnp.drift", "host1", "ens2f0np0");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "host1:ens2f0np0: CNP priority not collected");
  dc.cnp_dscp.reset();
  CHECK(drift_result(f, "port.cnp.drift", "host1", "ens2f0np0").message == "host1:ens2f0np0: CNP DSCP not collected");
  f.port("host1", "ens2f0np0").dcqcn.reset();
  CHECK(drift_result(f, "port.cnp.drift", "host1", "ens2f0np0").message == "host1:ens2f0np0: CNP DSCP not collected");

  // Without DCQCN the NIC sends no CNPs: nothing to compare.
  f.device("host1").qos.dcqcn.enabled = false;
  CHECK(f.run(drift_family(), "port.cnp.drift").empty());
}

TEST_CASE("drift: one wrong setting is one finding in the whole catalog") {
  SUBCASE("PFC off on the leaf end of a link: the link disagreement is its consequence") {
    Lab f;
    (*f.port("leaf1", "Ethernet0").lossless)[3] = false;
    const std::vector<Result> all = f.run_all();
    test::check_causes_are_failures(all);
    CHECK(test::failures(all) == std::set<std::string>{"port.pfc.drift leaf1:Ethernet0"});
    CHECK(test::consequences(all) ==
          std::set<std::string>{"link.pfc.mismatch host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0",
                                "link.roce.class host1:ens1f0np0~leaf1:Ethernet0 <- port.pfc.drift leaf1:Ethernet0"});
  }
  SUBCASE("a wrong watchdog, ECN or CNP marking concerns one port only") {
    Lab f;
    f.port("leaf2", "Ethernet1/1").watchdog->enabled = false;
    f.port("spine1", "swp1").ecn = std::vector<EcnQueue>{};
    f.port("host1", "ens1f0np0").dcqcn->cnp_priority = 0;
    const std::vector<Result> all = f.run_all();
    test::check_causes_are_failures(all);
    CHECK(test::failures(all) == std::set<std::string>{"port.cnp.drift host1:ens1f0np0", "port.ecn.drift spine1:swp1",
                                                       "port.watchdog.drift leaf2:Ethernet1/1"});
    CHECK(test::consequences(all).empty());
  }
}
