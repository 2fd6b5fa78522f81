#include "util/json_reader.h"

#include <doctest/doctest.h>

#include <array>
#include <string>
#include <string_view>

using namespace fabricctl;
using namespace fabricctl::jsonr;

namespace {

// Runs `read` on `text`; the error, or "<ok>".
template <typename F>
std::string error_of(std::string_view text, F read, JsonLimits limits = {}) {
  auto r = read_json(text, limits, read);
  return r ? "<ok>" : r.error();
}

std::string parse_error(std::string_view text, JsonLimits limits = {}) {
  auto r = parse_json(text, limits);
  return r ? "<ok>" : r.error();
}

}  // namespace

TEST_CASE("parse_json: strict, limited, located") {
  {
    const auto doc = parse_json(R"({"a": [1, 2, {"b": null}]})", {});
    REQUIRE(doc);
    const auto a = doc->root().find("a");
    REQUIRE(a);
    REQUIRE(a->size() == 3);
    size_t n = 0;
    for (const Value e : a->elements())
      if (++n == 3) CHECK(e.find("b").has_value());
  }
  CHECK(parse_error("{", {}) ==
        "invalid JSON at line 1, column 2 (byte offset 1): syntax error while parsing object key - unexpected end of "
        "input; expected string literal");
  CHECK(parse_error("{\n  \"a\": tru\x1b}") ==
        "invalid JSON at line 2, column 11 (byte offset 12): syntax error while parsing value - invalid literal");
  CHECK(parse_error(R"({"ports": {"e0": {"mtu": 1, "mtu": 2}}})") == "ports.e0.mtu: duplicate key");
  CHECK(parse_error(R"({"a": [[[1]]]})", {1024, 3}) == "a[0][0]: nesting deeper than 3 levels");
  CHECK(parse_error(R"({"a": [[1]]})", {1024, 3}) == "<ok>");
  CHECK(parse_error("[1, 2]", {5, 16}) == "text is 6 bytes, more than the limit of 5 bytes");
  CHECK(parse_error("[1, 2]", {6, 16}) == "<ok>");
  CHECK(parse_error("").starts_with("invalid JSON at line 1, column 1"));
}

TEST_CASE("parse_json: as strict as the nlohmann reader it replaced, with the same messages") {
  // Duplicate keys anywhere: deep inside, in a large object (found by sorting), equal once unescaped.
  CHECK(parse_error(R"({"p": {"e0": {"rdma": {"gids": [{"index": 0}, {"index": 1, "type": "IB", "index": 2}]}}}})") ==
        "p.e0.rdma.gids[1].index: duplicate key");
  std::string large = R"({"o": {)";
  for (int i = 0; i < 40; ++i) large += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  CHECK(parse_error(large + R"("k40": 0}})") == "<ok>");
  CHECK(parse_error(large + R"("k7": 0}})") == "o.k7: duplicate key");
  CHECK(parse_error(R"({"a": 1, "\u0061": 2})") == "a: duplicate key");
  CHECK(parse_error(R"({"a\u0000b": 1, "a\u0000c": 2})") == "<ok>");  // keys differ after the NUL
  CHECK(parse_error(R"([{"a": 1}, {"a": 2}])") == "<ok>");            // the same key in two objects

  // Depth: max_depth levels are fine, one more is not; also past simdjson's own limit of 1024.
  CHECK(parse_error("[[[]]]", {1024, 3}) == "<ok>");
  CHECK(parse_error(R"([[{"a": 1}]])", {1024, 3}) == "<ok>");
  CHECK(parse_error("[[[[]]]]", {1024, 3}) == "[0][0][0]: nesting deeper than 3 levels");
  CHECK(parse_error(R"([[{"a": {}}]])", {1024, 3}) == "[0][0].a: nesting deeper than 3 levels");
  std::string path;
  for (int i = 0; i < 16; ++i) path += "[0]";
  CHECK(parse_error(std::string(2000, '[') + std::string(2000, ']')) == path + ": nesting deeper than 16 levels");

  // The first problem in document order, whatever kind.
  CHECK(parse_error(R"({"a": 1, "a": 2, "b": tru})") == "a: duplicate key");
  CHECK(parse_error(R"({"b": tru, "a": 1, "a": 2})") ==
        "invalid JSON at line 1, column 10 (byte offset 9): syntax error while parsing value - invalid literal");

  // Bytes: invalid UTF-8 in a string and in a key, an overlong NUL, a lone surrogate, a raw control
  // character, a raw NUL in a string; a byte order mark is skipped, as nlohmann's parser does.
  CHECK(parse_error("{\"a\": \"\xff\"}") ==
        "invalid JSON at line 1, column 8 (byte offset 7): syntax error while parsing value - invalid string: "
        "ill-formed UTF-8 byte");
  CHECK(parse_error("{\"\xc3\x28\": 1}") ==
        "invalid JSON at line 1, column 4 (byte offset 3): syntax error while parsing object key - invalid string: "
        "ill-formed UTF-8 byte; expected string literal");
  CHECK(parse_error("[\"\xc0\x80\"]").starts_with("invalid JSON at line 1, column 3 (byte offset 2): "));
  CHECK(parse_error(R"(["\ud800"])") ==
        "invalid JSON at line 1, column 9 (byte offset 8): syntax error while parsing value - invalid string: "
        "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF");
  CHECK(parse_error("[\"a\tb\"]").starts_with("invalid JSON at line 1, column 4 (byte offset 3): "));
  CHECK(parse_error(std::string_view("{\"a\": \"x\0y\"}", 12)) ==
        "invalid JSON at line 1, column 9 (byte offset 8): syntax error while parsing value - invalid string: "
        "control character U+0000 (NUL) must be escaped to \\u0000");
  CHECK(parse_error("\xef\xbb\xbf{\"a\": 1}") == "<ok>");
  CHECK(parse_error("   ").starts_with("invalid JSON at line 1, column 4 (byte offset 3): "));
  CHECK(parse_error("[1e400]") ==
        "invalid JSON at line 1, column 6 (byte offset 5): [json.exception.out_of_range.406] number overflow parsing "
        "'1e400'");
}

