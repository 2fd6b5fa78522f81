// The commands' real waits (health --watch between readings, acceptance between a client's tries): in
// slices of 100 ms, so that Ctrl-C or a service manager's stop ends them soon. The operations take the
// wait as a function, and their tests a fake one.
#pragma once

#include <chrono>

namespace fabricctl {

/// Waits `d`; false, sooner, when SIGINT or SIGTERM asked to stop (render/stop_signals.h).
bool sleep_unless_stopped(std::chrono::milliseconds d);

}  // namespace fabricctl
