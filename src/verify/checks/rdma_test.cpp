#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "verify/checks/check_test_support.h"
#include "verify/checks/checks.h"

using namespace fabricctl;
using fabricctl::test::kHost1Link;
using fabricctl::test::kHost2Link;
using fabricctl::test::Lab;
using fabricctl::test::same_link;

namespace {

const std::vector<Check>& rdma_family() {
  static const std::vector<Check> checks = rdma_checks();
  return checks;
}

Result rdma_result(const Lab& f, std::string_view id, std::string_view port = "ens1f0np0") {
  return f.result(rdma_family(), id, "host1", port);
}

}  // namespace

TEST_CASE("rdma checks: the catalog rows") {
  std::vector<std::string> ids;
  for (const Check& c : rdma_family()) {
    ids.emplace_back(c.id);
    CHECK(c.severity == Severity::error);
    CHECK_FALSE(c.summary.empty());
    CHECK_FALSE(c.optional_data);
  }
  CHECK(ids == std::vector<std::string>{"rdma.port.down", "rdma.gid.missing", "rdma.mtu.mismatch", "rdma.tos.drift"});
}

TEST_CASE("rdma checks pass on a perfect fabric, on host ports only") {
  test::check_perfect_state(rdma_family());
  const Lab f;
  for (const Check& c : rdma_family())
    CHECK(test::outline(f.run(rdma_family(), c.id)) ==
          std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0"});
}

TEST_CASE("rdma checks report missing data when the device, port or RDMA state is absent") {
  test::check_absent_state(rdma_family());
  Lab f;
  f.port("host1", "ens1f0np0").rdma.reset();
  for (const Check& c : rdma_family()) {
    CAPTURE(c.id);
    const Result r = rdma_result(f, c.id);
    CHECK(r.status == Status::missing);
    CHECK(r.observed == "not collected");
    CHECK(r.message == "host1:ens1f0np0: RDMA state not collected");
    CHECK(r.hint.empty());
    CHECK(same_link(r.link, kHost1Link));
  }
}

TEST_CASE("rdma.port.down: an inactive RDMA port on an up netdev is a fault of its own") {
  Lab f;
  f.port("host1", "ens1f0np0").rdma->active = false;
  Result r = rdma_result(f, "rdma.port.down");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"host1", "ens1f0np0"});
  CHECK_FALSE(r.b);
  CHECK(r.expected == "active");
  CHECK(r.observed == "down");
  CHECK(r.message == "host1:ens1f0np0: RDMA port mlx5_0/1 is not active");
  CHECK(r.hint == "rdma link show 'mlx5_0/1'");
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost1Link));
  CHECK(rdma_result(f, "rdma.port.down", "ens2f0np0").status == Status::pass);
  CHECK(test::failures(f.run_all()) == std::set<std::string>{"rdma.port.down host1:ens1f0np0"});

  f.port("host1", "ens1f0np0").rdma->active.reset();
  r = rdma_result(f, "rdma.port.down");
  CHECK(r.status == Status::missing);
  CHECK(r.observed == "not collected");
  CHECK(r.message == "host1:ens1f0np0: RDMA port state not collected");
}

TEST_CASE("rdma.port.down: a netdev that is down is the fault, named as the cause") {
  Lab f;
  f.port("host1", "ens2f0np0").oper_up = false;
  f.port("host1", "ens2f0np0").rdma->active = false;
  const Result r = rdma_result(f, "rdma.port.down", "ens2f0np0");
  CHECK(r.status == Status::consequence);
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == "active");
  CHECK(r.observed == "down");
  CHECK(r.message == "host1:ens2f0np0: RDMA port mlx5_1/1 is not active");
  CHECK(r.cause == "link.oper.down host1:ens2f0np0~leaf2:Ethernet1/1");
  CHECK(r.hint.empty());
  CHECK(same_link(r.link, kHost2Link));
  const std::vector<Result> all = f.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"link.oper.down host1:ens2f0np0~leaf2:Ethernet1/1"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"rdma.port.down host1:ens2f0np0 <- link.oper.down host1:ens2f0np0~leaf2:Ethernet1/1"});

  // A NIC that is cabled to nothing has no link to blame: its RDMA port is the finding.
  Lab uncabled;
  Lab::cable(uncabled.device("host1"), 1, "", "");
  Lab::cable(uncabled.device("leaf2"), 0, "", "");
  uncabled.refresh_observed();  // an uncabled port is observed down
  uncabled.port("host1", "ens2f0np0").rdma->active = false;
  const Result u = rdma_result(uncabled, "rdma.port.down", "ens2f0np0");
  CHECK(u.status == Status::fail);
  CHECK(u.cause.empty());
  CHECK(u.hint == "rdma link show 'mlx5_1/1'");
  CHECK_FALSE(u.link);
}

TEST_CASE("rdma.gid.missing") {
  Lab f;
  auto& gids = f.port("host1", "ens1f0np0").rdma->gids;
  std::erase_if(gids, [](const GidObserved& g) { return g.type == "RoCE v2"; });
  Result r = rdma_result(f, "rdma.gid.missing");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "a RoCE v2 GID");
  CHECK(r.observed == "RoCE v1");
  CHECK(r.message == "host1:ens1f0np0: mlx5_0/1 has no RoCE v2 GID (RoCE v1)");
  CHECK(r.hint == "ip addr show dev 'ens1f0np0'");
  CHECK(r.cause.empty());
  CHECK(same_link(r.link, kHost1Link));

  gids.clear();
  r = rdma_result(f, "rdma.gid.missing");
  CHECK(r.status == Status::fail);
  CHECK(r.observed == "no GIDs");
  CHECK(r.message == "host1:ens1f0np0: mlx5_0/1 has no RoCE v2 GID (no GIDs)");

  // Any index will do.
  gids = {{3, "RoCE v2", "fe80::1"}, {0, "RoCE v1", "fe80::1"}};
  CHECK(rdma_result(f, "rdma.gid.missing").status == Status::pass);
}

