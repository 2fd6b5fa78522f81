#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "report/report.h"
#include "report/test_support.h"

using namespace fabricctl;
using fabricctl::report_test::result;
using fabricctl::report_test::sample;

namespace {

// Links before ports, errors before warnings before info inside a group (the input has the info
// rows of leaf1:Ethernet8 first), the newline of the ECN message flattened, missing data counted per
// check in first-appearance order, unreadable devices sorted.
const char* const kSampleTable =
    R"(host1:eth0 <-> leaf1:Ethernet0
  error    link.pfc.mismatch  lossless priorities differ
           expected: both ends 3 / observed: a=3, b=none
           fix: enable PFC on priority 3 on leaf1:Ethernet0

leaf1:Ethernet8
  warning  port.ecn.missing   ECN "min" > 'max' on queue 3 & <lossless> second line
           expected: min < max & probability 0-100 / observed: min=2000000 <bytes> & max=150000
           fix: set min_threshold below max_threshold in the "roce" profile
  info     port.pause.delta   1200 pause frames since baseline
           expected: no new pause frames / observed: +1200
           fix: look for a congested receiver behind leaf1:Ethernet8
  info     port.pause.delta   pause duration grew
           expected: no pause time / observed: +35 ms

missing data: 2 results could not be compared
  link.pfc.mismatch  1
  port.ecn.missing   1
unreadable devices: 2
  host9  timeout after 30 s
  leaf2  ssh: connection refused by "10.0.0.2" <port 22> & retried

1 error, 1 warning, 2 info; 3 checks passed, 2 missing data; 4 devices, 3 links checked
)";

}  // namespace

TEST_CASE("table: failures grouped by link then port, missing data and unreadable devices summarized") {
  CHECK(report_table(sample(), false) == kSampleTable);
}

TEST_CASE("table: no colour unless asked, and then red errors, yellow warnings, dim missing data") {
  const std::string plain = report_table(sample(), false);
  CHECK(plain.find('\x1b') == std::string::npos);

  const std::string colored = report_table(sample(), true);
  CHECK(colored.find("  \x1b[31merror\x1b[0m    link.pfc.mismatch  lossless priorities differ\n") != std::string::npos);
  CHECK(colored.find("  \x1b[33mwarning\x1b[0m  port.ecn.missing   ECN") != std::string::npos);
  CHECK(colored.find("\x1b[2mmissing data: 2 results could not be compared\x1b[0m\n") != std::string::npos);
  CHECK(colored.find("  \x1b[2mhost9  timeout after 30 s\x1b[0m\n") != std::string::npos);
  // Info is not coloured; without the escape codes the two outputs are the same text.
  CHECK(colored.find("  info     port.pause.delta") != std::string::npos);
  std::string stripped;
  for (size_t i = 0; i < colored.size(); ++i) {
    if (colored[i] == '\x1b') {
      i = colored.find('m', i);
      continue;
    }
    stripped += colored[i];
  }
  CHECK(stripped == plain);
}

TEST_CASE("table: every line ends without trailing whitespace, also with empty fields") {
  VerifyReport r = sample();
  r.results.push_back(
      result("device.reachable", Status::fail, Severity::error, Endpoint{"spine1", ""}, std::nullopt, "", "", "", ""));
  r.unreadable["host10"] = "";
  for (bool color : {false, true}) {
    const std::string out = report_table(r, color);
    REQUIRE(!out.empty());
    CHECK(out.back() == '\n');
    std::istringstream lines(out);
    std::string line;
    while (std::getline(lines, line)) {
      CAPTURE(line);
      CHECK((line.empty() || (line.back() != ' ' && line.back() != '\t')));
    }
  }
  const std::string out = report_table(r, false);
  // A device-level failure has the device as its group header and comes after links and ports.
  CHECK(out.find("\nspine1\n  error    device.reachable\n\nmissing data") != std::string::npos);
  CHECK(out.find("\n  host10\n") != std::string::npos);
}

TEST_CASE("table: text from devices cannot move the cursor or break lines") {
  VerifyReport r;
  r.results.push_back(result("port.lldp.neighbor", Status::fail, Severity::warning, Endpoint{"leaf1", "Ethernet0"},
                             std::nullopt, "spine1", "evil\x1b[2J\r\nname\t\x07",
                             "unexpected LLDP neighbour\n\xc2\x9b"
                             "31m",
                             ""));
  r.devices_checked = 1;
  const std::string out = report_table(r, false);
  CHECK(out ==
        "leaf1:Ethernet0\n"
        "  warning  port.lldp.neighbor  unexpected LLDP neighbour 31m\n"
        "           expected: spine1 / observed: evil[2J  name\n"
        "\n"
        "0 errors, 1 warning, 0 info; 0 checks passed, 0 missing data; 1 device, 0 links checked\n");
}

TEST_CASE("table: a clean run says so") {
  VerifyReport r;
  r.results.push_back(result("link.mtu.mismatch", Status::pass, Severity::error, Endpoint{"host1", "eth0"},
                             Endpoint{"leaf1", "Ethernet0"}, "9000", "a=9000, b=9100", "MTU consistent", ""));
  r.devices_checked = 2;
  r.links_checked = 1;
  CHECK(report_table(r, true) ==
        "no findings\n"
        "\n"
        "0 errors, 0 warnings, 0 info; 1 check passed, 0 missing data; 2 devices, 1 link checked\n");
}
