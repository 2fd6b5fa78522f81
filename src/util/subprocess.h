// Running a local tool (git, tar) without a shell: the arguments reach it exactly as given, so no
// value can be read as shell syntax.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "util/expected.h"

namespace fabricctl {

/// Runs argv[0] (looked up in PATH) with argv, stdin from /dev/null, and returns what it printed on
/// stdout and stderr together, at most `max_output` bytes (the rest is read and dropped). The error,
/// when it cannot start or exits non-zero, is "NAME exited with status N: <first line it printed>".
Expected<std::string> run_command(const std::vector<std::string>& argv, size_t max_output = 1 << 20);

}  // namespace fabricctl
