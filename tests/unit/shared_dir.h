// Tests that need something from outside the repository: shared/ beside it (the SONiC YANG checker,
// reference device outputs) or a tool (sshd, strace). A clone of the repository alone must pass `make
// test`, so such a test runs when it is there, fails when the CI environment variable is set (CI
// provides everything and must run it), and otherwise skips: it prints "SKIP: <reason>" and returns
// early. Such cases are in the doctest suite "external", whose ctest test (unit.external in
// CMakeLists.txt) reports that line as skipped; anywhere else it fails its test.
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

/// What a test that lacks `what` does: fails under CI, otherwise prints the skip line. Returns false,
/// for `if (!...) return;`.
inline bool unavailable(const std::string& what) {
  const char* ci = std::getenv("CI");
  if (ci != nullptr && *ci != '\0') {
    FAIL_CHECK("CI is set but " << what);
    return false;
  }
  std::printf("SKIP: %s (set CI=1 to require it)\n", what.c_str());
  std::fflush(stdout);
  return false;
}

/// True when `path` exists. Otherwise fails the test under CI, or prints the skip line ctest looks for.
inline bool shared_available(const std::filesystem::path& path) {
  return std::filesystem::exists(path) ||
         unavailable(path.string() + " is missing (shared/ must sit beside the repository)");
}

}  // namespace fabricctl::test

/// First statement of a test that needs `path` from shared/: returns early when it is absent.
#define FABRICCTL_REQUIRE_SHARED_OR_SKIP(path)              \
  do {                                                      \
    if (!::fabricctl::test::shared_available(path)) return; \
  } while (0)
