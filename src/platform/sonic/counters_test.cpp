// SONiC's counter tables: the real outputs in shared/ (sonic-utilities' own tests, the Command
// Reference, an issue thread's stormed queue; required in CI), the same layouts with other values, and
// hostile ones.
#include "platform/sonic/counters.h"

#include <doctest/doctest.h>

#include "shared_dir.h"
#include "text_lines.h"

using namespace fabricctl;
using namespace fabricctl::sonic;

namespace {

const char* const kPfc = R"(  Port Rx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7
---------  ------  ------  ------  ------  ------  ------  ------  ------
Ethernet0       0       0       0  12,345       0       0       0       0
Ethernet8     N/A     N/A     N/A     N/A     N/A     N/A     N/A     N/A

  Port Tx    PFC0    PFC1    PFC2    PFC3    PFC4    PFC5    PFC6    PFC7
---------  ------  ------  ------  ------  ------  ------  ------  ------
Ethernet0       0       0       0       9       0       0       0       0
Ethernet8       0       0       0   1,000       0       0       0       0
)";

const char* const kPfcwd =
    R"(      QUEUE       STATUS    STORM DETECTED/RESTORED    TX OK/DROP    RX OK/DROP    TX LAST OK/DROP    RX LAST OK/DROP
-----------  -----------  -------------------------  ------------  ------------  -----------------  -----------------
Ethernet0:3      stormed                        2/1       100/300         0/200              0/200              0/200
Ethernet0:4  operational                        0/0           0/0           0/0                0/0                0/0
Ethernet8:3          N/A                        0/0           0/0           0/0                0/0                0/0
)";

}  // namespace

TEST_CASE("show pfc counters: pauses per priority received and sent, separators read, N/A absent") {
  const auto got = pfc_counters(kPfc);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->at("Ethernet0").at("pfc_rx_pause_3") == 12345);
  CHECK(got->at("Ethernet0").at("pfc_tx_pause_3") == 9);
  CHECK(got->at("Ethernet0").size() == 16);
  CHECK(got->at("Ethernet8").count("pfc_rx_pause_3") == 0);
  CHECK(got->at("Ethernet8").at("pfc_tx_pause_3") == 1000);
}

TEST_CASE("show pfcwd stats -e: storms detected and restored, drops on both sides, per queue") {
  const auto got = pfcwd_stats(kPfcwd);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->at("Ethernet0") == std::map<std::string, uint64_t>{{"watchdog_storms_3", 2},
                                                                {"watchdog_restored_3", 1},
                                                                {"watchdog_drops_3", 500},
                                                                {"watchdog_storms_4", 0},
                                                                {"watchdog_restored_4", 0},
                                                                {"watchdog_drops_4", 0}});
  CHECK(got->at("Ethernet8").at("watchdog_storms_3") == 0);  // no watchdog there (N/A): its zeros
  CHECK(pfcwd_stats("")->empty());                           // no watchdog counters at all
}

TEST_CASE("sonic counters: what is not a count is refused, with the row and column") {
  std::string bad = kPfc;
  bad.replace(bad.find("12,345"), 6, "1,23,4");
  CHECK(pfc_counters(bad).error() == "Port Rx \"Ethernet0\" column \"PFC3\": \"1,23,4\" is not a count");
  bad = kPfc;
  bad.replace(bad.find("12,345"), 6, "  -1e3");
  CHECK(pfc_counters(bad).error().find("is not a count") != std::string::npos);
  CHECK(pfc_counters(std::string(kPfc).substr(0, std::string(kPfc).find("\n\n") + 1)).error() ==
        "no \"Port Tx\" table");
  bad = kPfcwd;
  bad.replace(bad.find("Ethernet0:4"), 11, "Ethernet0:x");
  CHECK(pfcwd_stats(bad).error() == "pfcwd stats: queue \"Ethernet0:x\" is not \"<port>:<queue 0-15>\"");
  bad = kPfcwd;
  bad.replace(bad.find("100/300"), 7, "100;300");
  CHECK(pfcwd_stats(bad).error() == "pfcwd stats \"Ethernet0:3\" column \"TX OK/DROP\": \"100;300\" is not \"a/b\"");
  CHECK(pfcwd_stats("garbage\n").error().find("pfcwd stats: ") == 0);
  // A hostile port name (CONFIG_DB's PORT keys reach these tables): its row is left out, the rest read.
  bad = kPfc;
  bad.replace(bad.find("Ethernet8   "), 12, "Eth8;reboot ");
  const auto skipped = pfc_counters(bad);
  REQUIRE_MESSAGE(skipped, skipped.error());
  CHECK(skipped->count("Eth8;reboot") == 0);
  CHECK(skipped->at("Ethernet0").at("pfc_rx_pause_3") == 12345);
}

