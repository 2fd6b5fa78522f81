// The Prometheus report must pass `promtool check metrics` (Debian package prometheus), which parses
// the text exposition format and lints it; a broken exposition must be rejected by the same harness,
// so these tests can fail.
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "report/report.h"
#include "report/test_support.h"

using namespace fabricctl;
using namespace fabricctl::report_test;

namespace {

const char* const kSampleMetrics =
    R"(# HELP fabricctl_verify_device_unreadable 1 for each device whose state could not be read (reasons are in the JSON and table reports).
# TYPE fabricctl_verify_device_unreadable gauge
fabricctl_verify_device_unreadable{device="host9"} 1
fabricctl_verify_device_unreadable{device="leaf2"} 1
# HELP fabricctl_verify_devices_checked Devices whose state was read and checked.
# TYPE fabricctl_verify_devices_checked gauge
fabricctl_verify_devices_checked 4
# HELP fabricctl_verify_devices_unreadable Devices whose state could not be read.
# TYPE fabricctl_verify_devices_unreadable gauge
fabricctl_verify_devices_unreadable 2
# HELP fabricctl_verify_finding Where verify failed: the number of failed results of a check on one object (its device, port and, for a link, the peer end), at most 1000 series, errors first.
# TYPE fabricctl_verify_finding gauge
fabricctl_verify_finding{check="link.pfc.mismatch",device="host1",peer="leaf1:Ethernet0",port="eth0",severity="error"} 1
fabricctl_verify_finding{check="port.ecn.missing",device="leaf1",peer="",port="Ethernet8",severity="warning"} 1
fabricctl_verify_finding{check="port.pause.delta",device="leaf1",peer="",port="Ethernet8",severity="info"} 2
# HELP fabricctl_verify_finding_series_omitted Failed objects left out of fabricctl_verify_finding by its limit of 1000 series (they are in the JSON report).
# TYPE fabricctl_verify_finding_series_omitted gauge
fabricctl_verify_finding_series_omitted 0
# HELP fabricctl_verify_findings Failed results by check ID and severity; 0 for every check that ran without such failures.
# TYPE fabricctl_verify_findings gauge
fabricctl_verify_findings{check="link.pfc.mismatch",severity="error"} 1
fabricctl_verify_findings{check="link.pfc.mismatch",severity="info"} 0
fabricctl_verify_findings{check="link.pfc.mismatch",severity="warning"} 0
fabricctl_verify_findings{check="port.ecn.missing",severity="error"} 0
fabricctl_verify_findings{check="port.ecn.missing",severity="info"} 0
fabricctl_verify_findings{check="port.ecn.missing",severity="warning"} 1
fabricctl_verify_findings{check="port.pause.delta",severity="error"} 0
fabricctl_verify_findings{check="port.pause.delta",severity="info"} 2
fabricctl_verify_findings{check="port.pause.delta",severity="warning"} 0
# HELP fabricctl_verify_links_checked Links whose two ends were compared.
# TYPE fabricctl_verify_links_checked gauge
fabricctl_verify_links_checked 3
# HELP fabricctl_verify_results Check results by status: pass, fail, missing (no data to compare), consequence (explained by a failure), or not_applicable (not compared: the check does not apply to the object as it is, e.g. a down link's speed).
# TYPE fabricctl_verify_results gauge
fabricctl_verify_results{status="consequence"} 0
fabricctl_verify_results{status="fail"} 4
fabricctl_verify_results{status="missing"} 2
fabricctl_verify_results{status="not_applicable"} 0
fabricctl_verify_results{status="pass"} 3
)";

/// `promtool check metrics` on the exposition (stdin): exit code and everything it printed.
Run promtool(const std::string& exposition) {
  const std::string tool = find_tool({"/usr/bin/promtool", "/usr/local/bin/promtool"});
  REQUIRE_MESSAGE(!tool.empty(), "promtool not found (Debian: apt-get install prometheus)");
  const TempFile file(exposition, ".prom");
  return run(shell_quote(tool) + " check metrics < " + shell_quote(file.path()));
}

}  // namespace

