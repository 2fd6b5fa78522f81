// The JUnit report is read back by real consumers: Debian's python3-junitparser (the library CI
// tooling uses to merge and inspect JUnit files) and xmllint. Broken XML must be rejected by the same
// harness, so these tests can fail.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "report/report.h"
#include "report/test_support.h"

using namespace fabricctl;
using namespace fabricctl::report_test;
using nlohmann::json;

namespace {

const char* const kSampleJunit = R"(<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="fabricctl verify" tests="9" failures="4" skipped="2" errors="0">
  <testsuite name="port.pause.delta" tests="3" failures="2" skipped="0" errors="0">
    <testcase classname="fabricctl.port.pause.delta" name="leaf1:Ethernet8">
      <failure message="1200 pause frames since baseline" type="info">1200 pause frames since baseline
expected: no new pause frames
observed: +1200
fix: look for a congested receiver behind leaf1:Ethernet8</failure>
    </testcase>
    <testcase classname="fabricctl.port.pause.delta" name="leaf1:Ethernet8 #2">
      <failure message="pause duration grew" type="info">pause duration grew
expected: no pause time
observed: +35 ms</failure>
    </testcase>
    <testcase classname="fabricctl.port.pause.delta" name="spine1"/>
  </testsuite>
  <testsuite name="link.pfc.mismatch" tests="3" failures="1" skipped="1" errors="0">
    <testcase classname="fabricctl.link.pfc.mismatch" name="host1:eth0~leaf1:Ethernet0">
      <failure message="lossless priorities differ" type="error">lossless priorities differ
expected: both ends 3
observed: a=3, b=none
fix: enable PFC on priority 3 on leaf1:Ethernet0</failure>
    </testcase>
    <testcase classname="fabricctl.link.pfc.mismatch" name="host2:eth0~leaf1:Ethernet8"/>
    <testcase classname="fabricctl.link.pfc.mismatch" name="host3:eth0~leaf2:Ethernet0">
      <skipped message="no state from leaf2: ssh: connection refused">no state from leaf2: ssh: connection refused
expected: both ends 3</skipped>
    </testcase>
  </testsuite>
  <testsuite name="port.ecn.missing" tests="3" failures="1" skipped="1" errors="0">
    <testcase classname="fabricctl.port.ecn.missing" name="leaf1:Ethernet0"/>
    <testcase classname="fabricctl.port.ecn.missing" name="leaf1:Ethernet8">
      <failure message="ECN &quot;min&quot; &gt; &apos;max&apos; on queue 3 &amp; &lt;lossless&gt;&#10;second line" type="warning">ECN &quot;min&quot; &gt; &apos;max&apos; on queue 3 &amp; &lt;lossless&gt;
second line
expected: min &lt; max &amp; probability 0-100
observed: min=2000000 &lt;bytes&gt; &amp; max=150000
fix: set min_threshold below max_threshold in the &quot;roce&quot; profile</failure>
    </testcase>
    <testcase classname="fabricctl.port.ecn.missing" name="leaf2:Ethernet0">
      <skipped message="no state from leaf2: ssh: connection refused">no state from leaf2: ssh: connection refused
expected: ECN on queue 3</skipped>
    </testcase>
  </testsuite>
</testsuites>
)";

// Reads a JUnit file with junitparser and prints what it saw as JSON: the declared counts, the
// counts junitparser recomputes from the test cases, and every suite and case with its results.
const char* const kReader = R"(import json, sys
import junitparser
xml = junitparser.JUnitXml.fromfile(sys.argv[1])
out = {"name": xml.name, "declared": [xml.tests, xml.failures, xml.skipped, xml.errors], "suites": []}
for suite in xml:
    s = {"name": suite.name, "declared": [suite.tests, suite.failures, suite.skipped, suite.errors], "cases": []}
    for case in suite:
        s["cases"].append({"classname": case.classname, "name": case.name,
                           "results": [[type(r).__name__, r.type, r.message, r.text] for r in case.result]})
    out["suites"].append(s)
