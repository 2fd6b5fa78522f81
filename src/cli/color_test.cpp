#include "cli/color.h"

#include <doctest/doctest.h>

using namespace fabricctl;

TEST_CASE("color: auto colours a terminal only, NO_COLOR and TERM=dumb turn it off, always and never are final") {
  CHECK(use_color(ColorWhen::auto_, true, nullptr, "xterm-256color"));
  CHECK_FALSE(use_color(ColorWhen::auto_, false, nullptr, "xterm"));
  CHECK_FALSE(use_color(ColorWhen::auto_, true, "1", "xterm"));
  CHECK(use_color(ColorWhen::auto_, true, "", "xterm"));  // set but empty: no-color.org says ignore it
  CHECK_FALSE(use_color(ColorWhen::auto_, true, nullptr, "dumb"));
  CHECK(use_color(ColorWhen::always, false, "1", "dumb"));
  CHECK_FALSE(use_color(ColorWhen::never, true, nullptr, "xterm"));
  CHECK(parse_color_when("auto") == ColorWhen::auto_);
  CHECK(parse_color_when("always") == ColorWhen::always);
  CHECK(parse_color_when("never") == ColorWhen::never);
  CHECK_FALSE(parse_color_when("yes"));
}
