// `nv show interface -o json`: NVIDIA's REST example of the interface collection (shared/reference,
// required in CI), swp ports in the same shape with speed, and bad interfaces named while the others
// are read.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "platform/nvue/interface_reader.h"
#include "shared_dir.h"

using namespace fabricctl;
using namespace fabricctl::nvue;

TEST_CASE("nvue interfaces: the reference collection (SVIs from NVIDIA's REST API example)" *
          doctest::test_suite("external")) {
  const auto path = test::shared_path("reference/outputs/nvue/nvue-api_get-interface-filter-type-svi.json");
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(path);
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  const auto got = interfaces(s.str());
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->by_name.size() == 4);
  const InterfaceState& v = got->by_name.at("vlan10");
  CHECK(v.type == "svi");
  CHECK(v.oper_up == true);
  CHECK(v.mtu == 9216);
  CHECK_FALSE(v.speed_mbps);  // SVIs have none
  // link.stats, in neutral names (the up and down counts are not kept: carrier-transitions has both).
  CHECK(v.counters ==
        std::map<std::string, uint64_t>{
            {"link_changes", 1}, {"rx_discards", 0}, {"rx_errors", 0}, {"tx_discards", 0}, {"tx_errors", 0}});
}

TEST_CASE("nvue interfaces: link stats as NVIDIA's REST example has them; a bad count makes its port unreadable") {
  const auto got = interfaces(R"({
    "swp1": {"type": "swp", "link": {"oper-status": "up", "mtu": 9216,
             "stats": {"carrier-transitions": 6, "in-bytes": 293771538, "in-drops": 3, "in-errors": 47,
                       "in-pkts": 2321737, "out-bytes": 366068936, "out-drops": 0, "out-errors": 0}}},
    "swp2": {"type": "swp", "link": {"oper-status": "up", "stats": {"in-errors": -4}}},
    "swp3": {"type": "swp", "link": {"oper-status": "up", "stats": [1]}},
    "swp4": {"type": "swp", "link": {"oper-status": "up"}}})");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->by_name.at("swp1").counters ==
        std::map<std::string, uint64_t>{
            {"link_changes", 6}, {"rx_discards", 3}, {"rx_errors", 47}, {"tx_discards", 0}, {"tx_errors", 0}});
  CHECK(got->unreadable.at("swp2").find("swp2.link.stats.in-errors") != std::string::npos);
  CHECK(got->unreadable.at("swp3").find("swp3.link.stats") != std::string::npos);
  CHECK(got->by_name.at("swp4").counters.empty());  // not reported: no counters, never zeros
}

TEST_CASE("nvue interfaces: swp ports with speed; bad values make only their interface unreadable") {
  const auto got = interfaces(R"({
    "swp1": {"type": "swp", "link": {"oper-status": "up", "admin-status": "up", "speed": "400G", "mtu": 9100}},
    "swp2": {"type": "swp", "link": {"oper-status": "down", "speed": "unknown", "mtu": 9216}},
    "swp3": {"type": "swp", "link": {"oper-status": "up", "speed": "100M"}},
    "swp4": {"type": "swp", "link": {"oper-status": "sideways"}},
    "swp5": {"type": "swp", "link": {"speed": "fast"}},
    "swp6": {"type": "swp", "link": {"mtu": 100000}},
    "swp7\u001b]0;x": {"type": "swp"},
    "eth0": {"type": "eth", "link": {"oper-status": "up", "speed": "1G", "mtu": 1500}}})");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->by_name.at("swp1").speed_mbps == 400000);
  CHECK(got->by_name.at("swp1").oper_up == true);
  CHECK(got->by_name.at("swp1").mtu == 9100);
  CHECK(got->by_name.at("swp2").oper_up == false);
  CHECK_FALSE(got->by_name.at("swp2").speed_mbps);
  CHECK(got->by_name.at("swp3").speed_mbps == 100);
  CHECK(got->by_name.at("eth0").type == "eth");
  CHECK(got->unreadable.at("swp4").find("swp4.link.oper-status: \"sideways\" is not one of") != std::string::npos);
  CHECK(got->unreadable.at("swp5") == "nv show interface: swp5.link.speed: \"fast\" is not a speed such as 400G");
  CHECK(got->unreadable.at("swp6") == "nv show interface: swp6.link.mtu: \"100000\" is out of range 68-9216");
  CHECK(got->unreadable.count("swp7\\x1b]0;x") == 1);
  CHECK(got->by_name.size() == 4);
}

TEST_CASE("nvue interfaces: not a collection, truncated, too deep: an error for the device") {
  CHECK(interfaces("[]").error() == "nv show interface: not a JSON object of interfaces");
  CHECK(interfaces(R"({"swp1": {"link": )").error().find("nv show interface: invalid JSON") == 0);
  CHECK_FALSE(interfaces(std::string(20, '{')));
  CHECK(interfaces("Error: Unknown command").error().find("invalid JSON") != std::string::npos);
}
