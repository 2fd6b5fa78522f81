// NVUE range keys: what a key names, the errors for bad ranges (the key quoted), and a tree expanded
// where fabricctl reads it.
#include <doctest/doctest.h>

#include "platform/nvue/ranges.h"
#include "util/text.h"

using namespace fabricctl;
using namespace fabricctl::nvue;

TEST_CASE("nvue ranges: comma lists and ranges name their members, in order") {
  CHECK(join(*expand_key("swp1-3"), " ") == "swp1 swp2 swp3");
  CHECK(join(*expand_key("swp1-2,swp6"), " ") == "swp1 swp2 swp6");
  CHECK(join(*expand_key("swp1s0-1"), " ") == "swp1s0 swp1s1");
  CHECK(join(*expand_key("24-26"), " ") == "24 25 26");
  CHECK(join(*expand_key("10,20,30"), " ") == "10 20 30");
  CHECK(join(*expand_key("swp7"), " ") == "swp7");
  CHECK(join(*expand_key("vlan10-v0"), " ") == "vlan10-v0");  // a dash in a name is no range
  CHECK_FALSE(is_range_key("swp7"));
  CHECK_FALSE(is_range_key("default-global"));
  CHECK(is_range_key("swp1-32"));
  CHECK(is_range_key("3,4"));
}

TEST_CASE("nvue ranges: bad ranges are errors that quote the key, never a guess") {
  CHECK(expand_key("swp3-1").error() == "range \"swp3-1\" runs backwards");
  CHECK(expand_key("swp1,,swp2").error() == "range \"swp1,,swp2\": an empty item");
  CHECK(expand_key("swp1,").error() == "range \"swp1,\": an empty item");
  CHECK(expand_key("swp01-3").error() == "range \"swp01-3\": \"01\" is not a plain number");
  CHECK(expand_key("swp1-9999999").error() == "range \"swp1-9999999\": \"9999999\" is not a plain number");
  CHECK(expand_key("swp1-5000").error() == "range \"swp1-5000\" names more than 4096 objects");
  CHECK(expand_key("swp1-4000,swp1-4000").error() == "range \"swp1-4000,swp1-4000\" names more than 4096 objects");
  CHECK(expand_key("swp\x1b[2J1-3,").error() == "range \"swp\\x1b[2J1-3,\": an empty item");
}

TEST_CASE("nvue ranges: a tree's interfaces and QoS index keys expanded, a port's own key winning") {
  const auto tree = expand_ranges(nlohmann::json::parse(R"({
      "interface": {"swp2": {"link": {"mtu": 1500}}, "swp1-3": {"type": "swp", "link": {"mtu": 9100}}},
      "qos": {"mapping": {"default-global": {"dscp": {"24-25": {"switch-priority": 3}}}},
              "pfc": {"default-global": {"switch-priority": {"3,4": {}}}}},
      "system": {"hostname": "swp1-3"}})"));
  REQUIRE_MESSAGE(tree, tree.error());
  CHECK((*tree)["interface"].size() == 3);
  CHECK((*tree)["interface"]["swp2"]["link"]["mtu"] == 1500);
  CHECK((*tree)["interface"]["swp2"]["type"] == "swp");
  CHECK((*tree)["interface"]["swp3"]["link"]["mtu"] == 9100);
  CHECK((*tree)["qos"]["mapping"]["default-global"]["dscp"]["25"]["switch-priority"] == 3);
  CHECK((*tree)["qos"]["pfc"]["default-global"]["switch-priority"].contains("4"));
  CHECK((*tree)["system"]["hostname"] == "swp1-3");  // not a place fabricctl reads
  CHECK(expand_ranges(nlohmann::json::parse(R"({"interface": {"swp9-2": {}}})")).error() ==
        "nv config show: interface: range \"swp9-2\" runs backwards");
}

TEST_CASE("nvue ranges: a key naming many ports with a large subtree is refused, not copied without end") {
  nlohmann::json big = nlohmann::json::object();
  for (int i = 0; i < 2000; ++i) big["k" + std::to_string(i)] = i;
  nlohmann::json tree = {{"interface", {{"swp1-4000", {{"qos", big}}}}}};
  CHECK(expand_ranges(tree).error() ==
        "nv config show: interface: ranges name more settings than fabricctl reads from one switch");
  tree = {{"interface", {{"swp1-4000", {{"link", {{"mtu", 9100}}}}}}}};
  CHECK(expand_ranges(tree)->at("interface").size() == 4000);
}
