// The Junos JSON readers on real outputs and on outputs derived from real XML by Junos's own mapping
// (tests/fixtures/junos, SOURCES.md), and on malformed and hostile variants.
#include "platform/junos/show_json.h"

#include <doctest/doctest.h>

#include <map>
#include <string>

#include "text_lines.h"
#include "util/json_reader.h"

using namespace fabricctl;
using namespace fabricctl::junos;

namespace {

std::string json_fixture(const std::string& file) {
  return test::file_text(std::string(FABRICCTL_SOURCE_DIR) + "/tests/fixtures/junos/" + file);
}

/// A leaf as Junos maps it: "key": [{"data": "value"}].
std::string leaf(const std::string& key, const std::string& value) {
  return "\"" + key + R"(": [{"data": ")" + value + "\"}]";
}

/// `show interfaces` with the physical interfaces `rows` (each the members of one object).
std::string interfaces(const std::string& rows) {
  return R"({"interface-information": [{"attributes": {"junos:style": "normal"}, "physical-interface": [)" + rows +
         "]}]}\n";
}

std::string one_interface(const std::string& fields) {
  return interfaces("{" + leaf("name", "et-0/0/1") + ", " + fields + "}");
}

/// `show lldp neighbors` with the entries `rows` (each the members of one object).
std::string neighbors(const std::string& rows) {
  return R"({"lldp-neighbors-information": [{"attributes": {"junos:style": "brief"}, "lldp-neighbor-information": [)" +
         rows + "]}]}";
}

}  // namespace

TEST_CASE("junos show interfaces: a real vQFX-10000 on 17.4R1, its prompt line and its repeated elements") {
  const std::string text = json_fixture("show-interfaces-display-json.vqfx-17.4R1.txt");
  // What the reader has to tolerate in this output: a prompt line after the document, and an element
  // twice in one object, which the strict reader's default refuses.
  REQUIRE(text.ends_with("}\n\n{master:0}\n"));
  const auto strict = jsonr::parse_json(text.substr(0, text.size() - 11), {size_t{64} << 20, 32});
  REQUIRE_FALSE(strict);
  CHECK(strict.error() == "interface-information[0].physical-interface[3].eth-switch-error: duplicate key");

  const auto got = interfaces_json(text);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 12);  // xe-0/0/0 to xe-0/0/11
  for (const auto& entry : got->ports) {
    const std::string& name = entry.first;
    const PortObserved& p = entry.second;
    CAPTURE(name);
    CHECK(name.starts_with("xe-0/0/"));
    CHECK(p.name == name);
    CHECK(p.mtu == 1500);  // media MTU "1514", less the 14-byte Ethernet header
    CHECK(p.speed_mbps == 10000);
    CHECK(p.oper_up == true);
    // The plain command prints FEC statistics, and no error lists, PFC or queue tables.
    CHECK(p.counters == std::map<std::string, uint64_t>{{"fec_corrected", 0}, {"fec_uncorrectable", 0}});
  }
  CHECK(got->ports.count("xe-0/0/11"));
  for (const char* other : {"gr-0/0/0", "pfe-0/0/0", "em0", "irb", "lo0", "vtep", "vme", "bme0"})
    CHECK(got->ports.count(other) == 0);

  // The same without the prompt line, and with CR LF line ends after it.
  for (const std::string& variant : {text.substr(0, text.size() - 11), text.substr(0, text.size() - 1) + "\r\n"}) {
    const auto again = interfaces_json(variant);
    REQUIRE_MESSAGE(again, again.error());
    CHECK(again->ports.size() == 12);
  }
}

TEST_CASE("junos show interfaces terse: a real output without front-panel ports is read, and empty") {
  const auto got = interfaces_json(json_fixture("show-interfaces-terse-display-json.pyez-test.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.empty());  // cbp0, em0, irb, lo0, vtep, ...: none is a port
  CHECK(got->unreadable.empty());
}

TEST_CASE("junos show interfaces extensive: a Junos 22.4 QFX's counters, PFC per priority and queues") {
  // Derived by Junos's XML-to-JSON rule from the Juniper-published XML (tests/fixtures/junos, SOURCES.md);
  // gr-0/0/0 prints input-mac-pfc-frames twice in a row, which the rule makes an array of two: not a
  // port, so skipped, not refused.
  const auto got = interfaces_json(json_fixture("show-interfaces-extensive-pfc.qfx-22.4.apstra-iba-doc.derived.json"),
                                   "show interfaces extensive");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 1);
  const PortObserved& p = got->ports.at("et-0/0/24");
  CHECK(p.mtu == 9202);
  CHECK(p.speed_mbps == 40000);
  std::map<std::string, uint64_t> want{{"fcs_errors", 0},
                                       {"rx_discards", 0},
                                       {"tx_discards", 0},
                                       {"link_changes", 3},
                                       {"fec_corrected", 0},
                                       {"fec_uncorrectable", 0},
                                       {"queue_tx_packets_0", 29690976297},
                                       {"queue_drops_0", 0},
                                       {"queue_tx_packets_3", 0},
                                       {"queue_drops_3", 0},
                                       {"queue_tx_packets_4", 0},
                                       {"queue_drops_4", 0},
                                       {"queue_tx_packets_7", 6060500},
                                       {"queue_drops_7", 0}};
  for (int prio = 0; prio < 8; ++prio)
    want["pfc_rx_pause_" + std::to_string(prio)] = want["pfc_tx_pause_" + std::to_string(prio)] = 0;
  CHECK(p.counters == want);
}

TEST_CASE("junos show interfaces extensive: a bad counter makes its port unreadable, named, not the switch") {
  const auto pfc = [](const std::string& priority, const std::string& frames) {
    return R"({"attributes": {"junos:style": "verbose"}, )" + leaf("mac-pfc-dot1p", priority) + ", " +
           leaf("input-mac-pfc-frames", frames) + ", " + leaf("output-mac-pfc-frames", "2") + "}";
  };
  const auto queue = [](const std::string& number, const std::string& sent) {
    return "{" + leaf("queue-number", number) + ", " + leaf("queue-counters-trans-packets", sent) + ", " +
           leaf("queue-counters-total-drop-packets", "1") + "}";
  };
  const std::string good = "{" + leaf("name", "et-0/0/2") + R"(, "ethernet-mac-pfc-statistics": [)" + pfc("3", "9") +
                           R"(], "queue-counters": [{"queue": [)" + queue("3", "70") + "]}]}";
  const struct {
    std::string fields, why;
  } cases[] = {
      {R"("ethernet-mac-pfc-statistics": [)" + pfc("8", "1") + "]",
       R"(physical-interface[0].ethernet-mac-pfc-statistics[0].mac-pfc-dot1p[0].data: a string "8" is out of range 0-7)"},
      {R"("ethernet-mac-pfc-statistics": [)" + pfc("3", "1") + ", " + pfc("3", "1") + "]",
       "physical-interface[0].ethernet-mac-pfc-statistics[1]: pfc_rx_pause_3 is printed twice"},
      {R"("ethernet-mac-pfc-statistics": [{)" + leaf("input-mac-pfc-frames", "1") + "}]",
       "physical-interface[0].ethernet-mac-pfc-statistics[0]: PFC frames without their priority (mac-pfc-dot1p)"},
      {R"("ethernet-mac-pfc-statistics": [)" + pfc("3", "18446744073709551616") + "]",
       "physical-interface[0].ethernet-mac-pfc-statistics[0].input-mac-pfc-frames[0].data: a string "
       R"("18446744073709551616" is out of range 0-18446744073709551615)"},
      {R"("queue-counters": [{"queue": [)" + queue("3", "-1") + "]}]",
       R"(physical-interface[0].queue-counters[0].queue[0].queue-counters-trans-packets[0].data: a string "-1" is not a number)"},
      {R"("queue-counters": [{"queue": [{)" + leaf("queue-counters-trans-packets", "1") + "}]}]",
       "physical-interface[0].queue-counters[0].queue[0]: a queue without its number (queue-number)"},
      {R"("output-error-list": [{)" + leaf("carrier-transitions", "2x") + "}]",
       R"(physical-interface[0].output-error-list[0].carrier-transitions[0].data: a string "2x" is not a number)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.fields);
    const auto got = interfaces_json(interfaces("{" + leaf("name", "et-0/0/1") + ", " + c.fields + "}, " + good),
                                     "show interfaces extensive");
    REQUIRE_MESSAGE(got, got.error());
    REQUIRE(got->unreadable.count("et-0/0/1"));
    CHECK(got->unreadable.at("et-0/0/1") == "show interfaces extensive: interface-information[0]." + c.why);
    REQUIRE(got->ports.count("et-0/0/2"));
    CHECK(got->ports.at("et-0/0/2").counters ==
          std::map<std::string, uint64_t>{
              {"pfc_rx_pause_3", 9}, {"pfc_tx_pause_3", 2}, {"queue_tx_packets_3", 70}, {"queue_drops_3", 1}});
  }
}

TEST_CASE("junos show interfaces: MTU, speed, state, counters and names") {
  auto got = interfaces_json(one_interface(
      leaf("mtu", "9216") + ", " + leaf("speed", "400Gbps") + ", " +
      R"("oper-status": [{"data": "down", "attributes": {"junos:format": "Down"}}], )" + R"("input-error-list": [{)" +
      leaf("input-errors", "11") + ", " + leaf("input-drops", "3") + ", " + leaf("framing-errors", "7") + "}], " +
      R"("output-error-list": [{)" + leaf("output-drops", "5") + ", " + leaf("output-errors", "13") + "}]"));
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.count("et-0/0/1"));
  const PortObserved& p = got->ports.at("et-0/0/1");
  CHECK(p.mtu == 9202);
  CHECK(p.speed_mbps == 400000);
  CHECK(p.oper_up == false);
  CHECK(p.counters == std::map<std::string, uint64_t>{{"fcs_errors", 7}, {"rx_discards", 3}, {"tx_discards", 5}});

  const struct {
    std::string fields;
    std::optional<int> mtu, speed;
  } cases[] = {
      {leaf("speed", "800mbps"), std::nullopt, 800},
      {leaf("speed", "2.5Gbps"), std::nullopt, 2500},
      {leaf("speed", "1.6Gbps"), std::nullopt, 1600},
      {leaf("speed", "Auto") + ", " + leaf("mtu", "Unlimited"), std::nullopt, std::nullopt},
      {leaf("speed", "Unlimited"), std::nullopt, std::nullopt},
      {leaf("speed", "Unspecified"), std::nullopt, std::nullopt},
      {leaf("speed", "0mbps"), std::nullopt, std::nullopt},
      {R"("mtu": [{"data": [null]}], "speed": [{}])", std::nullopt, std::nullopt},  // empty elements
      {R"("mtu": [{"attributes": {"junos:emit": "emit"}}])", std::nullopt, std::nullopt},
      {leaf("mtu", "1514"), 1500, std::nullopt},
      {leaf("mtu", "82"), 68, std::nullopt},
  };
  for (const auto& c : cases) {
    CAPTURE(c.fields);
    got = interfaces_json(one_interface(c.fields));
    REQUIRE_MESSAGE(got, got.error());
    REQUIRE(got->ports.count("et-0/0/1"));
    CHECK(got->ports.at("et-0/0/1").mtu == c.mtu);
    CHECK(got->ports.at("et-0/0/1").speed_mbps == c.speed);
    CHECK_FALSE(got->ports.at("et-0/0/1").oper_up);
    CHECK(got->ports.at("et-0/0/1").counters.empty());
  }

  // Names: breakout channels and all three kinds are ports; other interfaces are skipped; a name of a
  // port's kind that is not one is unreadable.
  got = interfaces_json(interfaces("{" + leaf("name", "et-0/0/0:1") + "}, {" + leaf("name", "xe-1/2/127") + "}, {" +
                                   leaf("name", "ge-10/0/0") + "}, {" + leaf("name", "ae0") + "}, {" +
                                   leaf("name", "em0") + "}, {" + leaf("name", "et-0/0/0.0") + "}, {" +
                                   leaf("name", "et-0/0/1234") + "}, {" + leaf("name", "xe-0/0/0:123") + "}, {" +
                                   leaf("name", R"(et-0/0/2\u001b[2J)") + "}"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.size() == 3);
  CHECK(got->ports.count("et-0/0/0:1"));
  CHECK(got->ports.count("xe-1/2/127"));
  CHECK(got->ports.count("ge-10/0/0"));
  CHECK(got->unreadable.size() == 4);
  for (const char* bad : {"et-0/0/0.0", "et-0/0/1234", "xe-0/0/0:123", "et-0/0/2\\x1b[2J"}) {
    CAPTURE(bad);
    REQUIRE(got->unreadable.count(bad));
    CHECK(got->unreadable.at(bad).starts_with("not a port name (et-, xe- or ge-"));
  }

  // A port printed twice is unreadable, whichever copy is good.
  got = interfaces_json(interfaces("{" + leaf("name", "et-0/0/1") + ", " + leaf("mtu", "1514") + "}, {" +
                                   leaf("name", "et-0/0/1") + ", " + leaf("mtu", "9216") + "}"));
  REQUIRE(got);
  CHECK(got->ports.empty());
  CHECK(got->unreadable.at("et-0/0/1") ==
        "show interfaces: interface-information[0].physical-interface[1]: et-0/0/1 is printed twice");
}

TEST_CASE("junos show interfaces: a bad value makes its port unreadable, with its path and the value") {
  const struct {
    std::string fields;
    std::string why;
  } bad[] = {
      {leaf("mtu", "abc"), R"(mtu[0].data: a string "abc" is not a number)"},
      {leaf("mtu", "99999999"), R"(mtu[0].data: a string "99999999" is out of range 82-65535)"},
      {leaf("mtu", "99999999999999999999999"), R"(mtu[0].data: a string "99999999999999999999999" is out of range)"},
      {leaf("mtu", "-1"), R"(mtu[0].data: a string "-1" is not a number)"},
      {leaf("mtu", "81"), R"(mtu[0].data: a string "81" is out of range 82-65535)"},
      {leaf("mtu", "1514 bytes"), R"(mtu[0].data: a string "1514 bytes" is not a number)"},
      {leaf("mtu", ""), R"(mtu[0].data: a string "" is not a number)"},
      {R"("mtu": [{"data": 1514}])", R"(mtu[0].data: expected a string, got a number "1514")"},
      {R"("mtu": "1514")", R"(mtu: expected an array, got a string "1514")"},
      {R"("mtu": [])", "mtu: expected one element, got none"},
      {R"("mtu": [{"data": "1514"}, {"data": "1514"}])", "mtu: 2 elements are more than the limit of 1"},
      {R"("mtu": [{"data": "1514", "unit": "bytes"}])", "mtu[0].unit: unknown key"},
      {R"("mtu": [{"data": [null, null]}])", "mtu[0].data: expected a string, got an array"},
      {R"("mtu": [{"data": "1514", "attributes": "x"}])", "mtu[0].attributes: expected an object"},
      {leaf("speed", "fast"), R"(speed[0].data: a string "fast" is not a speed)"},
      {leaf("speed", "10Tbps"), R"(speed[0].data: a string "10Tbps" is not a speed)"},
      {leaf("speed", "2.5mbps"), R"(speed[0].data: a string "2.5mbps" is not a speed)"},
      {leaf("speed", "1.2345Gbps"), R"(speed[0].data: a string "1.2345Gbps" is not a speed)"},
      {leaf("speed", "2000Gbps"), R"(speed[0].data: a string "2000Gbps" is more than 1.6 Tb/s)"},
      {leaf("speed", "99999999999Gbps"), R"(speed[0].data: a string "99999999999Gbps" is not a speed)"},
      {leaf("oper-status", "sideways"), R"(oper-status[0].data: "sideways" is not one of "up", "down")"},
      {R"("input-error-list": [{)" + leaf("framing-errors", "-3") + "}]",
       R"(input-error-list[0].framing-errors[0].data: a string "-3" is not a number)"},
      {R"("output-error-list": [{)" + leaf("output-drops", "18446744073709551616") + "}]",
       R"(output-error-list[0].output-drops[0].data: a string "18446744073709551616" is out of range 0-18446744073709551615)"},
      {R"("output-error-list": [{}, {}])", "output-error-list: 2 elements, expected one"},
      {R"("input-error-list": {"input-drops": "1"})", "input-error-list: expected an array, got an object"},
  };
  for (const auto& b : bad) {
    CAPTURE(b.fields);
    const auto got = interfaces_json(interfaces("{" + leaf("name", "xe-0/0/2") + ", " + leaf("mtu", "1514") + "}, {" +
                                                leaf("name", "xe-0/0/1") + ", " + b.fields + "}"));
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->ports.at("xe-0/0/2").mtu == 1500);  // the other port is read
    CHECK(got->ports.count("xe-0/0/1") == 0);
    REQUIRE(got->unreadable.count("xe-0/0/1"));
    const std::string& why = got->unreadable.at("xe-0/0/1");
    CHECK_MESSAGE(why.starts_with("show interfaces: interface-information[0].physical-interface[1]." + b.why), why);
  }
}

TEST_CASE("junos show interfaces: what is refused as a whole") {
  const std::string good = one_interface(leaf("mtu", "1514"));
  REQUIRE(interfaces_json(good));
  // Text after the document that is not a prompt line of the form {word:digits}, or a prompt before it.
  for (const std::string& after :
       {std::string("\nuser@qfx> \n"), std::string("\n{master:0} x\n"), std::string("\n{master:0}\n{master:0}\n"),
        std::string("\n{master}\n"), std::string("\n{master:x}\n"), std::string("\n{:0}\n"),
        std::string("\n{master:12345}\n"), std::string("\n{mas-ter:0}\n"), std::string("\n{master:0}\n\n\n{}\n")}) {
    CAPTURE(after);
    CHECK_FALSE(interfaces_json(good + after));
  }
  CHECK(interfaces_json(good + "\n{backup:1}\n"));
  CHECK(interfaces_json(good + "\n{linecard:12}"));
  CHECK(interfaces_json(good + "{master:0}\n"));  // on its own line, right after the document
  CHECK_FALSE(interfaces_json(good.substr(0, good.size() - 1) + "{master:0}\n"));
  CHECK_FALSE(interfaces_json("{master:0}\n" + good));
  CHECK(interfaces_json("{master:0}").error().starts_with("show interfaces: invalid JSON"));

  // A key repeated with a different value (an equal one is accepted, as Junos prints some twice).
  CHECK(interfaces_json(
      one_interface(leaf("mtu", "1514") + ", " + leaf("speed", "10Gbps") + ", " + leaf("mtu", "1514"))));
  CHECK(
      interfaces_json(one_interface(leaf("mtu", "1514") + ", " + leaf("speed", "10Gbps") + ", " + leaf("mtu", "9216")))
          .error() ==
      "show interfaces: interface-information[0].physical-interface[0].mtu: duplicate key with a different value");

  CHECK(interfaces_json("[]").error() == R"(show interfaces: not a JSON object with an "interface-information")");
  CHECK(interfaces_json("{}").error() == R"(show interfaces: not a JSON object with an "interface-information")");
  CHECK_FALSE(interfaces_json(""));
  CHECK_FALSE(interfaces_json("error: syntax error, expecting <command>: interfacs"));
  CHECK(interfaces_json(R"({"interface-information": {"physical-interface": []}})").error() ==
        "show interfaces: interface-information: expected an array, got an object");
  CHECK(interfaces_json(R"({"interface-information": [{"physical-interface": [7]}]})").error() ==
        R"(show interfaces: interface-information[0].physical-interface[0]: expected an object, got a number "7")");
  CHECK(interfaces_json(interfaces("{" + leaf("mtu", "1514") + "}")).error() ==
        "show interfaces: interface-information[0].physical-interface[0]: an interface without its name");
  CHECK(interfaces_json(interfaces(R"({"name": [{"data": [null]}]})")).error() ==
        "show interfaces: interface-information[0].physical-interface[0]: an interface without its name");
  CHECK(
      interfaces_json(interfaces(R"({"name": [{"data": 5}]})")).error() ==
      R"(show interfaces: interface-information[0].physical-interface[0].name[0].data: expected a string, got a number "5")");

  // Nesting deeper than 32 levels, and a text over 64 MiB.
  std::string deep = R"({"interface-information": )";
  for (int i = 0; i < 40; ++i) deep += "[";
  for (int i = 0; i < 40; ++i) deep += "]";
  CHECK(interfaces_json(deep + "}").error().find("nesting deeper than 32 levels") != std::string::npos);
  const std::string huge = good + std::string((size_t{64} << 20) - good.size() + 1, ' ');
  CHECK(interfaces_json(huge).error().starts_with("show interfaces: text is 67108865 bytes, more than the limit"));
}

TEST_CASE("junos show lldp neighbors: outputs derived from real XML by Junos's JSON mapping") {
  // A QFX5110 (napalm's test data): no remote port ID, so the port description.
  auto got = lldp_neighbors_json(json_fixture("get-lldp-neighbors-information.qfx5110.napalm-test.derived.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 1);
  CHECK(got->ports.at("ge-2/0/0").system_name == "EX9208");
  CHECK(got->ports.at("ge-2/0/0").port_id == "ge-3/3/1");

  // Mixed: lldp-local-port-id (subtype "Interface name": the port ID), and lldp-local-interface as older
  // releases print it, a logical unit (ge-0/0/0.0) or the management port: not a port, skipped.
  got = lldp_neighbors_json(json_fixture("get-lldp-neighbors-information.mixed.napalm-test.derived.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 1);
  CHECK(got->ports.at("xe-4/3/6").system_name == "peer00.lab.demo");
  CHECK(got->ports.at("xe-4/3/6").port_id == "Ethernet1");

  // The detail form (`show lldp neighbors interface IF`) repeats elements with different values
  // (lldp-remote-index 1, 2, ...) in one object: refused, after the equal repeats before it.
  got = lldp_neighbors_json(json_fixture("get-lldp-interface-neighbors-detail.qfx5110.napalm-test.derived.json"));
  REQUIRE_FALSE(got);
  CHECK(got.error() ==
        "show lldp neighbors: lldp-neighbors-information[0].lldp-neighbor-information[0].lldp-remote-index: duplicate "
        "key with a different value");

  // sonic-mgmt's example of the JSON: local ports with breakout channels, no neighbour names.
  got = lldp_neighbors_json(json_fixture("lldp-neighbors.display-json.derived-from-sonic-mgmt-docstring.json"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->ports.empty());
  CHECK(got->unreadable.empty());
}

TEST_CASE("junos show lldp neighbors: local and remote ports, no neighbours") {
  auto got = lldp_neighbors_json(neighbors(
      "{" + leaf("lldp-local-port-id", "et-0/0/28:1") + ", " + leaf("lldp-remote-port-id-subtype", "Locally assigned") +
      ", " + leaf("lldp-remote-port-id", "549") + ", " + leaf("lldp-remote-port-description", "ge-3/3/1") + ", " +
      leaf("lldp-remote-system-name", "ex9208") + "}, {" +
      // The detail form's fields: the local port ID is a number, the interface its name.
      leaf("lldp-local-interface", "et-0/0/2") + ", " + leaf("lldp-local-port-id", "667") + ", " +
      leaf("lldp-remote-port-id-subtype", "Mac address") + ", " + leaf("lldp-remote-port-id", "2c:21:31:a5:17:c0") +
      ", " + leaf("lldp-remote-port-description", "Ethernet7") + "}, {" + leaf("lldp-local-port-id", "et-0/0/3") +
      ", " + leaf("lldp-remote-port-id-subtype", "Mac address") + ", " +
      leaf("lldp-remote-port-id", "0c:42:a1:00:00:01") + "}, {" + leaf("lldp-local-port-id", "et-0/0/28:1") + ", " +
      leaf("lldp-remote-system-name", "second") + "}, {" + leaf("lldp-local-port-id", "re0:mgmt-0") + ", " +
      leaf("lldp-remote-system-name", "oob") + "}, {" + leaf("lldp-local-port-id", "et-0/0/4") + ", " +
      R"("lldp-remote-system-name": [{"data": [null]}])" + "}"));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->unreadable.empty());
  REQUIRE(got->ports.size() == 3);
  CHECK(got->ports.at("et-0/0/28:1").system_name == "ex9208");  // the first neighbour of a port
  CHECK(got->ports.at("et-0/0/28:1").port_id == "549");
  CHECK(got->ports.at("et-0/0/2").system_name.empty());
  CHECK(got->ports.at("et-0/0/2").port_id == "Ethernet7");
  CHECK(got->ports.at("et-0/0/3").port_id == "0c:42:a1:00:00:01");
  CHECK(got->ports.count("et-0/0/4") == 0);  // names nothing

  for (const std::string& none :
       {std::string(""), std::string("\n"), std::string("\n\n{master:0}\n"),
        std::string(R"({"lldp-neighbors-information": [{"attributes": {"junos:style": "brief"}}]})"),
        std::string(R"({"lldp-neighbors-information": [{"attributes": {"junos:style": "brief"}}]})") +
            "\n\n{master:0}\n"}) {
    CAPTURE(none);
    got = lldp_neighbors_json(none);
    REQUIRE_MESSAGE(got, got.error());
    CHECK(got->ports.empty());
    CHECK(got->unreadable.empty());
  }
}

TEST_CASE("junos show lldp neighbors: hostile names, and what is refused as a whole") {
  // One neighbour with a TAB, an escape character or a name of 300 bytes, as its name or its port: that
  // port's neighbour is unreadable, the others are read.
  for (const std::string key : {"lldp-remote-system-name", "lldp-remote-port-description"})
    for (const std::string& name :
         {std::string(R"(ho\tst)"), std::string(R"(ho\u001bst)"), std::string(R"(\u0085)"), std::string(300, 'a')}) {
      CAPTURE(key);
      CAPTURE(name);
      const auto got = lldp_neighbors_json(neighbors("{" + leaf("lldp-local-port-id", "et-0/0/1") + ", " +
                                                     leaf(key, name) + "}, {" + leaf("lldp-local-port-id", "et-0/0/2") +
                                                     ", " + leaf("lldp-remote-system-name", "leaf2") + "}"));
      REQUIRE_MESSAGE(got, got.error());
      CHECK(got->ports.count("et-0/0/1") == 0);
      REQUIRE(got->unreadable.count("et-0/0/1"));
      CHECK_MESSAGE(
          got->unreadable.at("et-0/0/1")
              .starts_with("show lldp neighbors: lldp-neighbors-information[0].lldp-neighbor-information[0]." + key +
                           "[0].data: \""),
          got->unreadable.at("et-0/0/1"));
      CHECK(got->unreadable.at("et-0/0/1").ends_with("is not 1-255 characters without control characters"));
      CHECK(got->ports.at("et-0/0/2").system_name == "leaf2");
    }
  // A bad value's shape: the port is unreadable.
  auto got = lldp_neighbors_json(
      neighbors("{" + leaf("lldp-local-port-id", "et-0/0/1") + R"(, "lldp-remote-system-name": [{"data": 7}]})"));
  REQUIRE(got);
  CHECK(got->unreadable.at("et-0/0/1") ==
        "show lldp neighbors: lldp-neighbors-information[0].lldp-neighbor-information[0].lldp-remote-system-name[0]."
        "data: expected a string, got a number \"7\"");

  // No local port, or a local port that is not text: nothing to charge the entry to.
  CHECK(lldp_neighbors_json(neighbors("{" + leaf("lldp-remote-system-name", "x") + "}")).error() ==
        "show lldp neighbors: lldp-neighbors-information[0].lldp-neighbor-information[0]: no local port "
        "(\"lldp-local-port-id\" or \"lldp-local-interface\")");
  CHECK_FALSE(lldp_neighbors_json(neighbors(R"({"lldp-local-port-id": [{"data": 5}]})")));
  CHECK(lldp_neighbors_json("[]").error() ==
        R"(show lldp neighbors: not a JSON object with an "lldp-neighbors-information")");
  CHECK(lldp_neighbors_json(R"({"lldp-neighbor-information": []})").error() ==
        R"(show lldp neighbors: not a JSON object with an "lldp-neighbors-information")");
  CHECK_FALSE(lldp_neighbors_json("not json"));
  CHECK_FALSE(lldp_neighbors_json(neighbors("") + "\nuser@qfx> \n"));
  CHECK(lldp_neighbors_json(neighbors("{" + leaf("lldp-local-port-id", "et-0/0/1") + ", " +
                                      leaf("lldp-remote-system-name", "a") + ", " +
                                      leaf("lldp-remote-system-name", "b") + "}"))
            .error()
            .ends_with("lldp-remote-system-name: duplicate key with a different value"));
  std::string deep = R"({"lldp-neighbors-information": )";
  for (int i = 0; i < 40; ++i) deep += "[";
  CHECK_FALSE(lldp_neighbors_json(deep));
}
