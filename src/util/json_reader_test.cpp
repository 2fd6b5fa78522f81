#include "util/json_reader.h"

#include <doctest/doctest.h>

#include <string>

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
  CHECK(parse_json(R"({"a": [1, 2, {"b": null}]})", {}).value()["a"][2].contains("b"));
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

TEST_CASE("paths quote keys that could inject text") {
  CHECK(child("", "ports") == "ports");
  CHECK(child("ports", "Ethernet1/1") == "ports.Ethernet1/1");
  CHECK(child("ports", "a b") == R"(ports."a b")");
  CHECK(child("ports", "\x1b[2J") == R"(ports."\x1b[2J")");
  CHECK(child("ports", "") == R"(ports."")");
  CHECK(element("ets", 3) == "ets[3]");
}

TEST_CASE("typed accessors name the path and quote the value") {
  auto port_mtu = [](const Json& doc) {
    const Json& ports = required(doc, "", "ports");
    expect_object(ports, "ports");
    const Json& p = required(ports, "ports", "Ethernet0");
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

  auto values = [](const Json& doc) {
    expect_array(required(doc, "", "list"), "list", 2, "items");
    // One statement per read: the order of evaluation inside one expression is unspecified.
    const uint64_t n = unsigned_integer(required(doc, "", "n"), "n");
    const bool b = bool_value(required(doc, "", "b"), "b");
    const std::string s = string_value(required(doc, "", "s"), "s");
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
  auto read = [](const Json& doc) { return integer(doc, "v", -5, 4294967295); };
  CHECK(read_json("4294967295", {}, read).value() == 4294967295);
  CHECK(read_json("-5", {}, read).value() == -5);
  CHECK(error_of("18446744073709551615", read) == R"(v: "18446744073709551615" is out of range -5-4294967295)");
  CHECK(error_of("-9223372036854775808", read) == R"(v: "-9223372036854775808" is out of range -5-4294967295)");
}
