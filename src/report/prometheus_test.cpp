// The Prometheus report must pass `promtool check metrics` (Debian package prometheus), which parses
// the text exposition format and lints it; a broken exposition must be rejected by the same harness,
// so these tests can fail.
#include <doctest/doctest.h>

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
