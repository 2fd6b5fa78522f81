// The JUnit XML report, for CI systems (Jenkins, GitLab): one <testsuite> per check ID in order of
// first appearance, one <testcase> per result. A failed result is a <failure> whatever its severity
// (type= carries the severity), missing data is <skipped>, a pass is an empty test case. No
// timestamps, durations or host names: the same report gives the same bytes.
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "report/report.h"
#include "util/escape.h"
#include "util/text.h"

namespace fabricctl {

namespace {

std::string attr(std::string_view s) { return xml_attribute(s); }

struct Suite {
  std::string check;
  std::vector<const Result*> results;
  std::vector<const PassRef*> passes;
  size_t failures = 0;
  size_t skipped = 0;
  std::unordered_set<std::string> names;                // clean test case names used so far
  std::unordered_map<std::string, size_t> next_suffix;  // per repeated name: next " #k" to try
};

/// A test case name unique within the suite: the object; the 2nd, 3rd, ... result with the same
/// object (in input order) becomes "<object> #2", "<object> #3", skipping names already taken.
std::string unique_name(Suite& suite, const std::string& object) {
  std::string name = xml_clean(object);
  if (suite.names.insert(name).second) return name;
  size_t& k = suite.next_suffix.try_emplace(name, 2).first->second;
  std::string candidate;
  do {
    candidate = name + " #" + std::to_string(k++);
  } while (!suite.names.insert(candidate).second);
  return candidate;
}

/// The element text of <failure> and <skipped>: the message again (GitLab and Bamboo show only
/// the text, Jenkins shows both), then expected, observed and the fix, one per line, if present.
std::string details(const Result& res) {
  std::string text = res.message;
  auto add = [&text](std::string_view label, const std::string& value) {
    if (value.empty()) return;
    if (!text.empty()) text += '\n';
    text += std::string(label) + value;
  };
  add("expected: ", res.expected);
  add("observed: ", res.observed);
  add("fix: ", res.hint);
  return text;
}

}  // namespace

void write_junit(const VerifyReport& r, std::ostream& out, JunitCases cases) {
  const bool compact = cases == JunitCases::compact;
  std::vector<Suite> suites;
  std::unordered_map<std::string, size_t> suite_index;
  size_t failures = 0;
  size_t skipped = 0;
  // A suite for every check that ran, also those with no object in scope: CI dashboards track
  // suites by name.
  for (const std::string& id : r.checks_run)
    if (suite_index.try_emplace(id, suites.size()).second) suites.push_back(Suite{id, {}, {}, 0, 0, {}, {}});
  for (const Result& res : r.results) {
    auto [slot, added] = suite_index.try_emplace(res.check, suites.size());
    if (added) suites.push_back(Suite{res.check, {}, {}, 0, 0, {}, {}});
    Suite& suite = suites[slot->second];
    suite.results.push_back(&res);
    if (res.status == Status::fail) {
      ++suite.failures;
      ++failures;
    } else if (res.status == Status::missing || res.status == Status::consequence) {
      ++suite.skipped;
      ++skipped;
    }
  }

  for (const PassRef& p : r.passes) {
    if (compact) break;
    auto [slot, added] = suite_index.try_emplace(r.check_of(p), suites.size());
    if (added) suites.push_back(Suite{r.check_of(p), {}, {}, 0, 0, {}, {}});
    suites[slot->second].passes.push_back(&p);
  }
  // Compact: a check with nothing but passes is one test case; its passes are counted, not named.
  auto passed_everywhere = [&](const Suite& suite) {
    return compact && suite.results.empty() && r.tally_of(suite.check).passed > 0;
  };
  size_t total = r.results.size() + (compact ? 0 : r.passes.size());
  if (compact)
    for (const Suite& suite : suites) total += passed_everywhere(suite) ? 1 : 0;

  auto counts = [](size_t tests, size_t fails, size_t skips) {
    return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(fails) + "\" skipped=\"" +
           std::to_string(skips) + "\" errors=\"0\"";
  };

  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"fabricctl " + std::string(r.tool) + "\"" + counts(total, failures, skipped);
  if (suites.empty()) {
    out << "/>\n";
    return;
  }
  out << ">\n";
  for (Suite& suite : suites) {
    const std::string check = attr(suite.check);
    const bool everywhere = passed_everywhere(suite);
    out << "  <testsuite name=\"" + check + "\"" +
               counts(suite.results.size() + suite.passes.size() + (everywhere ? 1 : 0), suite.failures,
                      suite.skipped) +
               ">\n";
    if (compact)
      out << "    <properties>\n      <property name=\"passed\" value=\"" +
                 std::to_string(r.tally_of(suite.check).passed) +
                 "\"/>\n      <property name=\"not_applicable\" value=\"" +
                 std::to_string(r.tally_of(suite.check).not_applicable) + "\"/>\n    </properties>\n";
    if (everywhere)
      out << "    <testcase classname=\"fabricctl." + check + "\" name=\"passed everywhere\">\n      <system-out>" +
                 std::to_string(r.tally_of(suite.check).passed) + " objects passed</system-out>\n    </testcase>\n";
    for (const Result* res : suite.results) {
      out << "    <testcase classname=\"fabricctl." + check + "\" name=\"" +
                 xml_attribute(unique_name(suite, res->object())) + "\"";
      switch (res->status) {
        case Status::pass: out << "/>\n"; continue;
        case Status::fail:
          out << ">\n      <failure message=\"" + attr(res->message) + "\" type=\"" +
                     std::string(to_string(res->severity)) + "\">" + xml_text(details(*res)) + "</failure>\n";
          break;
        case Status::missing:
          out << ">\n      <skipped message=\"" + attr(res->message) + "\">" + xml_text(details(*res)) + "</skipped>\n";
          break;
        case Status::consequence:
          // Not a fault of its own: its cause fails in its own test case.
          out << ">\n      <skipped message=\"" + attr("consequence of " + res->cause + ": " + res->message) + "\">" +
                     xml_text(details(*res)) + "</skipped>\n";
          break;
      }
      out << "    </testcase>\n";
    }
    for (const PassRef* p : suite.passes)
      out << "    <testcase classname=\"fabricctl." + check + "\" name=\"" +
                 xml_attribute(unique_name(suite, r.object_of(*p))) + "\"/>\n";
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

std::string report_junit(const VerifyReport& r, JunitCases cases) {
  std::ostringstream out;
  write_junit(r, out, cases);
  return std::move(out).str();
}

}  // namespace fabricctl