TEST_SUITE("external") {
  TEST_CASE("show pfc counters and pfcwd stats: SONiC's own outputs") {
    const auto test_out = test::shared_path("reference/outputs/sonic/show-pfc-counters_pfcstat-test.txt");
    const auto cmdref = test::shared_path("reference/outputs/sonic/show-pfc-counters_cmdref.txt");
    const auto wd = test::shared_path("reference/outputs/sonic/show-pfcwd-stats_pfcwd-test.txt");
    const auto stormed = test::shared_path("reference/outputs/sonic/show-pfcwd-stats_issue5898-stormed.txt");
    for (const auto& p : {test_out, cmdref, wd, stormed})
      if (!test::shared_available(p)) return;
    const auto pfc = pfc_counters(test::file_text(test_out));
    REQUIRE_MESSAGE(pfc, pfc.error());
    CHECK(pfc->size() == 3);
    CHECK(pfc->at("Ethernet4").at("pfc_rx_pause_0") == 1400);  // "1,400"
    CHECK(pfc->at("Ethernet8").at("pfc_tx_pause_7") == 817);
    // The Command Reference's copy: indented rows and a closing "..." (SOURCES.md).
    const auto doc = pfc_counters(test::file_text(cmdref));
    REQUIRE_MESSAGE(doc, doc.error());
    CHECK(doc->size() == 4);
    CHECK(doc->at("Ethernet12").at("pfc_tx_pause_3") == 0);
    const auto stats = pfcwd_stats(test::file_text(wd));
    REQUIRE_MESSAGE(stats, stats.error());
    CHECK(stats->at("Ethernet0").at("watchdog_storms_3") == 1);
    CHECK(stats->at("Ethernet4").at("watchdog_restored_3") == 2);
    CHECK(stats->at("Ethernet8").at("watchdog_drops_4") == 600);
    const auto real = pfcwd_stats(test::file_text(stormed));
    REQUIRE_MESSAGE(real, real.error());
    CHECK(real->at("Ethernet44").at("watchdog_storms_4") == 1);
  }
}

namespace {

// scripts/pg-drop as sonic-utilities' tests/pgdropstat_test.py shows it, with a disabled PG's N/A and
// a count below the user's cleared value.
const char* const kPgDrop = R"(Ingress PG dropped packets:
     Port    PG0    PG1    PG2    PG3    PG4    PG5    PG6    PG7
---------  -----  -----  -----  -----  -----  -----  -----  -----
Ethernet0    800    801    802    803    804    805    806    807
Ethernet4    400    401    402    N/A    404    405    406    407
Ethernet8    100    101    102     -3    104    105    106    107
)";

}  // namespace

TEST_CASE("show priority-group drop counters: a PG's drops are its priority's receive discards") {
  const auto got = pg_drop_counters(kPgDrop);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->size() == 3);
  CHECK(got->at("Ethernet0").at("rx_discards_3") == 803);
  CHECK(got->at("Ethernet0").size() == 8);
  CHECK(got->at("Ethernet4").count("rx_discards_3") == 0);  // N/A: not counted, not 0
  CHECK(got->at("Ethernet8").count("rx_discards_3") == 0);  // fell below the cleared value
  CHECK(got->at("Ethernet8").at("rx_discards_4") == 104);
  // Polling off: pg-drop warns and prints no table.
  const auto off =
      pg_drop_counters("Warning: PG counters are disabled. Use 'counterpoll pg-drop enable' to enable polling\n");
  REQUIRE_MESSAGE(off, off.error());
  CHECK(off->empty());
  std::string bad = kPgDrop;
  bad.replace(bad.find("PG7"), 3, "PGx");
  CHECK(pg_drop_counters(bad).error() == "priority-group drop counters: column \"PGx\" is not PG0-PG7");
  bad = kPgDrop;
  bad.replace(bad.find("805"), 3, "8e5");
  CHECK(pg_drop_counters(bad).error() ==
        "priority-group drop counters \"Ethernet0\" column \"PG5\": \"8e5\" is not a count");
  CHECK(pg_drop_counters("garbage\n").error() ==
        "priority-group drop counters: no \"Ingress PG dropped packets:\" line");
}

TEST_CASE("show interfaces flap: each port's oper changes; Never is none yet") {
  // The layout of sonic-utilities' tests/flap_test.py (202411 and later): tabulate, numbers left-aligned
  // in a column that also holds "Never", timestamps with spaces.
  const std::string text =
      "Interface    Flap Count    Admin    Oper     Link Down TimeStamp(UTC)    Link Up TimeStamp(UTC)\n"
      "-----------  ------------  -------  -------  --------------------------  ------------------------\n"
      "Ethernet0    1,204         Up       Up       Sat Dec 05 08:00:00 2026    Sat Dec 05 08:00:01 2026\n"
      "Ethernet4    Never         Up       Up       Never                       Never\n";
  const auto got = interface_flaps(text);
  REQUIRE_MESSAGE(got, got.error());
  CHECK(got->at("Ethernet0").at("link_changes") == 1204);
  CHECK(got->at("Ethernet4").at("link_changes") == 0);
  std::string bad = text;
  bad.replace(bad.find("Never         Up"), 5, "often");
  CHECK(interface_flaps(bad).error() ==
        "interfaces flap \"Ethernet4\" column \"Flap Count\": \"often\" is not a count");
  CHECK(interface_flaps("Error: No such command \"flap\".\n").error().find("interfaces flap: ") == 0);
}
