// The last line of defence: an exception that escapes a command is a bug (or memory exhaustion),
// never a verdict about the fabric. It gets its own exit code, 4, so that automation can tell
// "fabricctl broke" from 3, "fabricctl could not see every device".
#pragma once

#include <functional>
#include <ostream>

namespace fabricctl {

/// Runs `body` and returns its exit code; if it throws, prints one line
/// "fabricctl: internal error: <what>" to `err` and returns kExitInternal (4).
int run_guarded(const std::function<int()>& body, std::ostream& err);

}  // namespace fabricctl