xml.update_statistics()
out["recomputed"] = [xml.tests, xml.failures, xml.skipped, xml.errors]
print(json.dumps(out))
)";

std::string python() { return find_tool({"/usr/bin/python3", "/usr/local/bin/python3"}); }

/// The report as junitparser reads it; fails the test if junitparser cannot parse it.
json read_with_junitparser(const std::string& xml) {
  const std::string py = python();
  REQUIRE_MESSAGE(!py.empty(), "python3 not found (Debian: apt-get install python3)");
  const Run probe = run(shell_quote(py) + " -c 'import junitparser'");
  REQUIRE_MESSAGE(probe.exit_code == 0,
                  "junitparser is missing (Debian: apt-get install python3-junitparser): " << probe.output);
  const TempFile script(kReader, ".py");
  const TempFile file(xml, ".xml");
  const Run r = run(shell_quote(py) + " " + shell_quote(script.path()) + " " + shell_quote(file.path()));
  REQUIRE_MESSAGE(r.exit_code == 0, "junitparser rejected the report: " << r.output);
  return json::parse(r.output);
}

std::string xmllint_path() { return find_tool({"/usr/bin/xmllint", "/usr/local/bin/xmllint"}); }

/// xmllint --noout on the XML: exit code and output (empty when well-formed). xmllint is a second
/// opinion (junitparser's lxml already rejects malformed XML), so tests skip it when it is absent.
Run xmllint(const std::string& xml) {
  const TempFile file(xml, ".xml");
  return run(shell_quote(xmllint_path()) + " --noout " + shell_quote(file.path()));
}

std::vector<std::string> case_names(const json& suite) {
  std::vector<std::string> names;
  for (const json& c : suite["cases"]) names.push_back(c["name"].get<std::string>());
  return names;
}

}  // namespace

TEST_CASE("junit: exact bytes for the sample report") { CHECK(report_junit(sample()) == kSampleJunit); }

TEST_CASE("junit: junitparser reads the counts, suites per check and unique test case names") {
  const json doc = read_with_junitparser(report_junit(sample()));
  CHECK(doc["name"] == "fabricctl verify");
  // tests, failures, skipped, errors: as declared and as recomputed from the cases.
  CHECK(doc["declared"] == json{9, 4, 2, 0});
  CHECK(doc["recomputed"] == json{9, 4, 2, 0});

  const json& suites = doc["suites"];
  REQUIRE(suites.size() == 3);
  CHECK(suites[0]["name"] == "port.pause.delta");
  CHECK(suites[1]["name"] == "link.pfc.mismatch");
  CHECK(suites[2]["name"] == "port.ecn.missing");
  CHECK(suites[0]["declared"] == json{3, 2, 0, 0});
  CHECK(suites[1]["declared"] == json{3, 1, 1, 0});
  CHECK(suites[2]["declared"] == json{3, 1, 1, 0});

  CHECK(case_names(suites[0]) == std::vector<std::string>{"leaf1:Ethernet8", "leaf1:Ethernet8 #2", "spine1"});
  CHECK(case_names(suites[1]) == std::vector<std::string>{"host1:eth0~leaf1:Ethernet0", "host2:eth0~leaf1:Ethernet8",
                                                          "host3:eth0~leaf2:Ethernet0"});
  CHECK(case_names(suites[2]) == std::vector<std::string>{"leaf1:Ethernet0", "leaf1:Ethernet8", "leaf2:Ethernet0"});
  for (const json& s : suites)
    for (const json& c : s["cases"]) CHECK(c["classname"] == "fabricctl." + s["name"].get<std::string>());

  // Severity is the failure type; the nasty message comes back exactly, newline included.
  const json& ecn = suites[2]["cases"][1]["results"];
  REQUIRE(ecn.size() == 1);
  CHECK(ecn[0][0] == "Failure");
  CHECK(ecn[0][1] == "warning");
  CHECK(ecn[0][2] == "ECN \"min\" > 'max' on queue 3 & <lossless>\nsecond line");
  CHECK(ecn[0][3] ==
        "ECN \"min\" > 'max' on queue 3 & <lossless>\nsecond line\n"
        "expected: min < max & probability 0-100\n"
        "observed: min=2000000 <bytes> & max=150000\n"
        "fix: set min_threshold below max_threshold in the \"roce\" profile");
  CHECK(suites[0]["cases"][0]["results"][0][1] == "info");
  CHECK(suites[1]["cases"][2]["results"][0][0] == "Skipped");
  CHECK(suites[1]["cases"][1]["results"] == json::array());  // a pass
}