TEST_CASE("parse_json: equal_duplicates accepts a key repeated with an equal value, and nothing else") {
  JsonLimits lenient;
  lenient.equal_duplicates = true;
  // As Junos prints it (tests/fixtures/junos/show-interfaces-display-json.vqfx-17.4R1.txt): the same
  // element twice in one object, with other members between.
  const std::string junos = R"({"p": [{"eth-switch-error": [{"data": "none"}], "bpdu-error": [{"data": "none"}], )"
                            R"("eth-switch-error": [{"data": "none"}]}]})";
  CHECK(parse_error(junos) == "p[0].eth-switch-error: duplicate key");  // the default is unchanged
  CHECK(parse_error(junos, lenient) == "<ok>");
  {
    const auto doc = parse_json(
        R"({"a": {"x": 1, "y": [true, null, "s", 1.5]}, "b": 2, "a": {"x": 1, "y": [true, null, "s", 1.5]}})", lenient);
    REQUIRE(doc);
    CHECK(doc->root().size() == 3);
    CHECK(doc->root().find("a")->find("x")->int64() == 1);  // find() gives the first
  }
  // Three times, in a large object (looked up by hash), and under an escape.
  std::string large = R"({"o": {"k": 0, )";
  for (int i = 0; i < 40; ++i) large += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  CHECK(parse_error(large + R"("k": 0, "k7": 7, "k": 0}})", lenient) == "<ok>");
  CHECK(parse_error(large + R"("k7": 8}})", lenient) == "o.k7: duplicate key with a different value");
  CHECK(parse_error(R"({"a": "x", "\u0061": "x"})", lenient) == "<ok>");
  CHECK(parse_error(R"({"a": "x", "\u0061": "y"})", lenient) == "a: duplicate key with a different value");

  // A different value of any kind is refused, with the path of the repeated key.
  for (const char* other :
       {R"("2")", "2.0", "true", "null", "[1]", R"({"x": 1})", R"({"x": 1, "y": 2, "x": 1})", R"([{"data": "nonE"}])",
        R"([{"data": "none"}, {"data": "none"}])", R"([{"attributes": {}, "data": "none"}])"}) {
    CAPTURE(other);
    CHECK(parse_error(std::string(R"({"p": {"a": [{"data": "none"}], "b": 1, "a": )") + other + "}}", lenient) ==
          "p.a: duplicate key with a different value");
  }
  CHECK(parse_error(R"({"a": 2, "a": 2.0})", lenient) == "a: duplicate key with a different value");
  CHECK(parse_error(R"({"a": {"x": 1, "y": 2}, "a": {"y": 2, "x": 1}})", lenient) ==
        "a: duplicate key with a different value");  // the same members in another order

  // The other rules still hold, and the first problem in document order is the one reported.
  CHECK(parse_error(R"({"a": [[[1]]]})", {1024, 3, true}) == "a[0][0]: nesting deeper than 3 levels");
  CHECK(parse_error(R"({"a": [[1]], "a": [[1]]})", {1024, 3, true}) == "<ok>");
  CHECK(parse_error(R"({"a": [[1]], "a": [[[1]]]})", {1024, 3, true}) == "a: duplicate key with a different value");
  CHECK(parse_error(R"({"a": 1, "a": 2, "b": [[[1]]]})", {1024, 3, true}) == "a: duplicate key with a different value");
  CHECK(parse_error(R"({"b": [[[1]]], "a": 1, "a": 2})", {1024, 3, true}) == "b[0][0]: nesting deeper than 3 levels");
  CHECK(parse_error("[1, 2]", {5, 16, true}) == "text is 6 bytes, more than the limit of 5 bytes");
  // Invalid JSON: its syntax error, not an equal repeated key before it (the locator does not compare
  // values, so it does not judge repeated keys at all here).
  CHECK(parse_error(R"({"a": 1, "a": 1, "b": tru})", lenient) ==
        "invalid JSON at line 1, column 26 (byte offset 25): syntax error while parsing value - invalid literal");
  CHECK(parse_error(R"({"a": 1, "a": 2, "b": tru})", lenient).starts_with("invalid JSON at line 1, column 26"));
  CHECK(
      parse_error("[18446744073709551616]", lenient).starts_with("[0]: \"18446744073709551616\" is an integer beyond"));
}

