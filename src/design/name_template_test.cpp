// Name patterns of `fabricctl design` (design/name_template.h): what they expand to, and what they refuse.
#include "design/name_template.h"

#include <doctest/doctest.h>

using namespace fabricctl::design;

namespace {

const std::vector<Placeholder> kLeaf = {Placeholder::pod, Placeholder::rail};

std::string expand(std::string_view text, int64_t pod, int64_t rail) {
  auto t = parse_name_template(text, kLeaf);
  REQUIRE_MESSAGE(t.has_value(), t.error());
  Position at;
  at.set(Placeholder::pod, pod);
  at.set(Placeholder::rail, rail);
  return t->expand(at);
}

std::string refusal(std::string_view text, const std::vector<Placeholder>& allowed = kLeaf) {
  auto t = parse_name_template(text, allowed);
  REQUIRE_FALSE(t.has_value());
  return t.error();
}

}  // namespace

TEST_CASE("placeholders are filled from the position, zero-padded as asked") {
  CHECK(expand("p{pod:03}-rail{rail}", 7, 3) == "p007-rail3");
  CHECK(expand("rail{rail}-leaf", 1, 0) == "rail0-leaf");
  CHECK(expand("leaf-{pod}{rail:02}", 12, 5) == "leaf-1205");
  CHECK(expand("p{pod:02}", 123, 0) == "p123");  // a width is a minimum, never a cut
  CHECK(expand("spine", 1, 0) == "spine");
}

TEST_CASE("an address pattern names the device") {
  auto t = parse_name_template("{name}.mgmt.example.net", {Placeholder::spine, Placeholder::name});
  REQUIRE(t.has_value());
  Position at;
  at.name = "spine03";
  CHECK(t->expand(at) == "spine03.mgmt.example.net");
  CHECK(t->uses(Placeholder::name));
  CHECK_FALSE(t->uses(Placeholder::spine));
}

TEST_CASE("a placeholder the tier has no position for is refused, naming the ones it has") {
  CHECK(refusal("gpu{host}") == "\"gpu{host}\": unknown placeholder {host}; this pattern takes {pod}, {rail}");
  CHECK(refusal("x{nic}").find("unknown placeholder {nic}") != std::string::npos);
  CHECK(refusal("{name}-x").find("unknown placeholder {name}") != std::string::npos);
}

TEST_CASE("braces and formats are strict") {
  CHECK(refusal("rail{rail").find("a \"{\" without its \"}\"") != std::string::npos);
  CHECK(refusal("rail}").find("a \"}\" without its \"{\"") != std::string::npos);
  CHECK(refusal("p{pod:3}").find("is \":0N\" (N 1-9), not \"3\"") != std::string::npos);
  CHECK(refusal("p{pod:010}").find("not \"010\"") != std::string::npos);
  CHECK(refusal("{name:02}", {Placeholder::name}).find("{name} takes no format") != std::string::npos);
}
