// Connections paced (ops/paced_connector.h), on the fake fleet and a fake clock: the rate holds over
// many connections, a refused connection is tried again after a back-off that grows, and nothing else is.
#include "ops/paced_connector.h"

#include <doctest/doctest.h>

#include "ops/fake_fleet_test_support.h"

using namespace fabricctl;
using namespace fabricctl::ops;
using std::chrono::milliseconds;

namespace {

struct Paced {
  fake::Fleet f;
  std::vector<milliseconds> waits;
  bool stop = false;
  Pacing pacing;
  PacedConnector connector() {
    return PacedConnector(f.devices, pacing, f.clock, [this](milliseconds d) {
      waits.push_back(d);
      f.clock.advance(d);
      return !stop;
    });
  }
  const DeviceMgmt& mgmt(const std::string& device) const {
    for (const DeviceMgmt& m : f.fabric.mgmt)
      if (m.device == device) return m;
    FAIL("no device " << device);
    return f.fabric.mgmt.front();
  }
};

}  // namespace

TEST_CASE("paced connector: at most the rate of new connections, however many are asked at once") {
  Paced p;
  p.pacing.connects_per_s = 10;
  PacedConnector c = p.connector();
  const auto start = p.f.clock.now();
  for (int i = 0; i < 25; ++i) REQUIRE(c.open(p.mgmt("leaf1")));
  // The first at once, then one every 100 ms: the 25th starts 2.4 s after the first.
  CHECK(p.f.clock.now() - start == milliseconds(2400));
  CHECK(p.waits.size() == 24);
  // A pause longer than the interval leaves no debt: the next connection starts at once.
  p.f.clock.advance(milliseconds(5000));
  p.waits.clear();
  REQUIRE(c.open(p.mgmt("leaf1")));
  CHECK(p.waits.empty());

  Paced unlimited;
  unlimited.pacing.connects_per_s = 0;
  PacedConnector u = unlimited.connector();
  for (int i = 0; i < 25; ++i) REQUIRE(u.open(unlimited.mgmt("leaf1")));
  CHECK(unlimited.waits.empty());
}

TEST_CASE("paced connector: a refused connection is tried again after a back-off that doubles") {
  Paced p;
  p.pacing.connects_per_s = 0;
  p.f.devices.device("leaf1").refusals = 2;
  PacedConnector c = p.connector();
  REQUIRE(c.open(p.mgmt("leaf1")));
  CHECK(p.f.devices.opens("leaf1") == 3);
  REQUIRE(p.waits.size() == 2);
  // 1 s, then 2 s, each spread by the device's name within 75%-125%, the same spread both times.
  CHECK(p.waits[0] >= milliseconds(750));
  CHECK(p.waits[0] <= milliseconds(1250));
  CHECK(p.waits[1] == 2 * p.waits[0]);

  // Refused on every try: the error says how often, and the device is tried `attempts` times, no more.
  p.f.devices.device("host1").refusals = 10;
  p.waits.clear();
  const auto refused = c.open(p.mgmt("host1"));
  REQUIRE_FALSE(refused);
  CHECK(p.f.devices.opens("host1") == 3);
  CHECK(refused.error().find(": cannot connect: Connection refused (3 tries, the last ") != std::string::npos);
  CHECK(p.waits.size() == 2);
}

TEST_CASE("paced connector: what a later try would meet again is not tried again; a stop ends the tries") {
  Paced p;
  p.pacing.connects_per_s = 0;
  p.f.devices.device("leaf1").unreachable = "No route to host";
  PacedConnector c = p.connector();
  const auto unreachable = c.open(p.mgmt("leaf1"));
  REQUIRE_FALSE(unreachable);
  CHECK(unreachable.error().ends_with("cannot connect: No route to host"));
  CHECK(p.f.devices.opens("leaf1") == 1);
  CHECK(p.waits.empty());

  p.f.devices.device("host1").refusals = 1;
  p.stop = true;  // Ctrl-C during the back-off
  const auto stopped = c.open(p.mgmt("host1"));
  REQUIRE_FALSE(stopped);
  CHECK(stopped.error().ends_with("Connection refused (not tried again: fabricctl was asked to stop)"));
  CHECK(p.f.devices.opens("host1") == 1);
}
