// Report writers for verify: table (people), json (machines), junit (CI), prometheus (monitoring).
// Every writer is a pure function of the report, byte-for-byte deterministic.
#pragma once

#include <string>
#include <vector>

#include "verify/verify_report.h"

namespace fabricctl {

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
