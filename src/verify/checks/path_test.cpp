#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "verify/checks/check_test_support.h"
#include "verify/checks/checks.h"

using namespace fabricctl;
using fabricctl::test::Lab;

namespace {

const std::vector<Check>& path_family() {
  static const std::vector<Check> checks = path_checks();
  return checks;
}

/// The result of `id` on the link whose host end is host1:<port>.
Result on_link(const Lab& lab, std::string_view id, std::string_view host_port) {
  return lab.result(path_family(), id, "host1", host_port);
}

}  // namespace

TEST_CASE("path checks: the catalog rows, and passes on the host links of a perfect lab") {
  std::vector<std::string> ids;
  for (const Check& c : path_family()) {
    ids.emplace_back(c.id);
    CHECK(c.severity == Severity::error);
    CHECK_FALSE(c.summary.empty());
  }
  CHECK(ids == std::vector<std::string>{"link.roce.class", "link.cnp.class"});
  test::check_perfect_state(path_family());
  const Lab lab;
  for (const char* id : {"link.roce.class", "link.cnp.class"}) {
    CAPTURE(id);
    // The leaf-spine link has no host end to follow a class from: not applicable, so no result.
    const std::vector<Result> rs = lab.run(path_family(), id);
    CHECK(test::count(rs, Status::pass) == 2);
    CHECK(rs.size() == 2);
  }
}

TEST_CASE("link.roce.class: NCCL without a traffic class sends RoCE in lossy priority 0") {
  Lab lab;
  lab.observed.devices["host1"].nccl->traffic_class.reset();  // NCCL's default: traffic class 0
  lab.port("host1", "ens1f0np0").rdma->tos_override = kNoTosOverride;
  const Result r = on_link(lab, "link.roce.class", "ens1f0np0");
  CHECK(r.status == Status::consequence);
  CHECK(r.cause == "nccl.tc.lossy host1");
  CHECK(r.message == "RoCE with DSCP 0 from NCCL on host1:ens1f0np0 lands in lossy priority 0 on leaf1:Ethernet0");
  CHECK(r.expected == "DSCP 26 -> lossless priority 3 on both ends");
  CHECK(r.observed == "host1:ens1f0np0=0->0 lossy, 26->3 lossless, leaf1:Ethernet0=0->0 lossy, 26->3 lossless");
  // The other NIC keeps the override, which NCCL's queue pairs take too: its RoCE is where it belongs.
  CHECK(on_link(lab, "link.roce.class", "ens2f0np0").status == Status::pass);

  // In the whole catalog the cause is reported, and the landing hangs under it.
  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::consequences(all).count("link.roce.class host1:ens1f0np0~leaf1:Ethernet0 <- nccl.tc.lossy host1"));
}

TEST_CASE("link.roce.class: a wrong override puts every queue pair of the port in the wrong class") {
  Lab lab;
  lab.port("host1", "ens2f0np0").rdma->tos_override = 0;
  const Result r = on_link(lab, "link.roce.class", "ens2f0np0");
  CHECK(r.status == Status::consequence);
  CHECK(r.cause == "rdma.tos.drift host1:ens2f0np0");
  CHECK(r.message ==
        "RoCE with DSCP 0 from NCCL and rdma_cm on host1:ens2f0np0 lands in lossy priority 0 on leaf2:Ethernet1/1");
}

TEST_CASE("link.roce.class: each end's drift explains where RoCE lands, in both directions") {
  Lab lab;
  SUBCASE("the switch maps the RoCE DSCP to a lossy priority") {
    (*lab.port("leaf1", "Ethernet0").dscp_to_priority)[26] = 1;
    const Result r = on_link(lab, "link.roce.class", "ens1f0np0");
    CHECK(r.status == Status::consequence);
    CHECK(r.cause == "port.dscp.drift leaf1:Ethernet0");
    CHECK(r.message ==
          "RoCE with DSCP 26 both ways (from NCCL and rdma_cm on host1:ens1f0np0) lands in lossy priority 1 on "
          "leaf1:Ethernet0");
  }
  SUBCASE("the NIC classifies RoCE it receives into a lossy priority") {
    (*lab.port("host1", "ens1f0np0").dscp_to_priority)[26] = 0;
    const Result r = on_link(lab, "link.roce.class", "ens1f0np0");
    CHECK(r.status == Status::consequence);
    CHECK(r.cause == "port.dscp.drift host1:ens1f0np0");
    CHECK(r.message ==
          "RoCE with DSCP 26 both ways (from NCCL and rdma_cm on host1:ens1f0np0) is in lossy priority 0 on "
          "host1:ens1f0np0: the NIC neither pauses leaf1:Ethernet0 for it nor stops when paused");
  }
  SUBCASE("PFC off for the RoCE priority on the NIC") {
    (*lab.port("host1", "ens1f0np0").lossless)[3] = false;
    const Result r = on_link(lab, "link.roce.class", "ens1f0np0");
    CHECK(r.status == Status::consequence);
    CHECK(r.cause == "port.pfc.drift host1:ens1f0np0");
  }
  SUBCASE("a switch that trusts PCP does not classify by DSCP at all") {
    lab.port("leaf1", "Ethernet0").trust = Trust::pcp;
    const Result r = on_link(lab, "link.roce.class", "ens1f0np0");
    CHECK(r.status == Status::consequence);
    CHECK(r.cause == "port.trust.drift leaf1:Ethernet0");
    CHECK(r.message == "leaf1:Ethernet0 trusts pcp: the DSCP of RoCE does not classify it there");
  }
}

