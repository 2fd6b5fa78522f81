#include "util/expected.h"

#include <doctest/doctest.h>

#include <memory>
#include <string>

using namespace fabricctl;

namespace {

Expected<int> half(int v) {
  if (v % 2 != 0) return unexpected("odd value " + std::to_string(v));
  return v / 2;
}

Expected<void> check_positive(int v) {
  if (v <= 0) return unexpected("not positive");
  return {};
}

}  // namespace

TEST_CASE("Expected: a value or one error") {
  const auto ok = half(8);
  REQUIRE(ok.has_value());
  CHECK(static_cast<bool>(ok));
  CHECK(*ok == 4);
  CHECK(ok.value() == 4);
  CHECK_THROWS_AS((void)ok.error(), std::logic_error);

  const auto bad = half(3);
  CHECK_FALSE(bad.has_value());
  CHECK(bad.error() == "odd value 3");
  CHECK_THROWS_WITH_AS((void)bad.value(), "value of a failed operation read: odd value 3", BadExpectedAccess);
}

TEST_CASE("Expected: move-only values and a string value") {
  Expected<std::unique_ptr<int>> p = std::make_unique<int>(7);
  REQUIRE(p);
  const std::unique_ptr<int> taken = std::move(p).value();
  CHECK(*taken == 7);

  // T and E may be the same type: construction says which one is meant.
  const Expected<std::string> text = std::string("content");
  const Expected<std::string> failed = unexpected("cannot read");
  CHECK(*text == "content");
  CHECK(failed.error() == "cannot read");
}

TEST_CASE("Expected<void>") {
  CHECK(check_positive(1).has_value());
  const auto bad = check_positive(0);
  CHECK_FALSE(bad);
  CHECK(bad.error() == "not positive");
  CHECK_THROWS_AS(bad.value(), BadExpectedAccess);
  Expected<void> later;
  CHECK(later);
  later = unexpected("failed later");
  CHECK(later.error() == "failed later");
}

TEST_CASE("Expected: custom error types") {
  struct Why {
    int code;
  };
  const Expected<int, Why> e = unexpected(Why{5});
  CHECK(e.error().code == 5);
  CHECK_THROWS_WITH_AS((void)e.value(), "value of a failed operation read: (error not printable)", BadExpectedAccess);
}
