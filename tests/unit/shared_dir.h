// Tests that need something from shared/ beside the repository (the SONiC YANG checker, reference
// device outputs). A clone of the repository alone must pass `make test`, so such a test runs when the
// file is there, fails when the CI environment variable is set (CI places shared/ and must run it), and
// otherwise skips: it prints "SKIP: <reason>", which ctest reports as skipped (SKIP_REGULAR_EXPRESSION on
// the discovered tests in CMakeLists.txt), and returns early.
#pragma once

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace fabricctl::test {

/// `relative` under shared/ beside the repository (FABRICCTL_SOURCE_DIR/../shared).
inline std::filesystem::path shared_path(const std::string& relative) {
  return std::filesystem::path(FABRICCTL_SOURCE_DIR).parent_path() / "shared" / relative;
}

/// True when `path` exists. Otherwise fails the test under CI, or prints the skip line ctest looks for.
inline bool shared_available(const std::filesystem::path& path) {
  if (std::filesystem::exists(path)) return true;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && *ci != '\0') {
    FAIL_CHECK("CI is set but " << path.string() << " is missing (shared/ must sit beside the repository)");
    return false;
  }
  std::printf("SKIP: %s is missing (shared/ does not sit beside the repository; set CI=1 to require it)\n",
              path.string().c_str());
  std::fflush(stdout);
  return false;
}

}  // namespace fabricctl::test

/// First statement of a test that needs `path` from shared/: returns early when it is absent.
#define FABRICCTL_REQUIRE_SHARED_OR_SKIP(path)              \
  do {                                                      \
    if (!::fabricctl::test::shared_available(path)) return; \
  } while (0)
