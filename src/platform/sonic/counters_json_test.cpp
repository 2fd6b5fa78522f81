// SONiC's JSON counter commands: the real queue counters in shared/ (sonic-utilities'
// tests/queue_counter_test.py; required in CI), the shapes of portstat's and wredstat's JSON as their
// source builds them (netstat.py table_as_json, wredstat build_json), and malformed and hostile output.
#include "platform/sonic/counters_json.h"

#include <doctest/doctest.h>

#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::sonic;

namespace {

using Counters = std::map<std::string, uint64_t>;

}  // namespace

TEST_CASE("sonic queue counters: sonic-utilities' own JSON" * doctest::test_suite("external")) {
  const auto path =
      test::shared_path("reference/outputs/sonic/show-queue-counters-Ethernet8-json_queue-counter-test.json");
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(path);
  const auto got = queue_counters_json(test::file_text(path));
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->size() == 1);
  const Counters& c = got->at("Ethernet8");
  // UC0-UC9: the unicast queues; the MC and ALL queues are not read.
  CHECK(c.size() == 20);
  CHECK(c.at("queue_tx_packets_1") == 38);
  CHECK(c.at("queue_drops_1") == 68);
  CHECK(c.at("queue_drops_9") == 91);
  CHECK(c.count("queue_drops_10") == 0);
}

TEST_CASE("sonic queue and wred counters: unicast queues, separators, N/A absent, the reading's time") {
  const auto q = queue_counters_json(R"({"Ethernet0": {"time": "2026-12-05 08:00:00.000000",
      "cached_time": "2026-12-05 07:00:00.000000",
      "UC3": {"totalpacket": "1,234,567", "totalbytes": "9", "droppacket": "12", "dropbytes": "N/A"},
      "UC4": {"totalpacket": "N/A", "totalbytes": "N/A", "droppacket": "N/A", "dropbytes": "N/A"},
      "MC3": {"totalpacket": "5", "totalbytes": "5", "droppacket": "5", "dropbytes": "5"}},
    "Eth;reboot": {"UC3": {"droppacket": "1"}}})");
  REQUIRE_MESSAGE(q, q.error());
  CHECK(q->size() == 1);  // a name fabricctl would not accept is no inventory port
  CHECK(q->at("Ethernet0") == Counters{{"queue_drops_3", 12}, {"queue_tx_packets_3", 1234567}});
  const auto w = wred_counters_json(R"({"Ethernet0": {"time": "2026-12-05 08:00:00.000000",
      "UC3": {"wreddroppacket": "0", "wreddropbytes": "0", "ecnmarkedpacket": "4,096", "ecnmarkedbytes": "1"}}})");
  REQUIRE_MESSAGE(w, w.error());
  CHECK(w->at("Ethernet0") == Counters{{"ecn_marked_3", 4096}, {"wred_drops_3", 0}});
}

TEST_CASE("sonic portstat: errors, discards and FEC codewords per port") {
  const auto e = port_errors_json(R"({"Ethernet0": {"STATE": "U", "RX_ERR": "1,024", "RX_DRP": "3",
      "RX_OVR": "0", "TX_ERR": "0", "TX_DRP": "N/A", "TX_OVR": "0"}})");
  REQUIRE_MESSAGE(e, e.error());
  CHECK(e->at("Ethernet0") == Counters{{"rx_discards", 3}, {"rx_errors", 1024}, {"tx_errors", 0}});
  // 202411 and later add BER and FLR columns (floats as text), which are not read.
  const auto f = fec_stats_json(R"({"Ethernet0": {"STATE": "U", "FEC_CORR": "100", "FEC_UNCORR": "2",
      "FEC_SYMBOL_ERR": "300", "FEC_PRE_BER": "1.48e-10", "FEC_POST_BER": "0.00e+00"}})");
  REQUIRE_MESSAGE(f, f.error());
  CHECK(f->at("Ethernet0") == Counters{{"fec_corrected", 100}, {"fec_uncorrectable", 2}});
}

TEST_CASE("sonic JSON counters: malformed output fails the reading, the path and value quoted") {
  CHECK(port_errors_json(R"({"Ethernet0": {"RX_ERR": "-1"}})").error() ==
        "Ethernet0.RX_ERR: a string \"-1\" is not a count (digits with thousands separators, or \"N/A\")");
  CHECK(port_errors_json(R"({"Ethernet0": {"RX_ERR": 5}})").error().find("Ethernet0.RX_ERR: ") == 0);
  CHECK(port_errors_json(R"({"Ethernet0": []})").error().find("Ethernet0: ") == 0);
  CHECK(queue_counters_json(R"({"Ethernet0": {"XX3": {}}})").error() ==
        "Ethernet0.XX3: not a queue (UC<n>, MC<n>, ALL<n>) or the reading's time");
  CHECK(queue_counters_json(R"({"Ethernet0": {"UC3": {"droppacket": "1,00"}}})")
            .error()
            .find("Ethernet0.UC3.droppacket: a string \"1,00\" is not a count") == 0);
  CHECK(!wred_counters_json("COUNTERS_QUEUE_NAME_MAP is empty!\n"));
  CHECK(!queue_counters_json(R"([1, 2])"));
  std::string deep(100, '[');
  CHECK(!fec_stats_json(R"({"Ethernet0": )" + deep));
}
