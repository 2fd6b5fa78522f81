// The NX-OS JSON readers on real outputs (tests/fixtures/nxos, SOURCES.md) and on malformed and
// hostile variants.
#include "platform/nxos/show_json.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <map>

#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::nxos;

namespace {

/// A fixture's device output: the NX-API `body` where the publisher kept the API's envelope (the CLI's
/// `| json` prints the body alone).
std::string json_fixture(const std::string& file) {
  const std::string text = test::file_text(std::string(FABRICCTL_SOURCE_DIR) + "/tests/fixtures/nxos/" + file);
  const auto j = nlohmann::json::parse(text);
  if (j.contains("output")) return j["output"]["body"].dump();
  if (j.contains("ins_api")) return j["ins_api"]["outputs"]["output"]["body"].dump();
  return text;
}

std::string one_interface(const std::string& fields) {
  return R"({"TABLE_interface": {"ROW_interface": {"interface": "Ethernet1/1", )" + fields + "}}}";
}

}  // namespace

TEST_CASE("nxos show interface: a real N9K-C9336C-FX2 on 10.2(4)") {
  const auto got = interfaces_json(json_fixture("show-interface_n9k-c9336c-fx2_harvest.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 2);  // Ethernet1/1, Ethernet1/2; mgmt0 is not a fabric port
  const PortObserved& e1 = got->ports.at("Ethernet1/1");
  CHECK(e1.mtu == 9216);          // "9216", a string
  CHECK(e1.speed_mbps == 40000);  // "40000000" Kbit/s
  CHECK(e1.oper_up == true);
  CHECK(e1.counters == std::map<std::string, uint64_t>{{"fcs_errors", 0}, {"rx_discards", 0}, {"tx_discards", 8}});
  CHECK(got->ports.count("mgmt0") == 0);
}

TEST_CASE("nxos show interface: one row is an object, not a list") {
  const auto got = interfaces_json(json_fixture("show-interface_single-row_ansible.json"));
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 1);
  CHECK(got->ports.at("Ethernet1/1").mtu == 1500);
  CHECK(got->ports.at("Ethernet1/1").speed_mbps == 1000);
}

TEST_CASE("nxos show interface: numbers as integers; a bad value makes its port unreadable") {
  auto got = interfaces_json(one_interface(R"("eth_mtu": 9216, "eth_bw": 400000000, "state": "down")"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.at("Ethernet1/1").mtu == 9216);
  CHECK(got->ports.at("Ethernet1/1").speed_mbps == 400000);
  CHECK(got->ports.at("Ethernet1/1").oper_up == false);
  // eth_bw 0 (a port NX-OS has no speed for): not known, not zero.
  got = interfaces_json(one_interface(R"("eth_bw": "0")"));
  REQUIRE(got);
  CHECK_FALSE(got->ports.at("Ethernet1/1").speed_mbps);

  const struct {
    const char* fields;
    const char* why;
  } bad[] = {
      {R"("eth_mtu": "9216 bytes")", R"(eth_mtu: a string "9216 bytes" is not a number)"},
      {R"("eth_mtu": "-1")", R"(eth_mtu: a string "-1" is not a number)"},
      {R"("eth_mtu": "99999")", R"(eth_mtu: a string "99999" is out of range 68-65535)"},
      {R"("eth_mtu": 9216.5)", "eth_mtu"},
      {R"("eth_bw": "99999999999999999999999")", "eth_bw"},
      {R"("state": 1)", "state"},
      {R"("eth_crc": "-3")", R"(eth_crc: a string "-3" is not a number)"},
  };
  for (const auto& b : bad) {
    CAPTURE(std::string(b.fields));
    got = interfaces_json(R"({"TABLE_interface": {"ROW_interface": [{"interface": "Ethernet1/2", "eth_mtu": "1500"},
        {"interface": "Ethernet1/1", )" +
                          std::string(b.fields) + "}]}}");
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->ports.at("Ethernet1/2").mtu == 1500);  // the other port is read
    REQUIRE(got->unreadable.count("Ethernet1/1"));
    CHECK_MESSAGE(got->unreadable.at("Ethernet1/1").find(b.why) != std::string::npos,
                  got->unreadable.at("Ethernet1/1"));
    CHECK(got->unreadable.at("Ethernet1/1").rfind("show interface: TABLE_interface.ROW_interface[1]", 0) == 0);
  }
}

TEST_CASE("nxos show interface: a bad name is unreadable, a bad document an error") {
  auto got = interfaces_json(R"({"TABLE_interface": {"ROW_interface": [{"interface": "Ethernet1/1\u001b[2J"}]}})");
  REQUIRE(got);
  CHECK(got->ports.empty());
  CHECK(got->unreadable.count("Ethernet1/1\\x1b[2J"));
  CHECK_FALSE(interfaces_json("% Invalid command at '^' marker."));
  CHECK(interfaces_json("[]").error() == R"(show interface: not a JSON object with a "TABLE_interface")");
  CHECK(interfaces_json(R"({"TABLE_interface": {"ROW_interface": [{"state": "up"}]}})").error() ==
        R"(show interface: TABLE_interface.ROW_interface[0]: missing required key "interface")");
  CHECK_FALSE(interfaces_json(R"({"TABLE_interface": {"ROW_interface": "x"}})"));
  CHECK_FALSE(interfaces_json(
      R"({"TABLE_interface": {"ROW_interface": [{"interface": "Ethernet1/1", "interface": "Ethernet1/2"}]}})"));
  std::string deep = R"({"TABLE_interface": )";
  for (int i = 0; i < 20; ++i) deep += "[";
  CHECK_FALSE(interfaces_json(deep));
}

TEST_CASE("nxos show lldp neighbors detail: real outputs, short local port names") {
  auto got = lldp_neighbors_json(json_fixture("show-lldp-neighbors-detail_harvest.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.count("Ethernet1/9"));  // l_port_id "Eth1/9"
  CHECK(got->ports.at("Ethernet1/9").system_name == "na2a-mc1-nbg3");
  CHECK(got->ports.at("Ethernet1/9").port_id == "e1b");
  CHECK(got->ports.count("mgmt0") == 0);

  got = lldp_neighbors_json(json_fixture("show-lldp-neighbors-detail_nxapi-envelope_harvest.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());  // ttl and link_agg_id as integers here: not read, not refused
  bool nxos_peer = false;
  for (const auto& [port, n] : got->ports) {
    CHECK(port.rfind("Ethernet", 0) == 0);
    nxos_peer = nxos_peer || (port == "Ethernet1/35" && n.port_id == "Ethernet1/35");
  }
  CHECK(nxos_peer);
}

TEST_CASE("nxos show lldp neighbors detail: no neighbours, one row, and hostile names") {
  auto got = lldp_neighbors_json(R"({"neigh_count": "0"})");
  REQUIRE(got);
  CHECK(got->ports.empty());
  got = lldp_neighbors_json(
      R"({"TABLE_nbor_detail": {"ROW_nbor_detail": {"l_port_id": "Eth1/1/2", "sys_name": "leaf1", "port_id": "Ethernet1/1"}}})");
  REQUIRE(got);
  CHECK(got->ports.at("Ethernet1/1/2").system_name == "leaf1");

  // One neighbour with a control character, a TAB or a name of 256 bytes: that port's neighbour is
  // unreadable, the others are read.
  for (const std::string& name : {std::string("ho\\u001bst"), std::string("ho\\tst"), std::string(256, 'a')}) {
    CAPTURE(name);
    got = lldp_neighbors_json(R"({"TABLE_nbor_detail": {"ROW_nbor_detail": [
        {"l_port_id": "Eth1/1", "sys_name": ")" +
                              name + R"(", "port_id": "Ethernet1/1"},
        {"l_port_id": "Eth1/2", "sys_name": "leaf2", "port_id": "Ethernet1/2"}]}})");
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->ports.count("Ethernet1/1") == 0);
    REQUIRE(got->unreadable.count("Ethernet1/1"));
    CHECK(got->unreadable.at("Ethernet1/1").find("sys_name") != std::string::npos);
    CHECK(got->ports.at("Ethernet1/2").system_name == "leaf2");
  }
  // A row without its local port cannot be charged to a port: the reply is not one NX-OS prints.
  CHECK_FALSE(lldp_neighbors_json(R"({"TABLE_nbor_detail": {"ROW_nbor_detail": [{"sys_name": "x"}]}})"));
  CHECK_FALSE(lldp_neighbors_json("not json"));
}

TEST_CASE("nxos port names: the short form NX-OS prints in LLDP") {
  CHECK(long_port_name("Eth1/9") == "Ethernet1/9");
  CHECK(long_port_name("Eth1/1/2") == "Ethernet1/1/2");
  CHECK(long_port_name("Ethernet1/9") == "Ethernet1/9");
  CHECK(long_port_name("mgmt0") == "mgmt0");
  CHECK(long_port_name("Eth") == "Eth");
  CHECK(long_port_name("Ethx") == "Ethx");
}
