// RFC 6902 diff: exact operations for small documents, and base + diff == desired applied with an
// independent implementation (nlohmann's patch()).
#include <doctest/doctest.h>

#include <random>
#include <string>

#include "platform/json_patch.h"

using namespace fabricctl;
using nlohmann::ordered_json;

namespace {

ordered_json j(const char* text) { return ordered_json::parse(text); }

/// Applies the diff from `base` to `desired` to a copy of `base` and returns it.
ordered_json roundtrip(const ordered_json& base, const ordered_json& desired, int depth) {
  ordered_json doc = base;
  const auto error = apply_json_patch(doc, json_diff(base, desired, depth));
  REQUIRE_MESSAGE(!error, *error);
  return doc;
}

}  // namespace

TEST_CASE("json_pointer_token escapes ~ and / the RFC 6901 way, once") {
  CHECK(json_pointer_token("Ethernet0|3") == "Ethernet0|3");
  CHECK(json_pointer_token("a/b~c") == "a~1b~0c");
  CHECK(json_pointer_token("~1") == "~01");
  CHECK(json_pointer_token("") == "");
}

TEST_CASE("json_pointer_tokens reads a pointer back into the names json_pointer_token escaped") {
  using V = std::vector<std::string>;
  CHECK(json_pointer_tokens("/PORT/Ethernet0/mtu") == V{"PORT", "Ethernet0", "mtu"});
  CHECK(json_pointer_tokens("/" + json_pointer_token("a/b~c") + "/x") == V{"a/b~c", "x"});
  CHECK(json_pointer_tokens("/T/") == V{"T", ""});
  CHECK(json_pointer_tokens("").empty());
  CHECK(json_pointer_tokens("PORT").empty());
}

TEST_CASE("json_diff: add, remove and replace at table, key and field level") {
  const ordered_json base = j(R"({"T": {"k": {"a": "1", "b": "2"}, "gone": {"x": "1"}}, "OLD": {}})");
  const ordered_json desired =
      j(R"({"T": {"k": {"a": "1", "b": "3", "c": "4"}, "new": {"y": "2"}}, "NEW": {"n": {}}})");

  SUBCASE("field level") {
    CHECK(json_diff(base, desired, 3) == j(R"([
      {"op": "replace", "path": "/T/k/b", "value": "3"},
      {"op": "add", "path": "/T/k/c", "value": "4"},
      {"op": "add", "path": "/T/new", "value": {"y": "2"}},
      {"op": "remove", "path": "/T/gone"},
      {"op": "add", "path": "/NEW", "value": {"n": {}}},
      {"op": "remove", "path": "/OLD"}
    ])"));
  }
  SUBCASE("key level: a changed entry is replaced whole") {
    CHECK(json_diff(base, desired, 2) == j(R"([
      {"op": "replace", "path": "/T/k", "value": {"a": "1", "b": "3", "c": "4"}},
      {"op": "add", "path": "/T/new", "value": {"y": "2"}},
      {"op": "remove", "path": "/T/gone"},
      {"op": "add", "path": "/NEW", "value": {"n": {}}},
      {"op": "remove", "path": "/OLD"}
    ])"));
  }
  SUBCASE("table level") {
    CHECK(json_diff(base, desired, 1).size() == 3);  // replace /T, add /NEW, remove /OLD
    CHECK(json_diff(base, desired, 1)[0]["op"] == "replace");
    CHECK(json_diff(base, desired, 1)[0]["path"] == "/T");
  }
  for (int depth = 0; depth <= 4; ++depth) {
    CAPTURE(depth);
    CHECK(json_equal(roundtrip(base, desired, depth), desired));
  }
}

TEST_CASE("json_equal: member order does not count, array order does") {
  CHECK(json_equal(j(R"({"a": 1, "b": {"c": [1, 2], "d": 2}})"), j(R"({"b": {"d": 2, "c": [1, 2]}, "a": 1})")));
  CHECK_FALSE(json_equal(j(R"({"b": [1, 2]})"), j(R"({"b": [2, 1]})")));
  CHECK_FALSE(json_equal(j(R"({"a": 1})"), j(R"({"a": 1, "b": 1})")));
  CHECK_FALSE(json_equal(j(R"({"a": "1"})"), j(R"({"a": 1})")));
}

