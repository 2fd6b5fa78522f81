// Phase timings for performance work: with FABRICCTL_TIMINGS set in the environment, each phase
// prints "fabricctl: timing: <phase> <wall> s wall, <cpu> s CPU" on stderr when it ends. CPU time is
// the process's (all threads), so a parallel phase shows CPU above wall. Off by default: one
// getenv per phase.
#pragma once

#include <ctime>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fabricctl {

class PhaseTimer {
 public:
  explicit PhaseTimer(std::string_view phase)
      : phase_(phase),
        on_(std::getenv("FABRICCTL_TIMINGS") != nullptr),
        wall_(std::chrono::steady_clock::now()),
        cpu_(process_cpu()) {}
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  ~PhaseTimer() {
    if (!on_) return;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_).count();
    std::fprintf(stderr, "fabricctl: timing: %.*s %.3f s wall, %.3f s CPU\n", static_cast<int>(phase_.size()),
                 phase_.data(), wall, process_cpu() - cpu_);
  }

 private:
  static double process_cpu() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
  }

  std::string_view phase_;
  bool on_;
  std::chrono::steady_clock::time_point wall_;
  double cpu_;
};

}  // namespace fabricctl
