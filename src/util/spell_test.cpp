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

TEST_CASE("closest_match: case, aliases, typos, then one abbreviation") {
  const std::vector<std::string_view> platforms = {"sonic", "eos", "nvue", "linux"};
  const std::vector<SpellAlias> aliases = {{"cumulus", "nvue"}, {"arista", "eos"}, {"cl", "nvue"}};
  CHECK(closest_match("SONiC", platforms) == "sonic");
  CHECK(closest_match("cumulus", platforms, nullptr, aliases) == "nvue");
  CHECK(closest_match("Arista", platforms, nullptr, aliases) == "eos");
  CHECK(closest_match("cl", platforms, nullptr, aliases) == "nvue");
  CHECK(closest_match("cumulus", platforms).empty());  // no alias table, no guess
  CHECK(did_you_mean("cumulus", platforms, nullptr, aliases) == "; did you mean \"nvue\"?");

  const std::vector<std::string_view> keys = {"mtu", "trust", "lossless_priorities", "pfc_watchdog", "cable_length_m"};
  CHECK(closest_match("pfc", keys) == "pfc_watchdog");  // 9 edits away: only the prefix finds it
  CHECK(closest_match("lossless", keys) == "lossless_priorities");
  CHECK(closest_match("mtuu", keys) == "mtu");  // a typo still wins over everything after it
  const std::vector<std::string_view> port_keys = {"speed", "rdma_device", "rdma_port", "rail"};
  CHECK(closest_match("rdma", port_keys).empty());    // two keys start so: no guess
  CHECK(closest_match("r", {"rail_group"}).empty());  // one letter abbreviates too much

  const std::vector<std::string_view> ports = {"Ethernet1/1", "Ethernet2/1", "Ethernet48/1"};
  CHECK(closest_match("Et1/1", ports) == "Ethernet1/1");
  CHECK(closest_match("eth48/1", ports) == "Ethernet48/1");
  CHECK(closest_match("Et3/1", ports).empty());  // no such port, however abbreviated
}

TEST_CASE("abbreviates and expand_stem: a shorter stem, the same numbering") {
  CHECK(abbreviates("Et1/1", "Ethernet1/1"));
  CHECK(abbreviates("ETH1/1", "Ethernet1/1"));
  CHECK_FALSE(abbreviates("Et1/2", "Ethernet1/1"));
  CHECK_FALSE(abbreviates("Ethernet1/1", "Ethernet1/1"));  // not shorter: the same name
  CHECK_FALSE(abbreviates("Ex1/1", "Ethernet1/1"));
  CHECK(expand_stem("Et1/1", "Ethernet") == "Ethernet1/1");
  CHECK(expand_stem("sw1", "swp") == "swp1");
  CHECK(expand_stem("E1", "Ethernet").empty());
  CHECK(expand_stem("Po1", "Ethernet").empty());
}

TEST_CASE("a spent budget stops the scans too") {
  SpellBudget budget;
  budget.cells = 0;
  CHECK(closest_match("SONiC", {"sonic"}, &budget).empty());
  CHECK(closest_match("pfc", {"pfc_watchdog"}, &budget).empty());
}
