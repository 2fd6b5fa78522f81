// What one verify run found: every result, and what the summaries count. The report writers
// (src/report/) are pure functions of it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "verify/result.h"

namespace fabricctl {

struct VerifyReport {
  std::vector<Result> results;                   // every check x object, in a stable order
  size_t devices_checked = 0;                    // devices with readable state
  size_t links_checked = 0;                      // links with both ends read and compared
  std::map<std::string, std::string> unreadable; // device -> why its state could not be read
  std::vector<std::string> checks_run;           // every selected check ID, catalog order
  Severity min_severity = Severity::info;        // failures below this were not reported (--severity)
  size_t incomplete = 0;                         // missing results of checks whose data is required
};

/// Results by status, and failures by severity: every summary counts the same way. Consequences are
/// counted apart: they are explained by a failure and are never a fault of their own.
struct ReportTally {
  size_t pass = 0, fail = 0, missing = 0, consequence = 0;
  size_t errors = 0, warnings = 0, infos = 0;
};
ReportTally tally(const VerifyReport& r);

}  // namespace fabricctl