TEST_CASE("parse_json: what the nlohmann reader let through and this one refuses, with a message of its own") {
  // Integers beyond 64 bits: nlohmann read them as doubles, and every schema rejected them later
  // ("expected an integer, got a number ..."); simdjson refuses them while parsing.
  CHECK(parse_error(R"({"c": {"x": 18446744073709551616}})") ==
        R"(c.x: "18446744073709551616" is an integer beyond 64 bits (-9223372036854775808 to 18446744073709551615))");
  CHECK(parse_error("[1, -9223372036854775809]") ==
        R"([1]: "-9223372036854775809" is an integer beyond 64 bits (-9223372036854775808 to 18446744073709551615))");
  CHECK(parse_error("[18446744073709551615, -9223372036854775808]") == "<ok>");
  // A NUL byte after the document: nlohmann stopped reading there and ignored the rest.
  CHECK(parse_error(std::string_view("{\"a\": 1}\0garbage", 16)) ==
        "invalid JSON at line 1, column 9 (byte offset 8): a NUL byte after the document; expected end of input");
}

TEST_CASE("fields: one pass, the keys in the order asked, unknown keys as check_keys words them") {
  constexpr std::array<std::string_view, 3> kKeys = {"tc", "tsa", "bandwidth_pct"};
  auto read = [&](Value doc) {
    const auto [tc, tsa, bw] = fields(doc, "ets[0]", kKeys);
    std::string out = std::to_string(integer(required(tc, "ets[0]", "tc"), "ets[0].tc", 0, 7));
    out += tsa ? " " + std::string(string_value(*tsa, "ets[0].tsa")) : " -";
    out += bw ? " " + std::to_string(integer(*bw, "ets[0].bandwidth_pct", 0, 100)) : " -";
    return out;
  };
  CHECK(read_json(R"({"bandwidth_pct": 50, "tc": 3, "tsa": "ets"})", {}, read).value() == "3 ets 50");
  CHECK(read_json(R"({"tc": 6})", {}, read).value() == "6 - -");
  CHECK(error_of(R"({"tsa": "ets"})", read) == R"(ets[0]: missing required key "tc")");
  CHECK(error_of(R"({"tc": 1, "tcc": 2})", read) == R"(ets[0].tcc: unknown key; did you mean "tc"?)");
  CHECK(error_of("[]", read) == R"(ets[0]: missing required key "tc")");  // not an object: no members
}

TEST_CASE("check_keys names the first unknown key in sorted order, whatever the document order") {
  // Objects used to be std::maps, so messages named the smallest unknown key; they still do.
  auto read = [](Value doc) {
    check_keys(doc, "p", {"mtu", "trust"});
    return 0;
  };
  CHECK(error_of(R"({"zz": 1, "mtu": 1, "bb": 2})", read) == "p.bb: unknown key (expected one of: mtu, trust)");
  CHECK(error_of(R"({"bb": 1, "zz": 2})", read) == "p.bb: unknown key (expected one of: mtu, trust)");
  CHECK(read_json(R"({"trust": 1, "mtu": 1})", {}, read).has_value());
}