TEST_CASE("prometheus: exact bytes for the sample report, families and series sorted") {
  CHECK(report_prometheus(sample()) == kSampleMetrics);
}

TEST_CASE("prometheus: promtool accepts the exposition without a lint message") {
  const Run r = promtool(report_prometheus(sample()));
  CHECK(r.exit_code == 0);
  CHECK(r.output == "");
  const Run empty = promtool(report_prometheus(VerifyReport{}));
  CHECK(empty.exit_code == 0);
  CHECK(empty.output == "");
}

TEST_CASE("prometheus: promtool rejects broken expositions, so the check above can fail") {
  std::string duplicate_help = kSampleMetrics;
  duplicate_help += "# HELP fabricctl_verify_results again\n";
  const Run dup = promtool(duplicate_help);
  CHECK(dup.exit_code != 0);
  CHECK(dup.output.find("second HELP") != std::string::npos);

  const Run unescaped = promtool("# HELP x_y Help.\n# TYPE x_y gauge\nx_y{device=\"a\"b\"} 1\n");
  CHECK(unescaped.exit_code != 0);
  const Run no_help = promtool("x_y 1\n");
  CHECK(no_help.exit_code != 0);
  CHECK(no_help.output.find("no help text") != std::string::npos);
}

TEST_CASE("prometheus: label values are escaped and always valid UTF-8") {
  VerifyReport r;
  r.results.push_back(result("odd\"check\\id\nx", Status::fail, Severity::warning, Endpoint{"leaf1", "Ethernet0"},
                             std::nullopt, "", "", "m", ""));
  r.unreadable["le\"af\\9\n"] = "x";
  r.unreadable["sp\xffine\x01"] = "y";
  const std::string out = report_prometheus(r);
  CHECK(out.find("fabricctl_verify_findings{check=\"odd\\\"check\\\\id\\nx\",severity=\"warning\"} 1\n") !=
        std::string::npos);
  CHECK(out.find("fabricctl_verify_device_unreadable{device=\"le\\\"af\\\\9\\n\"} 1\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_device_unreadable{device=\"sp\xef\xbf\xbdine\"} 1\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_devices_unreadable 2\n") != std::string::npos);
  const Run lint = promtool(out);
  CHECK_MESSAGE(lint.exit_code == 0, lint.output);
  CHECK(lint.output == "");
}

TEST_CASE("prometheus: a check without failures keeps its zero series and every status is present") {
  VerifyReport r;
  r.results.push_back(result("link.mtu.mismatch", Status::pass, Severity::error, Endpoint{"host1", "eth0"},
                             Endpoint{"leaf1", "Ethernet0"}, "", "", "", ""));
  const std::string out = report_prometheus(r);
  for (const char* sev : {"error", "info", "warning"})
    CHECK(out.find(std::string("fabricctl_verify_findings{check=\"link.mtu.mismatch\",severity=\"") + sev +
                   "\"} 0\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_results{status=\"fail\"} 0\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_results{status=\"consequence\"} 0\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_results{status=\"missing\"} 0\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_results{status=\"pass\"} 1\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_device_unreadable{") == std::string::npos);
}

TEST_CASE("prometheus: a series per failed object names its device, port and peer; consequences are not findings") {
  VerifyReport r = sample();
  Result consequence = result("link.roce.class", Status::consequence, Severity::error, Endpoint{"host1", "eth0"},
                              Endpoint{"leaf1", "Ethernet0"}, "", "", "m", "");
  consequence.cause = "link.pfc.mismatch host1:eth0~leaf1:Ethernet0";
  r.results.push_back(consequence);
  const std::string out = report_prometheus(r);
  CHECK(out.find("fabricctl_verify_finding{check=\"link.roce.class\"") == std::string::npos);
  CHECK(out.find("fabricctl_verify_finding{check=\"link.pfc.mismatch\",device=\"host1\",peer=\"leaf1:Ethernet0\","
                 "port=\"eth0\",severity=\"error\"} 1\n") != std::string::npos);
  CHECK(out.find("fabricctl_verify_run_timestamp_seconds") == std::string::npos);  // a report built by hand
}

