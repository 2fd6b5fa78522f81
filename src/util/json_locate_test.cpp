#include "util/json_locate.h"

#include <doctest/doctest.h>

#include <string>

using namespace fabricctl::jsonr;

TEST_CASE("locate_json_error: the first problem in document order, located") {
  CHECK(locate_json_error(R"({"a": [1, {"b": null}]})", 16).empty());
  CHECK(locate_json_error("{\n  \"a\": 1,\n  \"b\": tru\n}", 16) ==
        "invalid JSON at line 3, column 11 (byte offset 22): syntax error while parsing value - invalid literal");
  CHECK(locate_json_error(R"({"a": {"b": 1, "b": 2}})", 16) == "a.b: duplicate key");
  CHECK(locate_json_error(R"({"a": [[1]]})", 3).empty());
  CHECK(locate_json_error(R"({"a": [[[1]]]})", 3) == "a[0][0]: nesting deeper than 3 levels");
  // Whichever comes first in the text is reported.
  CHECK(locate_json_error(R"({"a": 1, "a": 2, "b": tru})", 16) == "a: duplicate key");
  CHECK(locate_json_error(R"({"b": tru, "a": 1, "a": 2})", 16).starts_with("invalid JSON at line 1, column 10 "));
  // The parser's echo of the input ("last read: ...") is dropped: it can be long and hostile.
  CHECK(locate_json_error("[\"\x1b[2J", 16).find('\x1b') == std::string::npos);
}

TEST_CASE("locate_json_error: what nlohmann alone would accept but the reader refuses") {
  // An integer beyond 64 bits: nlohmann reads it as a double, simdjson refuses it.
  CHECK(locate_json_error(R"({"c": {"x": 18446744073709551616}})", 16) ==
        R"(c.x: "18446744073709551616" is an integer beyond 64 bits (-9223372036854775808 to 18446744073709551615))");
  CHECK(locate_json_error("[1, -9223372036854775809]", 16).starts_with(R"([1]: "-9223372036854775809" is an integer)"));
  CHECK(locate_json_error("18446744073709551616", 16).starts_with(R"("18446744073709551616" is an integer beyond)"));
  CHECK(locate_json_error("[18446744073709551615, -9223372036854775808, 1.5e300, 1e2]", 16).empty());
  // A NUL byte after the document: nlohmann takes it for the end of the input.
  CHECK(locate_json_error(std::string_view("{\"a\": 1}\n\0x", 11), 16) ==
        "invalid JSON at line 2, column 1 (byte offset 9): a NUL byte after the document; expected end of input");
  // Inside a string a raw NUL is a control character, as before.
  CHECK(locate_json_error(std::string_view("[\"x\0\"]", 6), 16) ==
        "invalid JSON at line 1, column 4 (byte offset 3): syntax error while parsing value - invalid string: "
        "control character U+0000 (NUL) must be escaped to \\u0000");
}