TEST_CASE("typed accessors name the path and quote the value") {
  auto port_mtu = [](Value doc) {
    const Value ports = required(doc, "", "ports");
    expect_object(ports, "ports");
    const Value p = required(ports, "ports", "Ethernet0");
    check_keys(p, child("ports", "Ethernet0"), {"mtu", "trust", "up", "pcp"});
    return integer(required(p, "ports.Ethernet0", "mtu"), "ports.Ethernet0.mtu", 1, 65535);
  };
  CHECK(read_json(R"({"ports": {"Ethernet0": {"mtu": 9100}}})", {}, port_mtu).value() == 9100);
  CHECK(error_of(R"({"ports": {"Ethernet0": {"mtu": 70000}}})", port_mtu) ==
        R"(ports.Ethernet0.mtu: "70000" is out of range 1-65535)");
  CHECK(error_of(R"({"ports": {"Ethernet0": {"mtu": "9100"}}})", port_mtu) ==
        R"(ports.Ethernet0.mtu: expected an integer, got a string "9100")");
  CHECK(error_of(R"({"ports": {"Ethernet0": {"mtu": 9100.5}}})", port_mtu) ==
        R"(ports.Ethernet0.mtu: expected an integer, got a number "9100.5")");
  CHECK(error_of(R"({"ports": {"Ethernet0": {"mtuu": 1}}})", port_mtu) ==
        R"(ports.Ethernet0.mtuu: unknown key; did you mean "mtu"?)");
  CHECK(error_of(R"({"ports": {"Ethernet0": {"zzzzzz": 1}}})", port_mtu) ==
        "ports.Ethernet0.zzzzzz: unknown key (expected one of: mtu, trust, up, pcp)");
  CHECK(error_of(R"({"ports": {}})", port_mtu) == R"(ports: missing required key "Ethernet0")");
  CHECK(error_of(R"({"ports": []})", port_mtu) == "ports: expected an object, got an array");
  CHECK(error_of("[]", port_mtu) == R"(missing required key "ports")");  // find on an array finds nothing
  CHECK(error_of("{", port_mtu).starts_with("invalid JSON at line 1"));

  auto values = [](Value doc) {
    expect_array(required(doc, "", "list"), "list", 2, "items");
    // One statement per read: the order of evaluation inside one expression is unspecified.
    const uint64_t n = unsigned_integer(required(doc, "", "n"), "n");
    const bool b = bool_value(required(doc, "", "b"), "b");
    const std::string s(string_value(required(doc, "", "s"), "s"));
    const size_t c = choice(required(doc, "", "c"), "c", {"dscp", "pcp"});
    return std::to_string(n) + " " + (b ? "true" : "false") + " " + s + " " + std::to_string(c);
  };
  CHECK(read_json(R"({"list": [1, 2], "n": 18446744073709551615, "b": true, "s": "x", "c": "pcp"})", {}, values)
            .value() == "18446744073709551615 true x 1");
  CHECK(error_of(R"({"list": [1, 2, 3]})", values) == "list: 3 items are more than the limit of 2");
  CHECK(error_of(R"({"list": 1})", values) == R"(list: expected an array, got a number "1")");
  CHECK(error_of(R"({"list": [], "n": -1})", values) == R"(n: "-1" is negative; counters are non-negative integers)");
  CHECK(error_of(R"({"list": [], "n": 1, "b": "yes"})", values) == R"(b: expected true or false, got a string "yes")");
  CHECK(error_of(R"({"list": [], "n": 1, "b": true, "s": 5})", values) == R"(s: expected a string, got a number "5")");
  CHECK(error_of(R"({"list": [], "n": 1, "b": true, "s": "x", "c": "PCP"})", values) ==
        R"(c: "PCP" is not one of "dscp", "pcp")");
}

TEST_CASE("integer handles the whole 64-bit range without overflow") {
  auto read = [](Value doc) { return integer(doc, "v", -5, 4294967295); };
  CHECK(read_json("4294967295", {}, read).value() == 4294967295);
  CHECK(read_json("-5", {}, read).value() == -5);
  CHECK(error_of("18446744073709551615", read) == R"(v: "18446744073709551615" is out of range -5-4294967295)");
  CHECK(error_of("-9223372036854775808", read) == R"(v: "-9223372036854775808" is out of range -5-4294967295)");
}
