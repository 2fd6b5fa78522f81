// Report writers for verify and health: table (people), json (machines), junit (CI), prometheus
// (monitoring), html (a page with the fabric's picture).
// Every writer is a pure function of the report, byte-for-byte deterministic.
#pragma once

#include <chrono>
#include <iosfwd>
#include <string>
#include <vector>

#include "state/desired.h"
#include "verify/verify_report.h"

namespace fabricctl {

/// Findings grouped by link (then by device/port), failures first; colour only when `color`.
std::string report_table(const VerifyReport& r, bool color);
/// Documented, stable JSON (docs/reports.md): summary counts and every non-pass result.
std::string report_json(const VerifyReport& r);
/// Which test cases a JUnit report has. each: one per check x object, passes included (they must be
/// listed: Passes::listed). compact: failures, missing data and consequences only, plus one case
/// "passed everywhere" per check that had nothing else; a clean R100k report is a few KB, not 1 GB.
enum class JunitCases { each, compact };

/// JUnit XML: one testsuite per check, test cases as `cases` says (stable unique names);
/// failures as <failure>, missing data as <skipped>.
std::string report_junit(const VerifyReport& r, JunitCases cases = JunitCases::each);
/// The same, written to `out` as it is produced: a large fabric's report has millions of test cases.
void write_junit(const VerifyReport& r, std::ostream& out, JunitCases cases = JunitCases::each);
/// Prometheus text exposition format: each failed object (check, device, port, peer; bounded),
/// findings by check and severity, results by status, devices and links checked, unreadable devices,
/// and the run's time when the report has one.
std::string report_prometheus(const VerifyReport& r);
/// One judgement's counter rates, for a chart over several (health --watch keeps the last ones).
struct RateSample {
  std::chrono::system_clock::time_point at;
  std::vector<CounterRate> rates;
};

/// One self-contained HTML page (no script, nothing fetched): the fabric drawn from `fabric` (spines,
/// leaves by rail, hosts), each link coloured by its worst finding and linked to it, then every finding,
/// then a small chart of the counter rates of each port a finding names: over `history` (oldest first)
/// when given, else over this report's one window.
void write_html(const VerifyReport& r, const FabricDesired& fabric, std::ostream& out,
                const std::vector<RateSample>& history = {});

}  // namespace fabricctl
