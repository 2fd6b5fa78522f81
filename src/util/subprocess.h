// Running a local tool (git, tar) without a shell: the arguments reach it exactly as given, so no
// value can be read as shell syntax.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "util/expected.h"

namespace fabricctl {

/// Runs argv[0] (looked up in PATH) with argv, stdin from /dev/null, and returns what it printed on
/// stdout and stderr together, at most `max_output` bytes (the rest is read and dropped). With
/// `errors`, what it printed on stderr goes there instead (at most `max_output` bytes too), so that a
/// warning never mixes into output that is parsed (lldpcli's JSON). The error, when it cannot start or
/// exits non-zero, is "NAME exited with status N: <first line it printed>", stderr's first where it
/// printed one.
Expected<std::string> run_command(const std::vector<std::string>& argv, size_t max_output = 1 << 20,
                                  std::string* errors = nullptr);

}  // namespace fabricctl