TEST_CASE("link.roce.class: ends as intended that still disagree are a fault of the profiles") {
  Lab lab;
  // The leaf's profile puts RoCE in lossless priority 4, the host's in 3: each end matches its intent.
  DeviceDesired& leaf = lab.device("leaf1");
  leaf.qos.dscp_to_priority[26] = 4;
  leaf.qos.lossless[4] = true;
  lab.refresh_observed();
  const Result r = on_link(lab, "link.roce.class", "ens1f0np0");
  CHECK(r.status == Status::fail);
  CHECK(r.cause.empty());
  CHECK(r.message ==
        "RoCE with DSCP 26 both ways (from NCCL and rdma_cm on host1:ens1f0np0) lands in priority 4 on "
        "leaf1:Ethernet0 but in priority 3 on host1:ens1f0np0: each end's pauses stop the wrong queue of the "
        "other; the profiles of host1 and leaf1 disagree on the RoCE classes: make them agree, then render and "
        "apply both");
}

TEST_CASE("link.roce.class: what could not be compared is missing, naming the end") {
  Lab lab;
  lab.port("leaf1", "Ethernet0").dscp_to_priority.reset();
  const Result r = on_link(lab, "link.roce.class", "ens1f0np0");
  CHECK(r.status == Status::missing);
  CHECK(r.message ==
        "RoCE classes not compared between host1:ens1f0np0 and leaf1:Ethernet0: leaf1:Ethernet0 did not report its "
        "DSCP map, PFC priorities and trust mode");
}

TEST_CASE("link.cnp.class: CNPs sent with another DSCP land in a lossy bulk priority on the leaf") {
  Lab lab;
  lab.port("host1", "ens2f0np0").dcqcn->cnp_dscp = 46;
  const Result r = on_link(lab, "link.cnp.class", "ens2f0np0");
  CHECK(r.status == Status::consequence);
  CHECK(r.cause == "port.cnp.drift host1:ens2f0np0");
  CHECK(r.message ==
        "CNPs from host1:ens2f0np0 (DSCP 46) land in lossy priority 0 on leaf2:Ethernet1/1, not in its CNP priority "
        "6: congestion notifications wait behind the traffic they are about");
  CHECK(r.expected == "DSCP 48 -> priority 6 on both ends");
  CHECK(r.observed == "host1:ens2f0np0=48->6, leaf2:Ethernet1/1=46->0");

  const std::vector<Result> all = lab.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"port.cnp.drift host1:ens2f0np0"});
}

TEST_CASE("link.cnp.class: CNPs to the host, in the NIC's CNP priority; none without DCQCN") {
  Lab lab;
  (*lab.port("host1", "ens1f0np0").dscp_to_priority)[48] = 0;
  const Result r = on_link(lab, "link.cnp.class", "ens1f0np0");
  CHECK(r.status == Status::consequence);
  CHECK(r.cause == "port.dscp.drift host1:ens1f0np0");
  CHECK(r.message ==
        "CNPs to host1:ens1f0np0 (DSCP 48) land in lossy priority 0 on host1:ens1f0np0, not in its CNP priority 6: "
        "congestion notifications wait behind the traffic they are about");

  // Without DCQCN the NIC sends no CNPs: the check does not apply to its links (no result, not a pass).
  lab.device("host1").qos.dcqcn.enabled = false;
  for (const Result& res : lab.run(path_family(), "link.cnp.class")) CHECK(res.a.device != "host1");
}
