#include "cli/progress.h"

#include <unistd.h>

#include <iostream>

namespace fabricctl {

namespace {
// Carriage return, then erase to the end of the line (ECMA-48 EL): the next phase overwrites this one.
constexpr std::string_view kRewrite = "\r\x1b[K";
}  // namespace

void Progress::phase(std::string_view what) {
  if (!enabled_) return;
  err_ << kRewrite << "fabricctl: " << what << "..." << std::flush;
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  err_ << kRewrite << std::flush;
  shown_ = false;
}

Progress stderr_progress(bool quiet) { return Progress(!quiet && ::isatty(STDERR_FILENO) == 1, std::cerr); }

}  // namespace fabricctl
