#include <doctest/doctest.h>

#include <string>

#include "util/spell.h"

using namespace fabricctl;

TEST_CASE("edit_distance is exact within the limit and stops beyond it") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "abc") == 0);
  CHECK(edit_distance("kitten", "sitting", 3) == 3);
  CHECK(edit_distance("kitten", "sitting", 2) == 3);        // max + 1: over the limit
  CHECK(edit_distance("a", std::string(50, 'b'), 3) == 4);  // the length gap alone decides
  CHECK(edit_distance("abcdef", "uvwxyz", 1) == 2);
}

TEST_CASE("did_you_mean phrases the closest candidate") {
  CHECK(did_you_mean("mtuu", {"mtu", "trust"}) == "; did you mean \"mtu\"?");
  CHECK(did_you_mean("banana", {"mtu", "trust"}).empty());
  CHECK(closest_match("leaf11", {"leaf1", "leaf12", "leaf111"}) == "leaf1");  // first of equals wins
  CHECK(closest_match(std::string(65, 'a'), {std::string(65, 'a')}).empty());
}

TEST_CASE("a budget bounds the total cost of many suggestions") {
  // Tens of thousands of distinct unknown names against tens of thousands of candidates: what an
  // 800 KB inventory of broken links costs without a bound (minutes), with one it stays brief.
  std::vector<std::string> names;
  for (int i = 0; i < 20000; ++i) names.push_back("p" + std::to_string(i) + "-gpu" + std::to_string(i % 32));
  std::vector<std::string_view> candidates(names.begin(), names.end());
  SpellBudget budget;
  int suggested = 0, first_without = -1;
  for (int i = 0; i < 20000; ++i) {
    const bool hit =
        !closest_match("q" + std::to_string(i) + "-gpx" + std::to_string(i % 32), candidates, &budget).empty();
    suggested += hit ? 1 : 0;
    if (!hit && first_without < 0) first_without = i;
  }
  // Every one of these has a near miss ("p<i>-gpu<j>"), so the suggestions stop exactly when the
  // budget is spent: a bound on work, not on wall time (which depends on the machine and ASan).
  CHECK(first_without > 0);
  CHECK(suggested == first_without);
  CHECK(budget.cells < 20 * 20);  // what is left cannot pay for another comparison
}
