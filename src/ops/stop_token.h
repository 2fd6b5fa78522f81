// A request to stop, polled between units of work (a device, a step): the command line's Ctrl-C
// handler is one source, a test's scripted moment another. No process-wide flag is read here.
#pragma once

#include <functional>
#include <utility>

namespace fabricctl::ops {

class StopToken {
 public:
  /// Never asks to stop.
  StopToken() = default;
  /// Asks to stop once `reason` returns non-zero (a signal number, or any non-zero code).
  explicit StopToken(std::function<int()> reason) : reason_(std::move(reason)) {}

  [[nodiscard]] bool stop_requested() const { return reason() != 0; }
  /// Why the run is asked to stop (the signal), or 0.
  [[nodiscard]] int reason() const { return reason_ ? reason_() : 0; }

 private:
  std::function<int()> reason_;
};

}  // namespace fabricctl::ops
