// The EOS counter readers on the reference outputs (ANTA's eAPI test data, shared/reference/outputs/eos,
// SOURCES.md), on the documented shapes written out here, and on malformed and hostile variants.
#include "platform/eos/counters_json.h"

#include <doctest/doctest.h>

#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::eos;

namespace {

using Counters = std::map<std::string, uint64_t>;

std::string reference(const std::string& file) {
  return test::file_text(test::shared_path("reference/outputs/eos/" + file));
}

}  // namespace

TEST_CASE("eos pfc counters: ANTA's show priority-flow-control counters" * doctest::test_suite("external")) {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(
      test::shared_path("reference/outputs/eos/show-priority-flow-control-counters_anta.json"));
  const auto got = pfc_counters_json(reference("show-priority-flow-control-counters_anta.json"));
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->size() == 4);
  CHECK(got->at("Ethernet3/1/1") == Counters{{"pfc_rx_pause", 1}, {"pfc_tx_pause", 0}});
  CHECK(got->at("Ethernet3/2/1") == Counters{{"pfc_rx_pause", 0}, {"pfc_tx_pause", 2}});
}

TEST_CASE("eos ecn counters: ANTA's show qos interfaces ecn counters queue" * doctest::test_suite("external")) {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(
      test::shared_path("reference/outputs/eos/show-qos-interfaces-ecn-counters-queue_anta.json"));
  const auto got = ecn_counters_json(reference("show-qos-interfaces-ecn-counters-queue_anta.json"));
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->size() == 4);
  // "-": the queue has no ECN configured, so nothing is counted, and no counter is made up.
  CHECK(got->at("Ethernet10/28/1") == Counters{{"ecn_marked_1", 0}, {"ecn_marked_2", 0}});
  CHECK(got->at("Ethernet10/20/1") == Counters{{"ecn_marked_0", 0}, {"ecn_marked_1", 2}, {"ecn_marked_2", 0}});
}

TEST_CASE("eos pfc counters: the documented shape; other interfaces and bad names skipped") {
  const auto got = pfc_counters_json(R"({"interfaceCounters": {
      "Ethernet1/1": {"rxFrames": 18446744073709551615, "txFrames": 7},
      "Ethernet2": {"rxFrames": 3},
      "Management1": {"rxFrames": "x"},
      "Ethernet 9": {"rxFrames": 1}}})");
  REQUIRE_MESSAGE(got, got.error());
  CHECK(*got == PortCounters{{"Ethernet1/1", {{"pfc_rx_pause", 18446744073709551615U}, {"pfc_tx_pause", 7}}},
                             {"Ethernet2", {{"pfc_rx_pause", 3}}}});
}

TEST_CASE("eos counters: malformed output fails the reading, the path and value quoted") {
  const auto pfc = [](const char* text) {
    const auto r = pfc_counters_json(text);
    return r ? std::string("read") : r.error();
  };
  CHECK(pfc(R"({"interfaceCounters": {"Ethernet1": {"rxFrames": -1}}})").find("interfaceCounters.Ethernet1.rxFrames") ==
        0);
  CHECK(pfc(R"({"interfaceCounters": {"Ethernet1": {"rxFrames": "12"}}})").find("\"12\"") != std::string::npos);
  CHECK(pfc(R"({"interfaceCounters": {"Ethernet1": [1]}})").find("interfaceCounters.Ethernet1") == 0);
  CHECK(pfc(R"({"interfaceCounters": []})").find("interfaceCounters") == 0);
  CHECK(pfc(R"({"errors": ["Invalid input"]})").find("missing required key \"interfaceCounters\"") !=
        std::string::npos);
  CHECK(pfc("% Invalid input").find("invalid JSON") == 0);
  CHECK(pfc(R"({"interfaceCounters": {"Ethernet1": {"rxFrames": {"a": {"b": {"c": {}}}}}}})").find("deeper") !=
        std::string::npos);

  const auto ecn = [](const char* text) {
    const auto r = ecn_counters_json(text);
    return r ? std::string("read") : r.error();
  };
  CHECK(ecn(R"({"intfQueueCounters": {"Ethernet1": {"queueCounters": {"3": "1,200"}}}})") ==
        R"(intfQueueCounters.Ethernet1.queueCounters.3: a string "1,200" is not a count (digits, or "-"))");
  CHECK(ecn(R"({"intfQueueCounters": {"Ethernet1": {"queueCounters": {"3": 5}}}})").find("queueCounters.3") !=
        std::string::npos);
  CHECK(ecn(R"({"intfQueueCounters": {"Ethernet1": {"queueCounters": {"8": "0"}}}})") ==
        "intfQueueCounters.Ethernet1.queueCounters.8: not a queue (0-7)");
  CHECK(ecn(R"({"intfQueueCounters": {"Ethernet1": {}}})") ==
        "intfQueueCounters.Ethernet1: missing required key \"queueCounters\"");
  // A hostile key is quoted in the message, never printed raw.
  CHECK(ecn("{\"intfQueueCounters\": {\"Ethernet1\": {\"queueCounters\": {\"\\u001b[31m\": \"0\"}}}}").find('\x1b') ==
        std::string::npos);
  CHECK(ecn(R"({"intfQueueCounters": {"Ethernet1": {"queueCounters": {"0": "-", "7": "42"}}}})") == "read");
}
