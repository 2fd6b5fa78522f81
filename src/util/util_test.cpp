#include <doctest/doctest.h>

#include <limits>

#include "util/diag.h"
#include "util/spell.h"
#include "util/text.h"

using namespace fabricctl;

TEST_CASE("closest_match suggests near misses only") {
  CHECK(closest_match("mtuu", {"mtu", "trust", "ecn"}) == "mtu");
  CHECK(closest_match("lossles_priorities", {"lossless_priorities", "roce"}) == "lossless_priorities");
  CHECK(closest_match("banana", {"mtu", "trust", "ecn"}).empty());
}

TEST_CASE("parse_int is strict") {
  CHECK(parse_int("26") == 26);
  CHECK(parse_int("-1") == -1);
  CHECK_FALSE(parse_int("0x1a"));
  CHECK_FALSE(parse_int(" 1"));
  CHECK_FALSE(parse_int("1.5"));
  CHECK_FALSE(parse_int(""));
  CHECK_FALSE(parse_int("99999999999999999999"));
}

TEST_CASE("natural_less orders interface names like a switch does") {
  CHECK(natural_less("Ethernet2", "Ethernet10"));
  CHECK_FALSE(natural_less("Ethernet10", "Ethernet2"));
  CHECK(natural_less("swp1s2", "swp10"));
  CHECK(natural_less("Ethernet1/2", "Ethernet1/10"));
  CHECK_FALSE(natural_less("eth0", "eth0"));
}

TEST_CASE("split_lines reads lines as getline does") {
  CHECK(split_lines("").empty());
  CHECK(split_lines("a") == std::vector<std::string>{"a"});
  CHECK(split_lines("a\n") == std::vector<std::string>{"a"});
  CHECK(split_lines("a\n\nb") == std::vector<std::string>{"a", "", "b"});
  CHECK(split_lines("\n") == std::vector<std::string>{""});
}

TEST_CASE("ranges compresses consecutive values") {
  CHECK(ranges({0, 1, 2, 5, 7, 8}) == "0-2,5,7-8");
  CHECK(ranges({3}) == "3");
  CHECK(ranges({}) == "");
  CHECK(ranges({0, 1, 2}, " ", "-") == "0-2");
}

TEST_CASE("diagnostics are sorted, de-duplicated and quote safely") {
  Diags d;
  auto f = std::make_shared<const std::string>("a.yaml");
  d.error({f, 3, 1}, "second");
  d.error({f, 1, 5}, "first");
  d.error({f, 3, 1}, "second");
  CHECK(d.str() == "a.yaml:1:5: first\na.yaml:3:1: second\n");
  CHECK(quote("a\"b\x1b") == "\"a\\\"b\\x1b\"");
  CHECK(quote("x\xc2\x9b"
              "2J") == "\"x\\u009b2J\"");                           // C1 CSI
  CHECK(quote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");                 // other UTF-8 passes
  const std::string long_utf8 = std::string(79, 'a') + "\xc3\xa9";  // cut would split the sequence
  CHECK(quote(long_utf8) == "\"" + std::string(79, 'a') + "...\"");
}

TEST_CASE("Diags: severities; only errors make the input invalid") {
  Diags d;
  const Loc at{std::make_shared<const std::string>("inv.yaml"), 3, 5};
  d.warning(at, "unused group \"g\"");
  d.note(at, "defined here");
  CHECK_FALSE(d.empty());
  CHECK_FALSE(d.has_errors());
  d.error(at, "bad value");
  d.error(at, "bad value");  // duplicates are dropped from the output
  CHECK(d.has_errors());
  CHECK(d.str() ==
        "inv.yaml:3:5: bad value\n"
        "inv.yaml:3:5: warning: unused group \"g\"\n"
        "inv.yaml:3:5: note: defined here\n");  // errors, then warnings, then notes
  CHECK(d.sorted().size() == 3);
  CHECK(d.sorted()[0].severity == DiagSeverity::error);
}

TEST_CASE("Diags::append moves another collection's diagnostics in, severities kept, duplicates dropped") {
  const Loc at{std::make_shared<const std::string>("t.mustache"), 0, 0};
  Diags main;
  main.error(at, "cannot read template");
  Diags worker;
  worker.error(at, "cannot read template");  // a second thread met the same broken template
  worker.warning(at, "slow");
  main.append(std::move(worker));
  CHECK(main.has_errors());
  CHECK(main.str() == "t.mustache: cannot read template\nt.mustache: warning: slow\n");
  Diags only_warnings;
  Diags w;
  w.warning(at, "slow");
  only_warnings.append(std::move(w));
  CHECK_FALSE(only_warnings.has_errors());
}

TEST_CASE("utc_from_epoch gives a device's epoch seconds as UTC, and no date for uptime-sized values") {
  CHECK(utc_from_epoch(1764741900) == "2025-12-03T06:05:00Z");
  CHECK(utc_from_epoch(1739835851.8256721) == "2025-02-17T23:44:11Z");
  CHECK(utc_from_epoch(5321).empty());
  CHECK(utc_from_epoch(-1).empty());
  CHECK(utc_from_epoch(1e300).empty());
  CHECK(utc_from_epoch(std::numeric_limits<double>::quiet_NaN()).empty());
}

TEST_CASE("first_and_more keeps a long list to its first few and a count") {
  CHECK(first_and_more({}).empty());
  CHECK(first_and_more({"a", "b"}) == "a, b");
  CHECK(first_and_more({"a", "b", "c"}) == "a, b, c");
  CHECK(first_and_more({"a", "b", "c", "d", "e"}) == "a, b, c and 2 more");
  CHECK(first_and_more({"a", "b"}, 1) == "a and 1 more");
}
