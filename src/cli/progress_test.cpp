#include "cli/progress.h"

#include <doctest/doctest.h>

#include <sstream>

using namespace fabricctl;

TEST_CASE("progress: rewrites one line on a terminal and erases it; prints nothing when disabled") {
  std::ostringstream tty;
  {
    Progress p(true, tty);
    p.phase("reading 3 snapshots");
    p.phase("running 22 checks");
    p.clear();
    p.clear();  // erasing twice writes nothing more
  }
  CHECK(tty.str() == "\r\x1b[Kfabricctl: reading 3 snapshots...\r\x1b[Kfabricctl: running 22 checks...\r\x1b[K");
  std::ostringstream log;
  {
    Progress p(false, log);
    p.phase("reading 3 snapshots");
  }
  CHECK(log.str().empty());
}
