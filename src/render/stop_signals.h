// Ctrl-C during a render: SIGINT and SIGTERM ask the render to stop, so that it removes its staging
// directory and leaves OUT as it was, instead of dying with a half-written .fabricctl-stage-* beside it.
// The handler only sets a flag (async-signal-safe); the render checks it between devices and before
// it swaps the new tree in, and cleans up on its ordinary path.
#pragma once

#include <csignal>
#include <string_view>

namespace fabricctl {

/// The error render_fabric_into returns when a signal stopped it.
inline constexpr std::string_view kInterrupted = "interrupted";

/// While alive, SIGINT and SIGTERM set the stop flag instead of killing the process; the first one
/// also restores the default action, so a second Ctrl-C kills at once (what is left behind is removed
/// by the next render). A signal the process started with ignored (nohup) stays ignored.
class StopSignals {
 public:
  StopSignals();
  /// Restores the actions found when it was installed.
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// Restores the default action of the received signal and raises it, so that the process ends the
  /// way the signal means (exit status 128 + n in a shell). Returns if no signal was received.
  void reraise();

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

/// The signal (SIGINT or SIGTERM) received while StopSignals was installed, or 0.
int stop_signal();
/// stop_signal() != 0.
inline bool stop_requested() { return stop_signal() != 0; }

}  // namespace fabricctl
