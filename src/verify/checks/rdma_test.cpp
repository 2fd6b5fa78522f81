#include <doctest/doctest.h>

#include "verify/checks/check_test_support.h"
#include "verify/checks/checks.h"

using namespace fabricctl;
using fabricctl::test::TinyFabric;

namespace {

const std::vector<Check>& family() {
  static const std::vector<Check> checks = rdma_checks();
  return checks;
}

Result one(const TinyFabric& f, std::string_view id, std::string_view port = "ens1f0np0") {
  return f.result(family(), id, "host1", port);
}

}  // namespace

TEST_CASE("rdma checks: the catalog rows") {
  std::vector<std::string> ids;
  for (const Check& c : family()) ids.emplace_back(c.id);
  CHECK(ids == std::vector<std::string>{"rdma.port.down", "rdma.gid.missing", "rdma.mtu.mismatch"});
}

TEST_CASE("rdma checks pass on a perfect fabric, on host ports only") {
  test::check_perfect_state(family());
  TinyFabric f;
  for (const Check& c : family())
    CHECK(test::outline(f.run(family(), c.id)) ==
          std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0"});
}

TEST_CASE("rdma checks report missing data when the device, port or RDMA state is absent") {
  test::check_absent_state(family());
  TinyFabric f;
  f.port("host1", "ens1f0np0").rdma.reset();
  for (const Check& c : family()) {
    const Result r = one(f, c.id);
    CHECK(r.status == Status::missing);
    CHECK(r.observed == "not collected");
    CHECK(r.message == "host1:ens1f0np0: RDMA state not collected");
  }
}

TEST_CASE("rdma.port.down") {
  TinyFabric f;
  CHECK(one(f, "rdma.port.down").message == "host1:ens1f0np0: RDMA port mlx5_0/1 active");
  f.port("host1", "ens1f0np0").rdma->active = false;
  Result r = one(f, "rdma.port.down");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"host1", "ens1f0np0"});
  CHECK(r.expected == "active");
  CHECK(r.observed == "down");
  CHECK(r.message == "host1:ens1f0np0: RDMA port mlx5_0/1 is not active");
  CHECK(r.hint == 
        "Bring the link of ens1f0np0 up and check the RDMA device (Linux: ip link set dev ens1f0np0 up; rdma link show mlx5_0/1)");
  CHECK(one(f, "rdma.port.down", "ens2f0np0").status == Status::pass);

  f.port("host1", "ens1f0np0").rdma->active.reset();
  r = one(f, "rdma.port.down");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "host1:ens1f0np0: RDMA port state not collected");
}

TEST_CASE("rdma.gid.missing") {
  TinyFabric f;
  Result r = one(f, "rdma.gid.missing");
  CHECK(r.expected == "a RoCE v2 GID");
  CHECK(r.observed == "RoCE v1, RoCE v2");
  CHECK(r.message == "host1:ens1f0np0: RoCE v2 GID at index 1");

  auto& gids = f.port("host1", "ens1f0np0").rdma->gids;
  gids.pop_back();
  r = one(f, "rdma.gid.missing");
  CHECK(r.status == Status::fail);
  CHECK(r.observed == "RoCE v1");
  CHECK(r.message == "host1:ens1f0np0: mlx5_0/1 has no RoCE v2 GID (RoCE v1)");
  CHECK(r.hint == 
        "Give ens1f0np0 an IP address: the NIC derives its RoCE v2 GIDs from the addresses (Linux: ip addr show dev ens1f0np0; cat /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/*)");

  gids.clear();
  r = one(f, "rdma.gid.missing");
  CHECK(r.status == Status::fail);
  CHECK(r.observed == "no GIDs");
}

TEST_CASE("rdma.mtu.mismatch explains a netdev MTU too small for the RoCE MTU") {
  TinyFabric f;
  CHECK(one(f, "rdma.mtu.mismatch").message == "host1:ens1f0np0: RDMA active MTU 4096 as intended");

  auto& port = f.port("host1", "ens1f0np0");
  port.mtu = 1500;
  port.rdma->active_mtu = 1024;
  Result r = one(f, "rdma.mtu.mismatch");
  CHECK(r.status == Status::fail);
  CHECK(r.expected == "4096");
  CHECK(r.observed == "1024");
  CHECK(r.message ==
        "host1:ens1f0np0: active MTU 1024 because the netdev MTU is 1500; RoCE MTU 4096 needs 4192 or more");
  CHECK(r.hint == 
        "Raise the MTU of ens1f0np0 to 9000 (Linux: ip link set dev ens1f0np0 mtu 9000)");

  port.mtu = 4192;  // enough for 4096: the netdev is not the cause
  port.rdma->active_mtu = 2048;
  r = one(f, "rdma.mtu.mismatch");
  CHECK(r.status == Status::fail);
  CHECK(r.message == "host1:ens1f0np0: RDMA active MTU 2048, expected 4096");
  CHECK(r.hint == 
        "The netdev MTU allows RoCE MTU 4096: check the NIC's maximum MTU and firmware (Linux: ibv_devinfo -d mlx5_0 -i 1 shows max_mtu and active_mtu)");

  port.mtu.reset();  // no netdev MTU: no explanation, still a failure
  CHECK(one(f, "rdma.mtu.mismatch").message == "host1:ens1f0np0: RDMA active MTU 2048, expected 4096");

  port.rdma->active_mtu.reset();
  r = one(f, "rdma.mtu.mismatch");
  CHECK(r.status == Status::missing);
  CHECK(r.message == "host1:ens1f0np0: RDMA active MTU not collected");
}
