#include "cli/sleep.h"

#include <algorithm>
#include <thread>

#include "render/stop_signals.h"

namespace fabricctl {

bool sleep_unless_stopped(std::chrono::milliseconds d) {
  const auto until = std::chrono::steady_clock::now() + d;
  while (!stop_requested()) {
    const auto left = until - std::chrono::steady_clock::now();
    if (left <= std::chrono::milliseconds(0)) return true;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(100)));
  }
  return false;
}

}  // namespace fabricctl
