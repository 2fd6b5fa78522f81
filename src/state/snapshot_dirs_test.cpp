// Snapshots of one fabric read from the shards' directories (state/snapshot_dirs.h): each device from
// the one directory that has it; a device in none or in two is unreadable, never judged.
#include "state/snapshot_dirs.h"

#include <doctest/doctest.h>

#include "fixtures.h"
#include "temp_dir.h"

using namespace fabricctl;
namespace fs = std::filesystem;

namespace {

/// A snapshot of `name` written into `dir`.
void snapshot_of(const std::string& name, const fs::path& dir) {
  DeviceDesired d = test::example_switch(Platform::sonic, {"Ethernet0"});
  d.name = name;
  FabricObserved o;
  o.devices.emplace(name, observed_from_desired(d));
  REQUIRE(write_snapshot_dir(o, dir));
}

}  // namespace

TEST_CASE("snapshot dirs: each device from the shard that has it; none or two is unreadable") {
  test::TempDir t;
  const fs::path a = t.path / "a", b = t.path / "b", c = t.path / "c";
  for (const fs::path& d : {a, b, c}) fs::create_directories(d);
  snapshot_of("leaf1", a);
  snapshot_of("leaf2", b);
  snapshot_of("spine1", b);
  snapshot_of("spine1", c);  // a shard overlapped, or a run before left it
  snapshot_of("stranger", c);
  const SnapshotSet s =
      read_snapshot_dirs({a, b, c}, {"leaf1", "leaf2", "spine1", "host1"}, {"leaf1", "leaf2", "spine1", "host1"});
  CHECK(s.observed.devices.count("leaf1") == 1);
  CHECK(s.observed.devices.count("leaf2") == 1);
  REQUIRE(s.observed.failure("spine1") != nullptr);
  CHECK(s.observed.failure("spine1")->reason ==
        "snapshot files in " + b.string() + " and " + c.string() + ": which is current cannot be told");
  REQUIRE(s.observed.failure("host1") != nullptr);
  CHECK(s.observed.failure("host1")->reason ==
        "no snapshot file host1.json in " + a.string() + ", " + b.string() + " and " + c.string());
  // Files of devices the inventory does not know are still named, per directory.
  REQUIRE(s.warnings.size() == 1);
  CHECK(s.warnings.front().find("stranger.json") != std::string::npos);

  // One directory reads exactly as it always did.
  const SnapshotSet one = read_snapshot_dirs({a}, {"leaf1", "leaf2"});
  CHECK(one.observed.devices.count("leaf1") == 1);
  REQUIRE(one.observed.failure("leaf2") != nullptr);
  CHECK(one.observed.failure("leaf2")->reason == read_snapshot_dir(a, {"leaf2"}).observed.failure("leaf2")->reason);
}
