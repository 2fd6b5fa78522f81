// The repository's own files for tests: FABRICCTL_SOURCE_DIR, which CMake defines for the runner.
#pragma once

#include <string>

namespace fabricctl::test {

/// The repository's root, as a string to append "/profiles", "/inventory/lab" and the like to.
inline const std::string kSourceDir = FABRICCTL_SOURCE_DIR;

}  // namespace fabricctl::test
