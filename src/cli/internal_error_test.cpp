#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>

#include "cli/command.h"
#include "cli/internal_error.h"
#include "util/expected.h"

using namespace fabricctl;

TEST_CASE("run_guarded: a command's own exit code passes through") {
  std::ostringstream err;
  CHECK(run_guarded([] { return kExitDevice; }, err) == 3);
  CHECK(run_guarded([] { return kExitOk; }, err) == 0);
  CHECK(err.str().empty());
}

TEST_CASE("run_guarded: an escaped exception is an internal error, exit 4, never 3") {
  std::ostringstream err;
  CHECK(run_guarded([]() -> int { throw std::runtime_error("bad \x1b[2J state"); }, err) == kExitInternal);
  CHECK(kExitInternal == 4);
  CHECK(err.str() == "fabricctl: internal error: bad \\x1b[2J state\n");

  std::ostringstream err2;
  const Expected<int> failed = unexpected("no such file");
  CHECK(run_guarded([&] { return failed.value(); }, err2) == 4);
  CHECK(err2.str() == "fabricctl: internal error: value of a failed operation read: no such file\n");

  std::ostringstream err3;
  CHECK(run_guarded([]() -> int { throw 42; }, err3) == 4);
  CHECK(err3.str() == "fabricctl: internal error: unknown exception\n");

  std::ostringstream err4;
  CHECK(run_guarded([]() -> int { throw std::bad_alloc(); }, err4) == 4);
  CHECK(err4.str() == "fabricctl: internal error: out of memory\n");
}
