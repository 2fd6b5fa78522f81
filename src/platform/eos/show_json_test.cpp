// The EOS JSON readers on the reference outputs (shared/reference/outputs/eos, SOURCES.md) and on
// malformed and hostile variants.
#include "platform/eos/show_json.h"

#include <doctest/doctest.h>

#include <map>

#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::eos;

namespace {

std::string reference(const std::string& file) {
  return test::file_text(test::shared_path("reference/outputs/eos/" + file));
}

}  // namespace

TEST_CASE("eos show interfaces: the vEOS output of the reference outputs" * doctest::test_suite("external")) {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(test::shared_path("reference/outputs/eos/show-interfaces.json"));
  const auto got = interfaces_json(reference("show-interfaces.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 5);  // Ethernet1-5; Management1 is not a fabric port
  const PortObserved& e2 = got->ports.at("Ethernet2");
  CHECK(e2.mtu == 9214);
  CHECK(e2.oper_up == true);
  CHECK_FALSE(e2.speed_mbps);                         // bandwidth 0: not known
  CHECK(got->ports.at("Ethernet5").speed_mbps == 2);  // 2500000 bit/s, in whole Mb/s
  CHECK(got->ports.count("Management1") == 0);
  // interfaceCounters, in neutral names (every one 0 on this vEOS but the link changes).
  CHECK(e2.counters ==
        std::map<std::string, uint64_t>{
            {"fcs_errors", 0}, {"link_changes", 1}, {"rx_discards", 0}, {"symbol_errors", 0}, {"tx_discards", 0}});
}

TEST_CASE("eos show interfaces: the ANTA MTU and speed subsets" * doctest::test_suite("external")) {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(test::shared_path("reference/outputs/eos/show-interfaces_mtu-subset_anta.json"));
  const auto mtu = interfaces_json(reference("show-interfaces_mtu-subset_anta.json"));
  REQUIRE_MESSAGE(mtu, mtu.error());
  REQUIRE(mtu->ports.size() == 2);  // not Management0, Port-Channel2, Loopback0, Vxlan1 (MTU 0)
  CHECK(mtu->ports.at("Ethernet2/1").mtu == 9218);
  CHECK(mtu->ports.at("Ethernet10").mtu == 9214);
  CHECK(mtu->ports.at("Ethernet10").oper_up == true);
  const auto speed = interfaces_json(reference("show-interfaces_speed-subset_anta.json"));
  REQUIRE_MESSAGE(speed, speed.error());
  REQUIRE(speed->ports.size() == 4);
  CHECK(speed->ports.at("Ethernet1").speed_mbps == 1000);
  CHECK(speed->ports.at("Ethernet1/1/2").speed_mbps == 1000);
  CHECK(speed->ports.at("Ethernet3").speed_mbps == 100000);
  CHECK(speed->ports.at("Ethernet4").speed_mbps == 2500);
  CHECK_FALSE(speed->ports.at("Ethernet4").oper_up);  // not in this subset
}

TEST_CASE("eos show interfaces: a bad value makes its port unreadable; a bad document is an error") {
  const auto got = interfaces_json(
      R"({"interfaces": {"Ethernet1": {"mtu": 70000}, "Ethernet2": {"mtu": 9214, "lineProtocolStatus": 1},
          "Ethernet3": [], "Ethernet4\u001b[2J": {}, "Ethernet5": {"mtu": 9100, "bandwidth": 400000000000}}})");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.size() == 1);
  CHECK(got->ports.at("Ethernet5").speed_mbps == 400000);
  CHECK(got->unreadable.at("Ethernet1") ==
        "show interfaces: interfaces.Ethernet1.mtu: \"70000\" is out of range 68-65535");
  CHECK(got->unreadable.at("Ethernet2").find("interfaces.Ethernet2.lineProtocolStatus: expected a string") !=
        std::string::npos);
  CHECK(got->unreadable.at("Ethernet3").find("interfaces.Ethernet3: expected an object") != std::string::npos);
  CHECK(got->unreadable.at("Ethernet4\\x1b[2J").find("not a port name") == 0);
  CHECK(interfaces_json("[]").error() == "show interfaces: not a JSON object with an \"interfaces\" object");
  CHECK(
      interfaces_json(R"({"interfaces": {"Ethernet1": {"mtu": 9100})").error().find("show interfaces: invalid JSON") ==
      0);
  CHECK(interfaces_json("% Invalid input").error().find("show interfaces: invalid JSON") == 0);
  CHECK(interfaces_json(R"({"interfaces": {}, "interfaces": {}})").error().find("duplicate") != std::string::npos);
}

TEST_CASE("eos show interfaces: counters read from interfaceCounters, a bad one makes its port unreadable") {
  const auto got = interfaces_json(
      R"({"interfaces": {"Ethernet1": {"mtu": 9214, "interfaceCounters": {"inDiscards": 12, "outDiscards": 3,
            "linkStatusChanges": 4, "inputErrorsDetail": {"fcsErrors": 77, "symbolErrors": 5, "rxPause": 9}}},
          "Ethernet2": {"mtu": 9214},
          "Ethernet3": {"mtu": 9214, "interfaceCounters": {"inDiscards": -1}},
          "Ethernet4": {"mtu": 9214, "interfaceCounters": {"inputErrorsDetail": []}}}})");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.at("Ethernet1").counters ==
        std::map<std::string, uint64_t>{
            {"fcs_errors", 77}, {"link_changes", 4}, {"rx_discards", 12}, {"symbol_errors", 5}, {"tx_discards", 3}});
  CHECK(got->ports.at("Ethernet2").counters.empty());  // not reported: absent, never 0
  CHECK(got->unreadable.at("Ethernet3").find("interfaces.Ethernet3.interfaceCounters.inDiscards") != std::string::npos);
  CHECK(got->unreadable.at("Ethernet4")
            .find("interfaces.Ethernet4.interfaceCounters.inputErrorsDetail: expected an "
                  "object") != std::string::npos);
}

