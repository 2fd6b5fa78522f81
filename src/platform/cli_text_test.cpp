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

TEST_CASE("dash table: tabulate's spans take a right-aligned wide value; left-aligned ones run to the next column") {
  // A number right-aligned under a short header reaches left into the gap: tabulate spans keep it whole.
  const std::string tabulate = "Port    Speed\n------  -----\nEth0   100000\n";
  auto t = parse_dash_table(tabulate, {"Port", "Speed"}, CellSpan::tabulate);
  REQUIRE_MESSAGE(t, t.error());
  REQUIRE(t->size() == 1);
  CHECK(t->front().at("Port") == "Eth0");
  CHECK(t->front().at("Speed") == "100000");
  // NVUE pads cells and leaves the last column open-ended: a cell longer than its dashes stays whole.
  const std::string left =
      "Interface  Remote Host\n---------  -----------\nswp1       spine01.example.net\n"
      "===\nswp2       x\n";
  auto l = parse_dash_table(left, {"Interface", "Remote Host"}, CellSpan::left_aligned);
  REQUIRE_MESSAGE(l, l.error());
  REQUIRE(l->size() == 1);  // the section title ends the table
  CHECK(l->front().at("Remote Host") == "spine01.example.net");
  const auto missing = parse_dash_table(left, {"Remote Port"}, CellSpan::left_aligned);
  REQUIRE_FALSE(missing);
  CHECK(missing.error() == "the table has no column \"Remote Port\" (columns: Interface, Remote Host)");
}
