// The NX-OS running-config reader on a real switch's QoS (tests/fixtures/nxos, SOURCES.md) and on
// malformed and hostile variants.
#include "platform/nxos/running_config.h"

#include <doctest/doctest.h>

#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::nxos;

namespace {

/// The device's lines of the fixture: its file also holds a heading and the prompt (SOURCES.md).
std::string ndfc_leaf() {
  const std::string text = test::file_text(std::string(FABRICCTL_SOURCE_DIR) +
                                           "/tests/fixtures/nxos/show-running-config-ipqos_10.3.2_ndfc-aiml.txt");
  const size_t start = text.find("!Command:");
  const size_t prompt = text.rfind("leaf1#");
  REQUIRE(start != std::string::npos);
  return text.substr(start, prompt - start);
}

Expected<RunningPorts> read(const std::string& text) {
  auto config = parse_config(text);
  if (!config) return unexpected(config.error());
  return ports_from_config(*config);
}

const std::string kPolicies =
    "class-map type qos match-any RDMA\n"
    "  match dscp 26\n"
    "policy-map type qos CLASSIFY\n"
    "  class RDMA\n"
    "    set qos-group 3\n"
    "policy-map type network-qos NQ\n"
    "  class type network-qos c-8q-nq3\n"
    "    pause pfc-cos 3\n"
    "policy-map type queuing OUT\n"
    "  class type queuing c-out-8q-q3\n"
    "    bandwidth remaining percent 50\n"
    "system qos\n"
    "  service-policy type network-qos NQ\n"
    "  service-policy type queuing output OUT\n";

}  // namespace

TEST_CASE("nxos running-config: a real leaf's QoS (NX-OS 10.3(2), NDFC's AI template)") {
  auto got = read(ndfc_leaf());
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 8);
  const PortObserved& p = got->ports.at("Ethernet1/11");
  CHECK(p.trust == Trust::dscp);
  CHECK((*p.dscp_to_priority)[24] == 3);
  CHECK((*p.dscp_to_priority)[48] == 7);
  CHECK((*p.dscp_to_priority)[26] == 0);  // class-default
  CHECK((*p.lossless)[3]);
  CHECK_FALSE((*p.lossless)[7]);
  CHECK((*p.tc)[7].strict);
  CHECK((*p.tc)[3].bandwidth_pct == 60);
  CHECK((*p.tc)[0].bandwidth_pct == 40);
  REQUIRE(p.ecn->size() == 1);
  CHECK((*p.ecn)[0].min_bytes == 150 * 1024);
  CHECK((*p.ecn)[0].max_bytes == 3000 * 1024);
  CHECK((*p.ecn)[0].probability_pct == 7);
  CHECK(p.mtu == 1500);  // no mtu line in `show running-config ipqos`: NX-OS's default
  // The leaf has watch-dog-interval on under each port but no global line: off switch-wide.
  CHECK_FALSE(p.watchdog->enabled);
}

TEST_CASE("nxos running-config: ports follow their policies") {
  const std::string ports =
      "interface Ethernet1/1\n"
      "  mtu 9216\n"
      "  priority-flow-control mode on\n"
      "  service-policy type qos input CLASSIFY\n"
      "interface Ethernet1/2\n"
      "  priority-flow-control mode auto\n"
      "interface mgmt0\n"
      "  vrf member management\n";
  auto got = read("priority-flow-control watch-dog-interval on\n" + kPolicies + ports);
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 2);
  const PortObserved& e1 = got->ports.at("Ethernet1/1");
  CHECK(e1.mtu == 9216);
  CHECK((*e1.dscp_to_priority)[26] == 3);
  CHECK((*e1.lossless)[3]);
  CHECK(e1.watchdog->enabled);  // the global line, and no port line
  const PortObserved& e2 = got->ports.at("Ethernet1/2");
  CHECK((*e2.dscp_to_priority)[26] == 0);  // no input policy: qos-group 0 for everything
  CHECK_FALSE((*e2.lossless)[3]);          // PFC mode auto is not on by itself
}

TEST_CASE("nxos running-config: a bad line of one port, or of its policy, makes that port unreadable") {
  const std::string good = "interface Ethernet1/1\n  service-policy type qos input CLASSIFY\n";
  auto got = read(kPolicies + good + "interface Ethernet1/2\n  mtu jumbo\n");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.count("Ethernet1/1"));
  CHECK(got->unreadable.at("Ethernet1/2") == R"(show running-config: `mtu jumbo`: "jumbo" is not a number)");

  got = read(kPolicies + good + "interface Ethernet1/2\n  service-policy type qos input MISSING\n");
  REQUIRE(got);
  CHECK(got->unreadable.at("Ethernet1/2") ==
        R"(show running-config: its input policy "MISSING" is not defined in the configuration)");

  got = read("class-map type qos match-any RDMA\n  match dscp 26-99\n" +
             kPolicies.substr(kPolicies.find("policy-map")) + good + "interface Ethernet1/2\n");
  REQUIRE(got);
  CHECK(got->unreadable.at("Ethernet1/1") ==
        R"(show running-config: class-map "RDMA": `match dscp 26-99`: "99" is out of range 0-63)");
  CHECK(got->ports.count("Ethernet1/2"));  // no policy: unaffected

  got = read(kPolicies +
             "class-map type qos match-any C\n  match cos 3\npolicy-map type qos BOTH\n  class RDMA\n  class C\n" +
             "interface Ethernet1/1\n  service-policy type qos input BOTH\n");
  REQUIRE(got);
  CHECK(got->unreadable.at("Ethernet1/1").find("classifies on both DSCP and CoS") != std::string::npos);
}