TEST_CASE("rdma.mtu.mismatch: the classic case, a netdev left at 1500, is a consequence of its MTU drift") {
  Lab f;
  auto& port = f.port("host1", "ens2f0np0");
  port.mtu = 1500;
  port.rdma->active_mtu = 1024;
  const Result r = rdma_result(f, "rdma.mtu.mismatch", "ens2f0np0");
  CHECK(r.status == Status::consequence);
  CHECK(r.severity == Severity::error);
  CHECK(r.expected == "4096");
  CHECK(r.observed == "1024");
  CHECK(r.message ==
        "host1:ens2f0np0: active MTU 1024 because the netdev MTU is 1500; RoCE MTU 4096 needs 4192 or more");
  CHECK(r.cause == "port.mtu.drift host1:ens2f0np0");
  CHECK(r.hint.empty());
  CHECK(same_link(r.link, kHost2Link));

  // One fault: the MTU, with the one command that fixes both.
  const std::vector<Result> all = f.run_all();
  test::check_causes_are_failures(all);
  CHECK(test::failures(all) == std::set<std::string>{"port.mtu.drift host1:ens2f0np0"});
  CHECK(test::consequences(all) ==
        std::set<std::string>{"rdma.mtu.mismatch host1:ens2f0np0 <- port.mtu.drift host1:ens2f0np0"});
  const Result cause = f.result(drift_checks(), "port.mtu.drift", "host1", "ens2f0np0");
  CHECK(cause.hint == "ip link set dev 'ens2f0np0' mtu 9000");
  CHECK(same_link(cause.link, kHost2Link));
}

TEST_CASE("rdma.mtu.mismatch: a netdev MTU that carries the RoCE MTU does not explain it") {
  Lab f;
  auto& port = f.port("host1", "ens1f0np0");
  port.mtu = 4500;  // drifted, but enough for RoCE MTU 4096
  port.rdma->active_mtu = 2048;
  Result r = rdma_result(f, "rdma.mtu.mismatch");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "4096");
  CHECK(r.observed == "2048");
  CHECK(r.message == "host1:ens1f0np0: RDMA active MTU 2048, expected 4096");
  CHECK(r.cause.empty());
  CHECK(test::failures(f.run_all()) ==
        std::set<std::string>{"port.mtu.drift host1:ens1f0np0", "rdma.mtu.mismatch host1:ens1f0np0"});

  port.mtu = 9000;  // as intended
  r = rdma_result(f, "rdma.mtu.mismatch");
  CHECK(r.status == Status::fail);
  CHECK(r.message == "host1:ens1f0np0: RDMA active MTU 2048, expected 4096");

  port.mtu.reset();  // no netdev MTU: no explanation, still a failure
  r = rdma_result(f, "rdma.mtu.mismatch");
  CHECK(r.status == Status::fail);
  CHECK(r.message == "host1:ens1f0np0: RDMA active MTU 2048, expected 4096");

  port.rdma->active_mtu.reset();
  r = rdma_result(f, "rdma.mtu.mismatch");
  CHECK(r.status == Status::missing);
  CHECK(r.observed == "not collected");
  CHECK(r.message == "host1:ens1f0np0: RDMA active MTU not collected");
}

// When the netdev MTU is already the intended 9000, re-applying it changes nothing: the fix of
// rdma.mtu.mismatch looks at the RDMA side (NIC maximum MTU, firmware).
TEST_CASE("rdma.mtu.mismatch: the fix does not re-apply the netdev MTU it already has") {
  Lab f;
  f.port("host1", "ens1f0np0").rdma->active_mtu = 2048;  // netdev MTU 9000, as intended
  const Result r = rdma_result(f, "rdma.mtu.mismatch");
  REQUIRE(r.status == Status::fail);
  CHECK_FALSE(r.hint.empty());
  CHECK(r.hint != "ip link set dev 'ens1f0np0' mtu 9000");
}

TEST_CASE("rdma.tos.drift: rdma_cm's ToS and the driver's override, each said with where it lands") {
  Lab f;
  RdmaObserved& r = *f.port("host1", "ens1f0np0").rdma;
  r.cm_tos = 0;
  Result res = rdma_result(f, "rdma.tos.drift");
  CHECK(res.status == Status::fail);
  CHECK(res.expected == "106 (DSCP 26 -> priority 3, lossless)");
  CHECK(res.observed == "rdma_cm 0, override 106");
  CHECK(res.message ==
        "host1:ens1f0np0: mlx5_0/1: rdma_cm connections leave with ToS 0 (DSCP 0 -> priority 0, lossy); expected ToS "
        "106 (DSCP 26 -> priority 3, lossless)");
  CHECK(res.hint ==
        "mkdir -p '/sys/kernel/config/rdma_cm/mlx5_0'\necho 106 > "
        "'/sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos'\necho 106 > "
        "'/sys/class/infiniband/mlx5_0/tc/1/traffic_class'");

  r.cm_tos = 106;
  r.tos_override = kNoTosOverride;
  res = rdma_result(f, "rdma.tos.drift");
  CHECK(res.status == Status::fail);
  CHECK(res.observed == "rdma_cm 106, no override");

  r.tos_override.reset();  // an upstream driver has no override: only rdma_cm's ToS is judged
  CHECK(rdma_result(f, "rdma.tos.drift").status == Status::pass);
  r.cm_tos.reset();
  CHECK(rdma_result(f, "rdma.tos.drift").status == Status::missing);
}
