#include <doctest/doctest.h>

#include "verify/checks/check_test_support.h"
#include "verify/checks/checks.h"

using namespace fabricctl;
using fabricctl::test::TinyFabric;

namespace {

const std::vector<Check>& family() {
  static const std::vector<Check> checks = cabling_checks();
  return checks;
}

constexpr std::string_view kLldp = "cabling.lldp.mismatch";

}  // namespace

TEST_CASE("cabling checks: the catalog row") {
  REQUIRE(family().size() == 1);
  CHECK(family().front().id == kLldp);
  CHECK(family().front().severity == Severity::error);
}

TEST_CASE("cabling.lldp.mismatch passes on a perfect fabric, on cabled ports only") {
  test::check_perfect_state(family());
  test::check_absent_state(family());
  TinyFabric f;
  CHECK(test::outline(f.run(family(), kLldp)) ==
        std::vector<std::string>{"pass host1:ens1f0np0", "pass host1:ens2f0np0", "pass leaf1:Ethernet0"});
  const Result r = f.result(family(), kLldp, "leaf1", "Ethernet0");
  CHECK(r.expected == "host1:ens1f0np0");
  CHECK(r.observed == "host1:ens1f0np0");
  CHECK(r.message == "leaf1:Ethernet0: LLDP neighbour host1:ens1f0np0 as the inventory says");
}

TEST_CASE("cabling.lldp.mismatch: wrong device or wrong port") {
  TinyFabric f;
  f.port("host1", "ens1f0np0").lldp = LldpNeighbor{"leaf2", "Ethernet0"};
  Result r = f.result(family(), kLldp, "host1", "ens1f0np0");
  CHECK(r.status == Status::fail);
  CHECK(r.severity == Severity::error);
  CHECK(r.a == Endpoint{"host1", "ens1f0np0"});
  CHECK(r.expected == "leaf1:Ethernet0");
  CHECK(r.observed == "leaf2:Ethernet0");
  CHECK(r.message == "host1:ens1f0np0: LLDP neighbour is leaf2:Ethernet0, the inventory says leaf1:Ethernet0");
  CHECK(r.hint == "Move the cable to leaf1:Ethernet0 or correct the inventory, then confirm the neighbour (Linux: lldpcli show neighbors ports ens1f0np0)");

  f.port("leaf1", "Ethernet0").lldp = LldpNeighbor{"host1", "ens2f0np0"};
  r = f.result(family(), kLldp, "leaf1", "Ethernet0");
  CHECK(r.status == Status::fail);
  CHECK(r.message == "leaf1:Ethernet0: LLDP neighbour is host1:ens2f0np0, the inventory says host1:ens1f0np0");
  CHECK(r.hint == "Move the cable to host1:ens1f0np0 or correct the inventory, then confirm the neighbour (SONiC: show lldp table)");
  CHECK(test::count(f.run(family(), kLldp), Status::fail) == 2);
}

TEST_CASE("cabling.lldp.mismatch: no LLDP data is missing, not a failure") {
  TinyFabric f;
  f.port("leaf1", "Ethernet0").lldp.reset();
  const Result r = f.result(family(), kLldp, "leaf1", "Ethernet0");
  CHECK(r.status == Status::missing);
  CHECK(r.expected == "host1:ens1f0np0");
  CHECK(r.observed == "not collected");
  CHECK(r.message == "leaf1:Ethernet0: LLDP neighbour not collected");
  CHECK(r.hint.empty());
}
