#include "render/stop_signals.h"

#include <atomic>

namespace fabricctl {
namespace {

// Lock-free, so that the handler may store to it (async-signal-safe).
std::atomic<int> g_received{0};
static_assert(std::atomic<int>::is_always_lock_free);

void on_signal(int signal) { g_received.store(signal); }

/// Installs on_signal for `signal` (resetting to the default action once it runs), unless the
/// signal is ignored; `old` receives the previous action.
void install(int signal, struct sigaction& old) {
  ::sigaction(signal, nullptr, &old);
  if (old.sa_handler == SIG_IGN) return;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  ::sigaction(signal, &action, nullptr);
}

}  // namespace

StopSignals::StopSignals() {
  g_received.store(0);
  install(SIGINT, old_int_);
  install(SIGTERM, old_term_);
}

StopSignals::~StopSignals() {
  ::sigaction(SIGINT, &old_int_, nullptr);
  ::sigaction(SIGTERM, &old_term_, nullptr);
}

void StopSignals::reraise() {
  const int signal = g_received.load();
  if (signal == 0) return;
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, nullptr);
  ::raise(signal);
}

int stop_signal() { return g_received.load(); }

}  // namespace fabricctl
