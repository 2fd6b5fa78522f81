// Progress of a long run on stderr, for a person at a terminal: one line, rewritten in place
// ("fabricctl: reading 16032 snapshots..."), erased when the run ends. Off when stderr is not a
// terminal (logs and CI get no control sequences) and with -q. It is the terminal's observer of the
// operations (ops/observer.h): they report phases, it shows them.
#pragma once

#include <ostream>
#include <string_view>

#include "ops/observer.h"

namespace fabricctl {

class Progress : public ops::Observer {
 public:
  /// `enabled`: stderr is a terminal and -q was not given.
  Progress(bool enabled, std::ostream& err) : enabled_(enabled), err_(err) {}
  ~Progress() override { Progress::clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Shows what the run is doing now, replacing the previous line.
  void phase(std::string_view what) override;
  /// Erases the line, before anything else is printed to stderr and at the end.
  void clear() override;

 private:
  bool enabled_;
  bool shown_ = false;
  std::ostream& err_;
};

/// Progress on standard error: shown when it is a terminal and the user did not ask for -q.
Progress stderr_progress(bool quiet);

}  // namespace fabricctl
