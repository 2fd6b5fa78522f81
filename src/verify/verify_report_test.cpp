#include <doctest/doctest.h>

#include "verify/verify_report.h"

using namespace fabricctl;

TEST_CASE("verify report: passes are kept compact and named like results") {
  VerifyReport r;
  r.checks_run = {"port.mtu.drift", "link.pfc.mismatch"};
  Result port;
  port.check = "port.mtu.drift";
  port.a = {"leaf1", "Ethernet0"};
  Result link;
  link.check = "link.pfc.mismatch";
  link.a = {"host1", "eth0"};
  link.b = Endpoint{"leaf1", "Ethernet0"};
  Result device;
  device.check = "port.mtu.drift";
  device.a = {"spine1", ""};
  for (const Result* res : {&port, &link, &device}) r.add_pass(res->check == "port.mtu.drift" ? 0 : 1, *res);
  REQUIRE(r.passes.size() == 3);
  CHECK(r.object_of(r.passes[0]) == port.object());
  CHECK(r.object_of(r.passes[1]) == link.object());
  CHECK(r.object_of(r.passes[2]) == device.object());
  CHECK(r.check_of(r.passes[1]) == "link.pfc.mismatch");
  CHECK(r.names.size() == 5);  // leaf1, Ethernet0, host1, eth0, spine1: each once
  CHECK(sizeof(PassRef) == 20);
  const ReportTally t = tally(r);
  CHECK(t.pass == 3);
  CHECK(t.fail == 0);
}
