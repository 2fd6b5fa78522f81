#include "platform/cli_text.h"

#include <doctest/doctest.h>

using namespace fabricctl;

TEST_CASE("cli text: trimmed cells, lines, and the dash rule under a header") {
  CHECK(trim_cell(" \tEthernet0 \r") == "Ethernet0");
  CHECK(trim_cell("   ").empty());
  CHECK(text_lines("a\nb\n\nc") == std::vector<std::string_view>{"a", "b", "", "c"});
  CHECK(text_lines("").empty());
  CHECK(dash_rule("-----------  -------  ----"));
  CHECK(dash_rule("  ---\r"));
  CHECK_FALSE(dash_rule("   "));
  CHECK_FALSE(dash_rule("---- x ---"));
}
