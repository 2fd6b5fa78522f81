// NVUE's per-port QoS counters: NVIDIA's own example in shared/ (required in CI), the emulator's layout
// of the same with counts, and malformed output.
#include "platform/nvue/qos_counters.h"

#include <doctest/doctest.h>

#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::nvue;

namespace {

using Counters = std::map<std::string, uint64_t>;

/// NVIDIA's example without the documentation's closing "... " elision line (SOURCES.md).
std::string example() {
  std::string text =
      test::file_text(test::shared_path("reference/outputs/nvue/nv-show-interface-swp1-counters-qos.txt"));
  if (const size_t at = text.rfind("\n... "); at != std::string::npos) text.erase(at + 1);
  return text;
}

const char* const kCounted = R"(PFC Statistics
=================
    switch-priority  rx-pause-frames  rx-pause-duration  tx-pause-frames  tx-pause-duration
    ---------------  ---------------  -----------------  ---------------  -----------------
    3                1234567          10                 7                0                
    4                n/a              n/a                n/a              n/a              

Egress Queue Statistics
==========================
    traffic-class  tx-frames  tx-bytes  tx-uc-buffer-discards  wred-discards
    -------------  ---------  --------  ---------------------  -------------
    3              900        56.52 MB  0 Bytes                12           

Qos Port Statistics
======================
    Counter             Receive  Transmit
    ------------------  -------  --------
    ecn-marked-packets  n/a      99      
    pause-frames        1234567  7       
)";

}  // namespace

TEST_CASE("nvue counters qos: NVIDIA's example" * doctest::test_suite("external")) {
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(test::shared_path("reference/outputs/nvue/nv-show-interface-swp1-counters-qos.txt"));
  const auto got = qos_counters(example());
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->size() == 8 * 2 + 8 * 2 + 1);  // PFC both ways and queue frames and WRED drops, per 0-7; marks
  CHECK(got->at("pfc_rx_pause_3") == 0);
  CHECK(got->at("wred_drops_7") == 0);
  CHECK(got->at("ecn_marked") == 0);
}

TEST_CASE("nvue counters qos: pauses per priority, queue frames and WRED drops, the port's marks; n/a absent") {
  const auto got = qos_counters(kCounted);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(*got == Counters{{"pfc_rx_pause_3", 1234567},
                         {"pfc_tx_pause_3", 7},
                         {"queue_tx_packets_3", 900},
                         {"wred_drops_3", 12},
                         {"ecn_marked", 99}});
}

TEST_CASE("nvue counters qos: malformed output is refused, naming the section, row and column") {
  std::string bad = kCounted;
  bad.replace(bad.find("1234567  "), 7, "1.2e+06");
  CHECK(qos_counters(bad).error() == "PFC Statistics 3 column \"rx-pause-frames\": \"1.2e+06\" is not a count");
  bad = kCounted;
  bad.replace(bad.find("    4      "), 5, "    9");
  CHECK(qos_counters(bad).error() == "PFC Statistics: switch-priority \"9\" is not 0-7");
  bad = kCounted;
  bad.replace(bad.find("wred-discards"), 13, "wred-dropped!");
  CHECK(qos_counters(bad).error().find("Egress Queue Statistics: ") == 0);
  CHECK(qos_counters("Error: The requested item does not exist.\n").error() == "no \"PFC Statistics\" section");
  bad = kCounted;
  bad.erase(bad.find("Qos Port Statistics"));
  CHECK(qos_counters(bad).error() == "no \"Qos Port Statistics\" section");
}

TEST_CASE("nvue pfc-watchdog: NVIDIA's example, storms per traffic class" * doctest::test_suite("external")) {
  const auto path = test::shared_path("reference/outputs/nvue/nv-show-interface-swp1-qos-pfc-watchdog.txt");
  FABRICCTL_REQUIRE_SHARED_OR_SKIP(path);
  const auto got = pfc_watchdog(test::file_text(path));
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->size() == 8);
  CHECK(got->at("watchdog_storms_1") == 3);
  CHECK(got->at("watchdog_storms_7") == 3);
  CHECK(got->at("watchdog_storms_0") == 0);
}

TEST_CASE("nvue pfc-watchdog: a count that is not one is refused; no status table, no counters") {
  const std::string ok =
      "state            enabled      enabled \n\nPFC WD Status \n=========================== \n"
      "    traffic-class  status    deadlock-count \n    -------------  --------  -------------- \n\n"
      "    3              DEADLOCK  12 \n";
  const auto got = pfc_watchdog(ok);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(*got == Counters{{"watchdog_storms_3", 12}});
  std::string bad = ok;
  bad.replace(bad.find("12 "), 2, "-1");
  CHECK(pfc_watchdog(bad).error() == "PFC WD Status 3 column \"deadlock-count\": \"-1\" is not a count");
  const auto off = pfc_watchdog("                 operational  applied\nstate            disabled     disabled\n");
  REQUIRE_MESSAGE(off, off.error());
  CHECK(off->empty());
}
