#include "util/json_document.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using namespace fabricctl::jsonr;

namespace {

Document parsed(std::string_view text) {
  Document doc;
  REQUIRE(doc.parse(text) == simdjson::SUCCESS);
  return doc;
}

}  // namespace

TEST_CASE("Value: types, sizes and scalars") {
  const Document doc = parsed(R"({"n": null, "t": true, "f": false, "s": "x\u0000y", "i": -5, "u": 18446744073709551615,
                 "d": 9100.5, "a": [1, [2], {}], "o": {"k": 1}})");
  const Value root = doc.root();
  REQUIRE(root.is_object());
  CHECK(root.size() == 9);
  CHECK(root.find("n")->is_null());
  CHECK(root.find("t")->boolean());
  CHECK_FALSE(root.find("f")->boolean());
  CHECK(root.find("s")->string() == std::string_view("x\0y", 3));  // decoded, NUL included
  CHECK(root.find("i")->int64() == -5);
  CHECK_FALSE(root.find("i")->uint64().has_value());
  CHECK(root.find("u")->uint64() == 18446744073709551615ULL);
  CHECK_FALSE(root.find("u")->int64().has_value());
  CHECK(root.find("u")->is_integer());
  CHECK_FALSE(root.find("d")->is_integer());
  CHECK(root.find("d")->is_number());
  CHECK(root.find("a")->size() == 3);
  CHECK(root.find("o")->size() == 1);
  CHECK(root.find("s")->size() == 0);
  CHECK_FALSE(root.find("missing").has_value());
  CHECK_FALSE(root.find("a")->find("k").has_value());  // not an object: nothing to find
  // A value of the wrong type reads as empty, never as garbage.
  CHECK(root.find("i")->string().empty());
  CHECK_FALSE(root.find("s")->boolean());
  CHECK_FALSE(root.find("s")->int64().has_value());
}

TEST_CASE("Value: numbers are written as the reader's messages have always quoted them") {
  const Document doc = parsed("[5, -0, 9100.5, 1e3, 1E2, 1e100, -0.0, 18446744073709551615, -9223372036854775808]");
  std::vector<std::string> texts;
  for (const Value v : doc.root().elements()) texts.push_back(v.number_text());
  CHECK(texts == std::vector<std::string>{"5", "0", "9100.5", "1000.0", "100.0", "1e+100", "-0.0",
                                          "18446744073709551615", "-9223372036854775808"});
  CHECK(doc.root().number_text().empty());  // not a number
}

TEST_CASE("Value: members in document order, elements in order, none for other values") {
  const Document doc = parsed(R"({"z": 1, "a": 2, "m": [3, 4]})");
  std::vector<std::string_view> keys;
  for (const auto& [k, v] : doc.root().members()) keys.push_back(k);
  CHECK(keys == std::vector<std::string_view>{"z", "a", "m"});
  std::vector<int64_t> values;
  for (const Value v : doc.root().find("m")->elements()) values.push_back(*v.int64());
  CHECK(values == std::vector<int64_t>{3, 4});
  size_t n = 0;
  for ([[maybe_unused]] const auto& m : doc.root().find("m")->members()) ++n;
  for ([[maybe_unused]] const Value v : doc.root().elements()) ++n;
  CHECK(n == 0);
}

TEST_CASE("Document: several alive at once, moved, reused; a byte order mark is skipped") {
  // Parsers come from a per-thread pool: a second document must not take the first one's parser.
  Document a = parsed(R"({"name": "a"})");
  Document b = parsed(R"({"name": "b"})");
  CHECK(a.root().find("name")->string() == "a");
  CHECK(b.root().find("name")->string() == "b");
  Document moved = std::move(a);
  CHECK(moved.root().find("name")->string() == "a");
  b = std::move(moved);
  CHECK(b.root().find("name")->string() == "a");
  // Parsing again replaces what the document held.
  REQUIRE(b.parse("[1, 2]") == simdjson::SUCCESS);
  CHECK(b.root().size() == 2);
  REQUIRE(b.parse("\xef\xbb\xbf[true]") == simdjson::SUCCESS);
  CHECK(b.root().size() == 1);
  // Syntax errors are simdjson's; json_reader.h words them.
  CHECK(b.parse("[1,]") != simdjson::SUCCESS);
  CHECK(b.parse("") != simdjson::SUCCESS);
  CHECK(b.parse("[18446744073709551616]") != simdjson::SUCCESS);  // beyond 64 bits
  CHECK(b.parse("[\"\xff\"]") != simdjson::SUCCESS);              // not UTF-8
  CHECK(b.parse(std::string_view("[1]\0", 4)) != simdjson::SUCCESS);
  CHECK(b.parse("[1]") == simdjson::SUCCESS);
}
