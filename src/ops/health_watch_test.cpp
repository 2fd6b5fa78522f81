// health --watch on the fake fleet: readings an interval apart by the fake clock, each judged against
// the one before; a counter that starts to rise is named in the sample where it rose and not after it
// stops; a stop request ends the watch between readings; no sleep.
#include "ops/health_watch.h"

#include <doctest/doctest.h>

#include "ops/fake_fleet_test_support.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

/// host1 as the fake device reports it, its first NIC's lossless drops at `drops`.
void host1_drops(fake::FakeConnector& fleet, const Fabric& fabric, uint64_t drops) {
  const DeviceDesired& d = fabric.desired.devices[0];
  REQUIRE(d.name == "host1");
  DeviceObserved o = observed_from_desired(d);
  for (PortObserved& p : o.ports) p.counters = {{"rx_discards_3", p.name == "ens1f0np0" ? drops : 0}};
  fleet.device("host1").state = fake::raw_outputs(d, o);
}

}  // namespace

TEST_CASE("ops health watch: every interval a reading judged against the last; a fault named while it lasts") {
  const Fabric fabric = fake::small_fabric();
  fake::FakeClock clock;
  fake::FakeConnector fleet(fabric, clock);
  fake::RecordingObserver seen;
  Context ctx{fleet, seen, clock};
  host1_drops(fleet, fabric, 0);
  std::vector<std::chrono::milliseconds> waits;
  size_t reading = 0;
  const Wait wait = [&](std::chrono::milliseconds d) {
    waits.push_back(d);
    clock.advance(d);
    ++reading;
    host1_drops(fleet, fabric, reading >= 2 ? 40 : 0);  // drops between the first and second reading after
    return true;
  };
  std::vector<VerifyReport> samples;
  WatchOptions o;
  o.interval = std::chrono::seconds(30);
  o.samples = 3;
  const size_t n = watch_health(fabric, o, ctx, wait, [&](VerifyReport&& r) { samples.push_back(std::move(r)); });
  CHECK(n == 3);
  REQUIRE(samples.size() == 3);
  CHECK(waits == std::vector<std::chrono::milliseconds>(3, std::chrono::seconds(30)));
  CHECK(samples[0].results.empty());
  REQUIRE(samples[1].results.size() == 1);
  CHECK(samples[1].results[0].check == "health.lossless.drops");
  CHECK(samples[1].results[0].observed == "priority 3: +40 in 30 s (1.33/s)");
  CHECK(samples[2].results.empty());  // no more drops since
}

TEST_CASE("ops health watch: a stop request ends it between readings; a slow reading is followed at once") {
  const Fabric fabric = fake::small_fabric();
  fake::FakeClock clock;
  fake::FakeConnector fleet(fabric, clock);
  fake::RecordingObserver seen;
  int stop = 0;
  Context ctx{fleet, seen, clock, StopToken([&] { return stop; })};
  fleet.device("leaf2").slow = std::chrono::seconds(11);  // each exec: a reading takes longer than 10 s
  std::vector<std::chrono::milliseconds> waits;
  size_t samples = 0;
  const Wait wait = [&](std::chrono::milliseconds d) {
    waits.push_back(d);
    clock.advance(d);
    return true;
  };
  WatchOptions o;
  o.interval = std::chrono::seconds(10);
  watch_health(fabric, o, ctx, wait, [&](VerifyReport&&) {
    if (++samples == 2) stop = 2;  // SIGINT after the second sample
  });
  CHECK(samples == 2);
  CHECK(waits.empty());  // every reading took longer than the interval: no wait between them
}
