// acceptance's pairing and judgement on a small fabric written here, its reports in perftest's and
// nccl-tests' layouts (as perftest_test.cpp and nccl_tests_test.cpp have them), and its two reports.
#include "acceptance/acceptance.h"

#include <doctest/doctest.h>

#include <sstream>

#include "acceptance/acceptance_report.h"

using namespace fabricctl;
using namespace fabricctl::acceptance;

namespace {

/// Three hosts: rail 0 on every host (gpu3's at 200G), rail 1 on gpu1 and gpu2, a port without a rail.
FabricDesired fabric() {
  FabricDesired f;
  for (const std::string host : {"gpu1", "gpu2", "gpu3"}) {
    DeviceDesired d;
    d.name = host;
    d.role = Role::host;
    PortDesired p0;
    p0.name = "ens1f0np0";
    p0.rail = 0;
    p0.speed_mbps = host == "gpu3" ? 200000 : 400000;
    d.ports.push_back(p0);
    if (host != "gpu3") {
      PortDesired p1 = p0;
      p1.name = "ens2f0np0";
      p1.rail = 1;
      d.ports.push_back(p1);
    }
    PortDesired mgmt;
    mgmt.name = "eno1";
    d.ports.push_back(mgmt);
    f.devices.push_back(d);
  }
  DeviceDesired leaf;
  leaf.name = "leaf1";
  leaf.role = Role::switch_;
  f.devices.push_back(leaf);
  return f;
}

std::string ib_write_bw(double gbps) {
  char row[128];
  std::snprintf(row, sizeof row, " 65536      5000             %.2f             %.2f\t\t     0.700000\n", gbps + 1,
                gbps);
  return std::string(" Link type       : Ethernet\n") +
         " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]\n" + row;
}

const char* kNccl =
    "#  Rank  0 Group  0 Pid   4101 on    gpu1 device  0 [0000:18:00] NVIDIA H100 80GB HBM3\n"
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
    "  8589934592    2147483648     float     sum      -1  93880.5   91.50  171.56      0  93900.2   91.48  171.52      0\n"
    "# Out of bounds values : 0 OK\n"
    "# Avg bus bandwidth    : 98.45 \n";

}  // namespace

TEST_CASE("acceptance: host ports paired per rail; an odd one out measured against the rail's first") {
  const std::vector<Pair> pairs = pairs_of(fabric());
  REQUIRE(pairs.size() == 3);
  CHECK(pairs[0].name() == "gpu1:ens1f0np0~gpu2:ens1f0np0");
  CHECK(pairs[1].name() == "gpu3:ens1f0np0~gpu1:ens1f0np0");
  CHECK(pairs[2].name() == "gpu1:ens2f0np0~gpu2:ens2f0np0");
  CHECK(pairs[2].rail == 1);
  CHECK(pairs_of(fabric(), {"gpu1", "gpu2"}).size() == 2);  // scoped: gpu3 takes no part
  CHECK(pairs_of(fabric(), {"gpu1"}).empty());              // a rail of one port measures nothing
}

TEST_CASE("acceptance: each pair against the slower port's line rate at 90%; what is missing is not judged") {
  const FabricDesired f = fabric();
  const std::vector<Pair> pairs = pairs_of(f);
  AcceptanceReport r = judge(f, pairs,
                             {{"gpu1:ens1f0np0~gpu2:ens1f0np0", ib_write_bw(371.87)},
                              {"gpu3:ens1f0np0~gpu1:ens1f0np0", ib_write_bw(179.0)},   // 89.5% of 200G
                              {"gpu1:ens2f0np0~gpu2:ens2f0np0", ib_write_bw(360.0)}},  // exactly 90%
                             {{"allreduce-16", kNccl}});
  REQUIRE(r.pairs.size() == 3);
  CHECK(r.pairs[0].passed());
  CHECK(r.pairs[1].line_gbps == 200.0);
  CHECK_FALSE(r.pairs[1].passed());
  CHECK(r.pairs[2].passed());
  REQUIRE(r.collectives.size() == 1);
  CHECK(r.collectives[0].passed());
  CHECK(exit_code(r) == 1);

  r = judge(f, pairs, {{"gpu1:ens1f0np0~gpu2:ens1f0np0", "Couldn't connect to 10.0.0.2:18515\n"}}, {});
  CHECK(r.pairs[0].error == "its ib_write_bw report: no result table (#bytes ... BW average)");
  CHECK(r.pairs[1].error == "not measured");
  CHECK(exit_code(r) == 3);

  FabricDesired no_speed = f;
  no_speed.devices[0].ports[0].speed_mbps.reset();
  r = judge(no_speed, {pairs[0]}, {{pairs[0].name(), ib_write_bw(371.87)}}, {});
  CHECK(r.pairs[0].run);
  CHECK(r.pairs[0].error.find("no speed in the inventory") == 0);
  CHECK(exit_code(r) == 3);

  r = judge(f, {pairs[0]}, {{pairs[0].name(), ib_write_bw(371.87)}}, {});
  CHECK(exit_code(r) == 0);
}

TEST_CASE("acceptance: the table and fabricctl.acceptance/v1 JSON") {
  const FabricDesired f = fabric();
  const std::vector<Pair> pairs = pairs_of(f);
  std::string nccl_wrong = kNccl;
  nccl_wrong.replace(nccl_wrong.find(": 0 OK"), 6, ": 2 FAILED");
  const AcceptanceReport r =
      judge(f, pairs, {{pairs[0].name(), ib_write_bw(371.87)}, {pairs[1].name(), ib_write_bw(150)}},
            {{"allreduce", nccl_wrong}});
  std::ostringstream table, json;
  write_table(r, table);
  write_json(r, json);
  CHECK(table.str().find("gpu1:ens1f0np0  gpu2:ens1f0np0  371.9    400     93%    ok\n") != std::string::npos);
  CHECK(table.str().find("150.0    200     75%    below 90% of the line rate\n") != std::string::npos);
  CHECK(table.str().find("not judged: not measured") != std::string::npos);
  CHECK(table.str().find("allreduce: 1 ranks on 1 hosts, bus bandwidth 171.56 GB/s at 8589934592 B, 98.45 GB/s on "
                         "average, 2 wrong values") != std::string::npos);
  CHECK(table.str().find("3 pairs: 1 at 90% of the line rate or more, 1 below; 1 collectives: 0 clean, 1 with wrong "
                         "values; 1 not judged") != std::string::npos);
  CHECK(json.str().find("\"schema\": \"fabricctl.acceptance/v1\"") != std::string::npos);
  CHECK(json.str().find("\"result\": \"below\"") != std::string::npos);
  CHECK(json.str().find("\"result\": \"wrong values\"") != std::string::npos);
}