TEST_CASE("eos show lldp neighbors: the list and the detail shapes of the reference outputs" *
          doctest::test_suite("external")) {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(test::shared_path("reference/outputs/eos/show-lldp-neighbors.json"));
  const auto list = lldp_neighbors_json(reference("show-lldp-neighbors.json"));
  REQUIRE_MESSAGE(list, list.error());
  REQUIRE(list->ports.size() == 2);
  CHECK(list->ports.at("Ethernet1").system_name == "precise64");
  CHECK(list->ports.at("Ethernet1").port_id == "0800.274f.332d");
  const auto detail = lldp_neighbors_json(reference("show-lldp-neighbors-detail_anta.json"));
  REQUIRE_MESSAGE(detail, detail.error());
  REQUIRE(detail->ports.size() == 2);
  CHECK(detail->ports.at("Ethernet2").system_name == "DC1-SPINE2.local.com");
  CHECK(detail->ports.at("Ethernet2").port_id == "Ethernet1");
}

TEST_CASE("eos show lldp neighbors detail: an interfaceId in quotes, as older releases print it, is the port") {
  // EOS 4.28's detail prints interfaceId with literal quotes beside an unquoted interfaceId_v2
  // (shared/reference/outputs/SOURCES.md); a release without interfaceId_v2 has only the quoted one.
  const auto detail = [](const std::string& ids) {
    return R"({"lldpNeighbors": {"Ethernet1": {"lldpNeighborInfo": [{"systemName": "qfx1", )"
           R"("neighborInterfaceInfo": {"interfaceIdType": "interfaceName", )" +
           ids + "}}]}}}";
  };
  for (const std::string ids :
       {R"("interfaceId": "\"et-0/0/20\"")", R"("interfaceId": "\"et-0/0/20\"", "interfaceId_v2": "et-0/0/20")",
        R"("interfaceId": "et-0/0/20")"}) {
    CAPTURE(ids);
    const auto got = lldp_neighbors_json(detail(ids));
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->ports.at("Ethernet1").port_id == "et-0/0/20");
  }
  // One quote is not a pair: kept as it is.
  const auto odd = lldp_neighbors_json(detail(R"("interfaceId": "\"et-0/0/20")"));
  REQUIRE_MESSAGE(odd, odd.error());
  CHECK(odd->ports.at("Ethernet1").port_id == "\"et-0/0/20");
}

TEST_CASE("eos show lldp neighbors: a neighbour's bad name makes its port unreadable, not the switch") {
  const auto got = lldp_neighbors_json(
      R"({"lldpNeighbors": [{"port": "Ethernet1", "neighborDevice": "host\u0007a", "neighborPort": "x"},
                            {"port": "Ethernet2", "neighborDevice": "tab\tname", "neighborPort": "x"},
                            {"port": "Ethernet3", "neighborDevice": "ok", "neighborPort": ")" +
      std::string(256, 'p') + R"("},
                            {"port": "Ethernet4", "neighborDevice": "spine1", "neighborPort": "swp1"}]})");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.size() == 1);
  CHECK(got->ports.at("Ethernet4").system_name == "spine1");
  REQUIRE(got->unreadable.size() == 3);
  CHECK(
      got->unreadable.at("Ethernet1") ==
      R"(show lldp neighbors: lldpNeighbors[0].device: "host\x07a" is not 1-255 characters without control characters)");
  CHECK(got->unreadable.at("Ethernet2").find("lldpNeighbors[1].device: \"tab\\x09name\"") != std::string::npos);
  CHECK(got->unreadable.at("Ethernet3").starts_with("show lldp neighbors: lldpNeighbors[2].port: \"ppp"));
}

TEST_CASE("eos show lldp neighbors: malformed is an error, with where") {
  CHECK(lldp_neighbors_json("{}").error() == "missing required key \"lldpNeighbors\"");
  CHECK(lldp_neighbors_json(R"({"lldpNeighbors": [{"port": "Ethernet1", "neighborDevice": 5, "neighborPort": "x"}]})")
            .error()
            .find("lldpNeighbors[0].device: expected a string") == 0);
  CHECK(lldp_neighbors_json(R"({"lldpNeighbors": [{"port": "Ethernet1"}]})").error() ==
        "lldpNeighbors[0]: missing required key \"neighborDevice\"");
  const auto skipped = lldp_neighbors_json(
      R"({"lldpNeighbors": [{"port": "Management1", "neighborDevice": "a", "neighborPort": "b"},
                            {"port": "Ethernet1;x", "neighborDevice": "a", "neighborPort": "b"},
                            {"port": "Ethernet2", "neighborDevice": "", "neighborPort": ""}]})");
  REQUIRE_MESSAGE(skipped, skipped.error());
  CHECK(skipped->ports.empty());
  CHECK(skipped->unreadable.empty());
}