TEST_CASE("json_diff: equal documents give an empty patch; order follows desired, then base") {
  const ordered_json doc = j(R"({"A": {"1": "x"}, "B": {"2": "y"}})");
  CHECK(json_diff(doc, doc, 3) == ordered_json::array());
  // Member order does not count as a difference.
  CHECK(json_diff(j(R"({"B": {"2": "y"}, "A": {"1": "x"}})"), doc, 3) == ordered_json::array());
  const ordered_json ops = json_diff(j(R"({"Z": 1, "Y": 2})"), j(R"({"B": 1, "A": 2})"), 1);
  CHECK(ops == j(R"([{"op": "add", "path": "/B", "value": 1}, {"op": "add", "path": "/A", "value": 2},
                     {"op": "remove", "path": "/Z"}, {"op": "remove", "path": "/Y"}])"));
}

TEST_CASE("json_diff: names with / and ~ land on the same member") {
  const ordered_json base = j(R"({"T": {"a/b": {"~f": "1"}}})");
  const ordered_json desired = j(R"({"T": {"a/b": {"~f": "2"}, "c~1": {}}})");
  const ordered_json ops = json_diff(base, desired, 3);
  CHECK(ops[0]["path"] == "/T/a~1b/~0f");
  CHECK(ops[1]["path"] == "/T/c~01");
  CHECK(json_equal(roundtrip(base, desired, 3), desired));
}

TEST_CASE("json_diff: arrays and scalars are leaves, compared whole") {
  const ordered_json base = j(R"({"p": [3], "n": 1, "o": {"x": 1}})");
  const ordered_json desired = j(R"({"p": [3, 4], "n": "1", "o": 5})");
  CHECK(json_diff(base, desired, 5) == j(R"([
    {"op": "replace", "path": "/p", "value": [3, 4]},
    {"op": "replace", "path": "/n", "value": "1"},
    {"op": "replace", "path": "/o", "value": 5}
  ])"));
  CHECK(json_equal(roundtrip(base, desired, 5), desired));
  // The root itself: path "" (RFC 6901's whole document).
  CHECK(json_diff(j("1"), j("2"), 3) == j(R"([{"op": "replace", "path": "", "value": 2}])"));
}

TEST_CASE("json_diff: seeded random CONFIG_DB-shaped documents round-trip at every depth") {
  std::mt19937 rng(6902);  // fixed seed: the same documents on every run
  const auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  const auto random_doc = [&] {
    ordered_json doc = ordered_json::object();
    for (int t = 0; t < 4; ++t) {
      if (pick(4) == 0) continue;
      ordered_json& table = doc["T" + std::to_string(pick(5))];
      table = ordered_json::object();
      for (int k = 0; k < 4; ++k) {
        if (pick(3) == 0) continue;
        ordered_json& entry = table["k" + std::to_string(pick(5))];
        entry = ordered_json::object();
        for (int f = 0; f < 3; ++f)
          if (pick(2)) entry["f" + std::to_string(pick(4))] = std::to_string(pick(3));
      }
    }
    return doc;
  };
  for (int i = 0; i < 300; ++i) {
    const ordered_json base = random_doc();
    const ordered_json desired = random_doc();
    for (int depth = 0; depth <= 3; ++depth) {
      CAPTURE(base.dump());
      CAPTURE(desired.dump());
      CAPTURE(depth);
      CHECK(json_equal(roundtrip(base, desired, depth), desired));
    }
  }
}

TEST_CASE("apply_json_patch: a failing operation reports and leaves the document unchanged") {
  ordered_json doc = j(R"({"A": {"x": "1"}})");
  const auto error = apply_json_patch(doc, j(R"([{"op": "add", "path": "/A/y", "value": "2"},
                                               {"op": "add", "path": "/MISSING/k", "value": {}}])"));
  REQUIRE(error);
  CHECK(doc == j(R"({"A": {"x": "1"}})"));
  CHECK(apply_json_patch(doc, j(R"([{"op": "remove", "path": "/A/nope"}])")));
  CHECK(apply_json_patch(doc, j(R"([{"op": "replace", "path": "/B", "value": 1}])")));
  CHECK_FALSE(apply_json_patch(doc, j(R"([{"op": "add", "path": "/A/x", "value": "3"}])")));
  CHECK(doc == j(R"({"A": {"x": "3"}})"));  // "add" on an existing member replaces it (RFC 6902 4.1)
}
