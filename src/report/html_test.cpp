// The html page on the hand-built report: text that breaks naive writers (quotes, <, &, newlines, an
// unreadable device's reason) arrives escaped, the page is well-formed XML (xmllint), and
// a link's colour follows its worst finding.
#include <doctest/doctest.h>

#include <sstream>

#include "report/test_support.h"
#include "temp_dir.h"

using namespace fabricctl;
using namespace fabricctl::report_test;

namespace {

FabricDesired fabric() {
  FabricDesired f;
  const auto device = [&](const char* name, Role role,
                          std::vector<std::pair<const char*, std::pair<const char*, const char*>>> ports) {
    DeviceDesired d;
    d.name = name;
    d.role = role;
    for (const auto& [port, peer] : ports) {
      PortDesired p;
      p.name = port;
      p.peer_device = peer.first;
      p.peer_port = peer.second;
      d.ports.push_back(p);
    }
    f.devices.push_back(d);
  };
  device("host1", Role::host, {{"eth0", {"leaf1", "Ethernet0"}}});
  device("host2", Role::host, {{"eth0", {"leaf1", "Ethernet8"}}});
  device("host3", Role::host, {{"eth0", {"leaf2", "Ethernet0"}}});
  device("leaf1", Role::switch_, {{"Ethernet0", {"host1", "eth0"}}, {"Ethernet8", {"host2", "eth0"}}});
  device("leaf2", Role::switch_, {{"Ethernet0", {"host3", "eth0"}}});
  return f;
}

}  // namespace

TEST_CASE("html: escaped text, a well-formed page, links coloured by their worst finding") {
  std::ostringstream out;
  write_html(sample(), fabric(), out);
  const std::string page = out.str();
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("ECN &quot;min&quot; &gt; &apos;max&apos; on queue 3 &amp; &lt;lossless&gt;") != std::string::npos);
  CHECK(page.find("<lossless>") == std::string::npos);
  CHECK(page.find("ssh: connection refused by &quot;10.0.0.2&quot; &lt;port 22&gt; &amp; retried") !=
        std::string::npos);
  // host1's cable has the PFC error: red; host3's could not be compared (leaf2 unread): grey.
  CHECK(page.find(R"(data-link="host1:eth0~leaf1:Ethernet0" data-rank="3")") != std::string::npos);
  CHECK(page.find(R"(data-link="host2:eth0~leaf1:Ethernet8" data-rank="0")") != std::string::npos);
  CHECK(page.find(R"(data-link="host3:eth0~leaf2:Ethernet0" data-rank="1")") != std::string::npos);

  test::TempDir dir;
  test::spit(dir.path / "r.html", page);
  const std::string xmllint = find_tool({"/usr/bin/xmllint", "/usr/local/bin/xmllint"});
  REQUIRE_MESSAGE(!xmllint.empty(), "xmllint not found (Debian: apt-get install libxml2-utils)");
  const Run r = run(xmllint + " --noout " + shell_quote((dir.path / "r.html").string()));
  CHECK_MESSAGE(r.exit_code == 0, r.output);
  CHECK(r.output.empty());
}

TEST_CASE("html: a rate chart per port a finding names, over one window or the watch's samples") {
  VerifyReport r = sample();
  r.rates = {{{"leaf1", "Ethernet8"}, "pfc_rx_pause_3", 2100},
             {{"leaf1", "Ethernet8"}, "fcs_errors", 0},  // did not rise: not drawn
             {{"host1", "eth0"}, "pfc_tx_pause_3", 10},
             {{"host2", "eth0"}, "pfc_tx_pause_3", 9999}};  // no finding names host2: no chart
  std::ostringstream one;
  write_html(r, fabric(), one);
  std::string page = one.str();
  CHECK(page.find("<h2>Rates on the ports the findings name</h2>\n<p>1 window; per second.</p>") != std::string::npos);
  CHECK(page.find(R"(<svg class="rates" data-port="leaf1:Ethernet8" data-samples="1")") != std::string::npos);
  CHECK(page.find(R"(data-port="host2:eth0")") == std::string::npos);
  CHECK(page.find("pfc_rx_pause_3: up to 2100/s") != std::string::npos);
  CHECK(page.find("fcs_errors: up to") == std::string::npos);
  CHECK(page.find("class=\"bar\"") != std::string::npos);  // one window: bars

  // Over three samples: a line of three points per counter, the highest rate named.
  std::vector<RateSample> history;
  for (const double rate : {20.0, 2100.0, 900.0})
    history.push_back({std::chrono::system_clock::time_point{}, {{{"leaf1", "Ethernet8"}, "pfc_rx_pause_3", rate}}});
  std::ostringstream three;
  write_html(r, fabric(), three, history);
  page = three.str();
  CHECK(page.find("<p>3 windows, oldest first; per second.</p>") != std::string::npos);
  const size_t chart = page.find(R"(data-port="leaf1:Ethernet8" data-samples="3")");
  REQUIRE(chart != std::string::npos);
  const size_t points = page.find("points=\"", chart);
  REQUIRE(points != std::string::npos);
  const std::string line = page.substr(points + 8, page.find('"', points + 8) - points - 8);
  CHECK(std::count(line.begin(), line.end(), ',') == 3);
  CHECK(line.find("30,") == 0);  // the oldest at the left
  CHECK(page.find("pfc_rx_pause_3: up to 2100/s", chart) != std::string::npos);
  // A port with nothing that rose says so.
  CHECK(page.find("<h3>host1:eth0</h3>\n<p>No counter of this port rose.</p>") != std::string::npos);
}
