#include "state/intent_diff.h"

#include <doctest/doctest.h>

#include "verify/checks/check_test_support.h"

using namespace fabricctl;
using fabricctl::test::Lab;

TEST_CASE("intent diff: nothing for the same fabric; a profile change is one line over every port it touches") {
  const Lab base;
  CHECK(intent_changes(base.desired, base.desired).empty());
  Lab head;
  for (const char* dev : {"leaf1", "leaf2"})
    for (EcnQueue& q : head.device(dev).qos.ecn) q.probability_pct = 30;
  const std::vector<ChangeGroup> groups = group_changes(intent_changes(base.desired, head.desired));
  REQUIRE(groups.size() == 1);
  CHECK(groups[0].key == "ecn[tc=3].probability_pct");
  CHECK(groups[0].devices == std::vector<std::string>{"leaf1", "leaf2"});
  CHECK(describe(groups[0]) ==
        "ecn[tc=3].probability_pct 20 -> 30 on leaf1-2: " + std::to_string(groups[0].count) + " ports");
  CHECK(groups[0].count == head.device("leaf1").ports.size() + head.device("leaf2").ports.size());
}

TEST_CASE("intent diff: MTU on one port, a port and a device that come and go") {
  const Lab base;
  Lab head;
  head.device("leaf1").ports.front().mtu = 4200;
  head.device("leaf2").ports.pop_back();
  head.desired.devices.erase(head.desired.devices.begin() +
                             static_cast<long>(&head.device("spine1") - head.desired.devices.data()));
  std::vector<std::string> lines;
  for (const ChangeGroup& g : group_changes(intent_changes(base.desired, head.desired))) lines.push_back(describe(g));
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "mtu 9100 -> 4200 on leaf1: 1 port");
  CHECK(lines[1].starts_with("- port leaf2:"));
  CHECK(lines[2] == "- device spine1");
  // The other way round, they are added.
  const auto back = group_changes(intent_changes(head.desired, base.desired));
  CHECK(describe(back.back()) == "+ device spine1");
}

TEST_CASE("intent diff: device names fold into ranges of consecutive numbers") {
  CHECK(fold_names({"leaf1", "leaf2", "leaf3", "spine2"}) == "leaf1-3, spine2");
  CHECK(fold_names({"rail0", "rail1", "rail3"}) == "rail0-1, rail3");
  CHECK(fold_names({"a", "b"}) == "a, b");
  CHECK(fold_names({"leaf01", "leaf02"}) == "leaf01, leaf02");  // zero-padded: kept as written
  CHECK(fold_names({"x9", "x10"}) == "x9-10");
}