TEST_CASE("junit: xmllint accepts the report and rejects broken XML") {
  if (xmllint_path().empty()) {
    MESSAGE("skipped: xmllint not found (Debian: apt-get install libxml2-utils)");
    return;
  }
  const Run ok = xmllint(report_junit(sample()));
  CHECK(ok.exit_code == 0);
  CHECK(ok.output == "");
  // The harness can fail: an unescaped & and a duplicate attribute are errors.
  CHECK(xmllint("<testsuites name=\"a & b\"/>\n").exit_code != 0);
  CHECK(xmllint("<testsuites tests=\"1\" tests=\"2\"/>\n").exit_code != 0);
}

TEST_CASE("junit: control characters and invalid UTF-8 from devices still give well-formed XML") {
  VerifyReport r;
  r.results.push_back(result("port.lldp.neighbor", Status::fail, Severity::warning, Endpoint{"leaf1", "Ethernet0\x01"},
                             std::nullopt, "spine1", "sp\xffine\x1b[0m\x7f", "bad\x0b\x0c neighbour\r\n\xef\xbf\xbe",
                             ""));
  r.results.push_back(result("port.lldp.neighbor", Status::missing, Severity::warning, Endpoint{"leaf1", "Ethernet0"},
                             std::nullopt, "", "", "tab\there", ""));
  const std::string xml = report_junit(r);
  CHECK(xml.find('\x01') == std::string::npos);
  CHECK(xml.find('\x1b') == std::string::npos);
  if (!xmllint_path().empty()) {
    const Run lint = xmllint(xml);
    CHECK_MESSAGE(lint.exit_code == 0, lint.output);
  }

  const json doc = read_with_junitparser(xml);
  const json& cases = doc["suites"][0]["cases"];
  REQUIRE(cases.size() == 2);
  // The control character is dropped from the name, so the second case needs a suffix.
  CHECK(cases[0]["name"] == "leaf1:Ethernet0");
  CHECK(cases[1]["name"] == "leaf1:Ethernet0 #2");
  CHECK(cases[0]["results"][0][2] == "bad neighbour\r\n");
  CHECK(cases[0]["results"][0][3] == "bad neighbour\r\n\nexpected: spine1\nobserved: sp\xef\xbf\xbdine[0m");
  CHECK(cases[1]["results"][0][2] == "tab\there");
}

TEST_CASE("junit: disambiguation skips names that are already taken") {
  VerifyReport r;
  for (const char* port : {"Ethernet0", "Ethernet0 #2", "Ethernet0"})
    r.results.push_back(
        result("c.d", Status::pass, Severity::info, Endpoint{"leaf1", port}, std::nullopt, "", "", "", ""));
  const json doc = read_with_junitparser(report_junit(r));
  CHECK(case_names(doc["suites"][0]) ==
        std::vector<std::string>{"leaf1:Ethernet0", "leaf1:Ethernet0 #2", "leaf1:Ethernet0 #3"});
}

TEST_CASE("junit: an empty report is a valid, empty test run") {
  const std::string xml = report_junit(VerifyReport{});
  CHECK(xml ==
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<testsuites name=\"fabricctl verify\" tests=\"0\" failures=\"0\" skipped=\"0\" errors=\"0\"/>\n");
  CHECK(read_with_junitparser(xml)["declared"] == json{0, 0, 0, 0});
}
