#include "ops/inventory_lock.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include "temp_dir.h"

using namespace fabricctl;

TEST_CASE("inventory lock: one apply of an inventory at a time; another inventory, or after, is free") {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path / "inv");
  {
    auto first = ops::lock_inventory(dir.path / "audit", dir.path / "inv", "2026-12-06T12:00:00Z");
    REQUIRE_MESSAGE(first, first.error());
    // The same inventory, named another way: refused, naming the holder.
    auto second = ops::lock_inventory(dir.path / "audit", dir.path / "inv/../inv/", "2026-12-06T12:00:01Z");
    REQUIRE_FALSE(second);
    CHECK(second.error() == "another apply of \"" + (dir.path / "inv").string() + "\" is running (pid " +
                                std::to_string(::getpid()) +
                                ", started 2026-12-06T12:00:00Z): one apply of an inventory at a time; nothing was "
                                "changed");
    CHECK(ops::lock_inventory(dir.path / "audit", dir.path / "other", "t"));
  }
  CHECK(ops::lock_inventory(dir.path / "audit", dir.path / "inv", "t"));
}