TEST_CASE("prometheus: at most 1000 finding series, errors kept first, the rest counted as omitted") {
  VerifyReport r;
  for (int i = 0; i < 1200; ++i)
    r.results.push_back(result("port.ecn.missing", Status::fail, Severity::warning,
                               Endpoint{"leaf" + std::to_string(i), "Ethernet0"}, std::nullopt, "", "", "m", ""));
  r.results.push_back(result("link.pfc.mismatch", Status::fail, Severity::error, Endpoint{"zhost", "eth0"},
                             Endpoint{"zleaf", "Ethernet0"}, "", "", "m", ""));
  const std::string out = report_prometheus(r);
  size_t series = 0;
  for (size_t at = out.find("\nfabricctl_verify_finding{"); at != std::string::npos;
       at = out.find("\nfabricctl_verify_finding{", at + 1))
    ++series;
  CHECK(series == 1000);
  CHECK(out.find("fabricctl_verify_finding_series_omitted 201\n") != std::string::npos);
  CHECK(out.find("device=\"zhost\"") != std::string::npos);  // the error is kept though it sorts last
  CHECK(out.find("fabricctl_verify_findings{check=\"port.ecn.missing\",severity=\"warning\"} 1200\n") !=
        std::string::npos);
  const Run lint = promtool(out);
  CHECK_MESSAGE(lint.exit_code == 0, lint.output);
}

TEST_CASE("prometheus: the run's time, when the report has one, as a timestamp gauge") {
  VerifyReport r = sample();
  r.ran_at = std::chrono::system_clock::time_point(std::chrono::seconds(1764936000));
  const std::string out = report_prometheus(r);
  CHECK(out.size() > std::string(kSampleMetrics).size());
  CHECK(out.find("# TYPE fabricctl_verify_run_timestamp_seconds gauge\nfabricctl_verify_run_timestamp_seconds "
                 "1764936000\n") != std::string::npos);
  const Run lint = promtool(out);
  CHECK_MESSAGE(lint.exit_code == 0, lint.output);
  CHECK(lint.output == "");
}

TEST_CASE("prometheus: health's counter rates as gauges, the ports a finding names first under the cap") {
  VerifyReport r;
  r.tool = "health";
  r.results.push_back(report_test::result("health.link.errors", Status::fail, Severity::error, {"leaf1", "Ethernet8"},
                                          std::nullopt, "", "", "errors", ""));
  for (int i = 0; i < 5001; ++i)
    r.rates.push_back({{"leaf1", "Ethernet" + std::to_string(i)}, "pfc_rx_pause_3", 1000.0 - i * 0.1});
  r.rates.push_back({{"leaf1", "Ethernet8"}, "fcs_errors", 0.25});  // the lowest rate, but a finding names it
  const std::string out = report_prometheus(r);
  CHECK(out.find("fabricctl_health_rate{counter=\"pfc_rx_pause_3\",device=\"leaf1\",port=\"Ethernet0\"} 1000\n") !=
        std::string::npos);
  CHECK(out.find("fabricctl_health_rate{counter=\"fcs_errors\",device=\"leaf1\",port=\"Ethernet8\"} 0.25\n") !=
        std::string::npos);
  CHECK(out.find("port=\"Ethernet5000\"") == std::string::npos);  // the lowest of the others: left out
  CHECK(out.find("fabricctl_health_rate_series_omitted 2\n") != std::string::npos);
  CHECK(report_prometheus(report_test::sample()).find("_rate") == std::string::npos);  // verify has none
}
