#include "cli/report_outputs.h"

#include <doctest/doctest.h>

using namespace fabricctl;

TEST_CASE("report outputs: FORMAT=FILE, the file may hold '=', the format must be known") {
  auto f = parse_report_file("junit=out/verify.xml");
  REQUIRE(f);
  CHECK(f->format == ReportFormat::junit);
  CHECK(f->path == "out/verify.xml");
  f = parse_report_file("json=a=b.json");
  REQUIRE(f);
  CHECK(f->format == ReportFormat::json);
  CHECK(f->path == "a=b.json");
  CHECK(parse_report_file("junit").error() == "--report \"junit\" is not FORMAT=FILE (e.g. --report junit=verify.xml)");
  CHECK(parse_report_file("json=").error() == "--report \"json=\" names no file");
  CHECK(parse_report_file("promethues=m.prom").error() ==
        "unknown report format \"promethues\"; did you mean \"prometheus\"? (table, json, junit, prometheus, html)");
  CHECK(parse_report_file("=x").error() == "unknown report format \"\" (table, json, junit, prometheus, html)");
}
