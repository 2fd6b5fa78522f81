// One session a device for a whole operation (ops/session_pool.h), on the fake fleet: kept and used
// again while fresh, never after a failed command or a long idle, never by two users at once.
#include "ops/session_pool.h"

#include <doctest/doctest.h>

#include "ops/fake_fleet_test_support.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

const DeviceMgmt& mgmt_of(const fake::Fleet& f, const std::string& device) {
  for (const DeviceMgmt& m : f.fabric.mgmt)
    if (m.device == device) return m;
  FAIL("no device " << device);
  return f.fabric.mgmt.front();
}

/// Opens `device` through `pool`, runs `command` and gives the session back.
Expected<Reply> once(SessionPool& pool, const DeviceMgmt& m, const std::string& command) {
  auto s = pool.open(m);
  if (!s) return unexpected(s.error());
  return (*s)->run(command, {});
}

}  // namespace

TEST_CASE("session pool: a device's session is kept and used again while it is fresh") {
  fake::Fleet f;
  SessionPool pool(f.devices, f.clock);
  const DeviceMgmt& leaf = mgmt_of(f, "leaf1");
  for (int i = 0; i < 3; ++i) REQUIRE(once(pool, leaf, "show version"));
  CHECK(f.devices.opens("leaf1") == 1);
  // Idle a minute: still used. Longer: a new one (the device's sshd may have closed the old).
  f.clock.advance(std::chrono::seconds(60));
  REQUIRE(once(pool, leaf, "show version"));
  CHECK(f.devices.opens("leaf1") == 1);
  f.clock.advance(std::chrono::seconds(61));
  REQUIRE(once(pool, leaf, "show version"));
  CHECK(f.devices.opens("leaf1") == 2);
  // Released: its operation is over; a later use opens a new one.
  pool.release("leaf1");
  REQUIRE(once(pool, leaf, "show version"));
  CHECK(f.devices.opens("leaf1") == 3);
}

TEST_CASE("session pool: after a failed command, and for a second user at once, a session of its own") {
  fake::Fleet f;
  SessionPool pool(f.devices, f.clock);
  const DeviceMgmt& leaf = mgmt_of(f, "leaf1");
  f.devices.device("leaf1").hang_when = {"config checkpoint"};
  CHECK_FALSE(once(pool, leaf, "sudo config checkpoint x"));  // timed out: the connection may be gone
  f.devices.device("leaf1").hang_when.clear();
  REQUIRE(once(pool, leaf, "show version"));
  CHECK(f.devices.opens("leaf1") == 2);

  // Two at once: the second gets its own, which is not kept.
  auto a = pool.open(leaf);
  auto b = pool.open(leaf);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(f.devices.opens("leaf1") == 3);
  b->reset();
  a->reset();
  REQUIRE(once(pool, leaf, "show version"));
  CHECK(f.devices.opens("leaf1") == 3);  // the kept one, given back by a
  // A refused connection is the inner connector's to judge (the pacing above tries it again).
  CHECK(pool.worth_retrying("x: cannot connect: Connection refused"));
}
