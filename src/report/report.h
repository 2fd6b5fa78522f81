// Report writers for verify: table (people), json (machines), junit (CI), prometheus (monitoring).
// Every writer is a pure function of the report, byte-for-byte deterministic.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "verify/result.h"

namespace fabricctl {

struct VerifyReport {
  std::vector<Result> results;                   // every check x object, in a stable order
  size_t devices_checked = 0;                    // devices with readable state
  size_t links_checked = 0;
  std::map<std::string, std::string> unreadable; // device -> why its state could not be read
  std::vector<std::string> checks_run;           // every selected check ID, catalog order
  Severity min_severity = Severity::info;        // failures below this were not reported (--severity)
  size_t incomplete = 0;                         // missing results of checks whose data is required
};

/// Results by status, and failures by severity: every summary counts the same way.
struct ReportTally {
  size_t pass = 0, fail = 0, missing = 0;
  size_t errors = 0, warnings = 0, infos = 0;
};
ReportTally tally(const VerifyReport& r);

/// Findings grouped by link (then by device/port), failures first; colour only when `color`.
std::string report_table(const VerifyReport& r, bool color);
/// Documented, stable JSON (docs/reports.md): summary counts and every non-pass result.
std::string report_json(const VerifyReport& r);
/// JUnit XML: one testsuite per check, one testcase per check x object (stable unique names);
/// failures as <failure>, missing data as <skipped>.
std::string report_junit(const VerifyReport& r);
/// Prometheus text exposition format: findings by check and severity, results by status, devices
/// and links checked, unreadable devices.
std::string report_prometheus(const VerifyReport& r);

}  // namespace fabricctl
