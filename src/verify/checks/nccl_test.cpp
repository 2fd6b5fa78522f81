#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "verify/checks/check_test_support.h"
#include "verify/checks/checks.h"

using namespace fabricctl;
using fabricctl::test::Lab;

namespace {

const std::vector<Check>& nccl_family() {
  static const std::vector<Check> checks = nccl_checks();
  return checks;
}

Result nccl_result(const Lab& f, std::string_view id) { return f.result(nccl_family(), id, "host1", ""); }

NcclObserved& nccl(Lab& f) { return *f.observed.devices.at("host1").nccl; }

}  // namespace

TEST_CASE("nccl checks: one result per host, pass on a perfect fabric, missing without state") {
  test::check_perfect_state(nccl_family());
  const Lab f;
  for (const Check& c : nccl_family())
    CHECK(test::outline(f.run(nccl_family(), c.id)) == std::vector<std::string>{"pass host1"});
  Lab g;
  g.observed.devices.at("host1").nccl.reset();
  for (const Check& c : nccl_family()) {
    const Result r = nccl_result(g, c.id);
    CHECK(r.status == Status::missing);
    CHECK(r.message == "host1: NCCL configuration not collected");
  }
  g.observed.devices.clear();
  for (const Check& c : nccl_family()) CHECK(nccl_result(g, c.id).message == "host1: no observed state for host1");
  g.observed.unreadable["host1"] = "ssh: connection refused";
  for (const Check& c : nccl_family()) {
    const Result r = nccl_result(g, c.id);
    CHECK(r.status == Status::missing);
    CHECK(r.observed == "unreadable");
    CHECK(r.message == "host1: device state unreadable: ssh: connection refused");
  }
  Lab h;  // the host's ports unread: NCCL's file still judges the traffic class; the GID needs the tables
  h.observed.devices.at("host1").ports.clear();
  CHECK(nccl_result(h, "nccl.tc.lossy").status == Status::pass);
  CHECK(nccl_result(h, "nccl.gid.type").status == Status::pass);  // the default: NCCL picks the GID, no table needed
  h.device("host1").qos.nccl_gid_index = 3;                       // a profile's pin
  nccl(h).gid_index = 3;
  CHECK(nccl_result(h, "nccl.gid.type").message == "host1: GID tables not collected: mlx5_0/1, mlx5_1/1");
}

TEST_CASE("nccl.tc.lossy: NCCL's default traffic class puts RoCE in the lossy class") {
  Lab f;
  nccl(f).traffic_class.reset();
  for (const char* p : {"ens1f0np0", "ens2f0np0"}) f.port("host1", p).rdma->tos_override = kNoTosOverride;
  Result r = nccl_result(f, "nccl.tc.lossy");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == "106 (DSCP 26 -> priority 3, lossless)");
  CHECK(r.observed == "0");
  CHECK(r.message == "host1: NCCL sends RoCE with ToS 0 (DSCP 0 -> priority 0, lossy): its traffic class is not set");
  CHECK(r.hint == "sed -i '/^NCCL_IB_TC=/d' '/etc/nccl.conf'\necho 'NCCL_IB_TC=106' >> '/etc/nccl.conf'");

  SUBCASE("the driver's override on every RoCE port hides it: a warning") {
    for (const char* p : {"ens1f0np0", "ens2f0np0"}) f.port("host1", p).rdma->tos_override = 106;
    r = nccl_result(f, "nccl.tc.lossy");
    CHECK(r.severity == Severity::warning);
    CHECK(r.message.find("hides it for now") != std::string::npos);
  }
  SUBCASE("on one port only, the other port's NCCL traffic is still lossy") {
    f.port("host1", "ens1f0np0").rdma->tos_override = 106;
    CHECK(nccl_result(f, "nccl.tc.lossy").severity == Severity::error);
  }
  SUBCASE("lossless but not the intended DSCP: a warning") {
    f.device("host1").qos.dscp_to_priority[24] = 3;
    nccl(f).traffic_class = 96;  // DSCP 24
    r = nccl_result(f, "nccl.tc.lossy");
    CHECK(r.severity == Severity::warning);
    CHECK(r.message == "host1: NCCL sends RoCE with ToS 96 (DSCP 24 -> priority 3, lossless)");
  }
}

TEST_CASE("nccl.gid.type: the index must name a RoCE v2 GID on every RoCE port") {
  Lab f;
  f.device("host1").qos.nccl_gid_index = 3;  // the profile pins the RoCE v2 GID of the IPv4 address
  nccl(f).gid_index = 2;                     // RoCE v1 of the IPv4 address
  Result r = nccl_result(f, "nccl.gid.type");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == "RoCE v2 GID 3");
  CHECK(r.observed == "GID 2");
  CHECK(r.message ==
        "host1: NCCL uses GID index 2: mlx5_0/1 GID 2 is RoCE v1, mlx5_1/1 GID 2 is RoCE v1; RoCE v1 is not routed "
        "and lacks ECN, and a missing GID fails NCCL's connections");
  CHECK(r.hint == "sed -i '/^NCCL_IB_GID_INDEX=/d' '/etc/nccl.conf'\necho 'NCCL_IB_GID_INDEX=3' >> '/etc/nccl.conf'");

  nccl(f).gid_index = 9;
  CHECK(nccl_result(f, "nccl.gid.type").message.find("mlx5_0/1 has no GID 9") != std::string::npos);

  nccl(f).gid_index = 1;  // RoCE v2 of the link-local address: routable it is not, but a RoCE v2 GID
  CHECK(nccl_result(f, "nccl.gid.type").status == Status::pass);

  nccl(f).gid_index.reset();
  r = nccl_result(f, "nccl.gid.type");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::warning);
  f.device("host1").qos.nccl_gid_index = kNcclGidAuto;
  CHECK(nccl_result(f, "nccl.gid.type").status == Status::pass);

  SUBCASE("left to NCCL, a pin of the site's own is still judged") {
    nccl(f).gid_index = 2;
    r = nccl_result(f, "nccl.gid.type");
    CHECK(r.status == Status::fail);
    CHECK(r.expected == "a RoCE v2 GID");
    CHECK(r.hint == "sed -i '/^NCCL_IB_GID_INDEX=/d' '/etc/nccl.conf'");
  }
}
