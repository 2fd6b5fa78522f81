#include <doctest/doctest.h>

#include "util/interner.h"

using namespace fabricctl;

TEST_CASE("interner: one index per distinct string, stable across copies") {
  Interner names;
  const uint32_t leaf = names.intern("leaf1");
  const uint32_t eth = names.intern("Ethernet0");
  CHECK(leaf != eth);
  CHECK(names.intern(std::string("leaf") + "1") == leaf);
  CHECK(names.size() == 2);
  // Long strings (no small-string storage) survive growth of the table.
  const std::string long_name(100, 'x');
  const uint32_t id = names.intern(long_name);
  for (int i = 0; i < 1000; ++i) names.intern("port" + std::to_string(i));
  CHECK(names[id] == long_name);
  CHECK(names.intern(long_name) == id);
  const Interner copy = names;
  CHECK(copy[leaf] == "leaf1");
  Interner grown = copy;
  CHECK(grown.intern("leaf1") == leaf);
  CHECK(grown.intern("new") == copy.size());
}