TEST_CASE("nxos running-config: a bad shared line fails the device; a bad document is an error") {
  CHECK(read("priority-flow-control watch-dog-interval maybe\n").error() ==
        R"(show running-config: `priority-flow-control watch-dog-interval maybe`: "maybe" is not on or off)");
  std::string bad_system = kPolicies;
  bad_system.replace(bad_system.find("bandwidth remaining percent 50"), 30, "bandwidth remaining percent 500");
  CHECK(read(bad_system + "interface Ethernet1/1\n").error() ==
        R"(show running-config: `bandwidth remaining percent 500`: "500" is out of range 0-100)");
  CHECK(
      read("system qos\n  service-policy type network-qos GONE\n").error() ==
      R"(show running-config: `system qos` attaches network-qos policy "GONE", which the configuration does not define)");

  CHECK(parse_config("interface Ethernet1/1\n   mtu 9216\n").error() ==
        R"(show running-config: line 2: "   mtu 9216" is not indented by two spaces a level)");
  CHECK(parse_config("interface Ethernet1/1\n    mtu 9216\n").error() ==
        R"(show running-config: line 2: "    mtu 9216" is indented deeper than one level below the line above)");
  CHECK(parse_config("  mtu 9216\n").error().find("indented deeper") != std::string::npos);
  CHECK(parse_config(std::string("interface Ethernet1/1\n\0", 23)).error() == "show running-config: holds a NUL byte");
  CHECK(parse_config(std::string(5000, 'a')).error() == "show running-config: line 1: over 4096 bytes");
  CHECK(parse_config(std::string(33u << 20, '\n')).error().find("over 33554432 bytes") != std::string::npos);
  auto ok =
      parse_config("!Command: show running-config\nversion 10.3(2) Bios:version 05.47 \n\ninterface Ethernet1/1\r\n");
  REQUIRE(ok);
  REQUIRE(ok->size() == 1);
  CHECK((*ok)[0].line == "interface Ethernet1/1");
}

TEST_CASE("nxos running-config: only what fabricctl reads is kept, never a secret") {
  const std::string running =
      "!Command: show running-config\n"
      "version 10.3(2)\n"
      "username admin password 5 $5$abc role network-admin\n"
      "snmp-server community s3cret group network-operator\n"
      "tacacs-server key 7 \"xyz\"\n"
      "feature lldp\n"
      "priority-flow-control watch-dog-interval on\n" +
      kPolicies +
      "interface Ethernet1/1\n"
      "  description uplink\n"
      "  mtu 9216\n"
      "  priority-flow-control mode on\n"
      "  service-policy type qos input CLASSIFY\n"
      "  ip address 10.0.0.1/31\n"
      "interface mgmt0\n"
      "  ip address 192.0.2.1/24\n"
      "line vty\n"
      "  exec-timeout 10\n";
  const std::string kept = keep_running_config(running);
  for (const char* gone : {"username", "password", "community", "tacacs", "feature", "description", "ip address",
                           "mgmt0", "line vty", "version", "!Command"})
    CHECK_MESSAGE(kept.find(gone) == std::string::npos, gone);
  CHECK(kept == "priority-flow-control watch-dog-interval on\n" + kPolicies +
                    "interface Ethernet1/1\n  mtu 9216\n  priority-flow-control mode on\n"
                    "  service-policy type qos input CLASSIFY\n");
  // What is kept reads as the whole did.
  auto whole = read(kept);
  REQUIRE_MESSAGE(whole, whole.error());
  CHECK((*whole->ports.at("Ethernet1/1").lossless)[3]);
}

TEST_CASE("nxos running-config: class-default is matched last; the long class form; blocks the filter drops") {
  // class-default printed first: NX-OS still matches it last.
  std::string policies = kPolicies;
  policies.replace(policies.find("policy-map type qos CLASSIFY\n"), 29,
                   "policy-map type qos CLASSIFY\n  class class-default\n    set qos-group 0\n");
  auto got = read(policies + "interface Ethernet1/1\n  service-policy type qos input CLASSIFY\n");
  REQUIRE_MESSAGE(got, got.error());
  CHECK((*got->ports.at("Ethernet1/1").dscp_to_priority)[26] == 3);
  // `class type qos NAME` is `class NAME`.
  policies = kPolicies;
  policies.replace(policies.find("  class RDMA\n"), 13, "  class type qos RDMA\n");
  got = read(policies + "interface Ethernet1/1\n  service-policy type qos input CLASSIFY\n");
  REQUIRE_MESSAGE(got, got.error());
  CHECK((*got->ports.at("Ethernet1/1").dscp_to_priority)[26] == 3);
  // A block whose own line the filter drops (a name with a secret's word, an over-long line) goes whole:
  // none of its lines lands under the block before it.
  for (const std::string& header :
       {std::string("class-map type qos match-any key"), "class-map type qos match-any X" + std::string(5000, 'x')}) {
    const std::string kept = keep_running_config(kPolicies + header + "\n  match dscp 10\n");
    CHECK(kept == kPolicies);
  }
  CHECK(keep_running_config("class-map type qos match-any monkey-apps\n  match dscp 10\n") ==
        "class-map type qos match-any monkey-apps\n  match dscp 10\n");  // a word, not a substring
  // The whole output is held to the limits before anything is kept.
  CHECK(read_running_config(std::string(33u << 20, 'x')).error().find("over 33554432 bytes") != std::string::npos);
  CHECK(read_running_config(std::string("version 1\n\0", 11)).error() == "show running-config: holds a NUL byte");
}
