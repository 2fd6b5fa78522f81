// What one verify run found: every result, and what the summaries count. The report writers
// (src/report/) are pure functions of it.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/interner.h"
#include "verify/result.h"

namespace fabricctl {

/// A passing result, kept small (20 bytes, no text): a fabric has millions of them and they are only
/// counted and named (JUnit). Names are indices into VerifyReport::names.
struct PassRef {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t check = 0;  // index into VerifyReport::checks_run
  uint32_t a_device = kNone, a_port = kNone, b_device = kNone, b_port = kNone;
};

/// One counter's rate on one port between two readings (health): what the Prometheus report gives as
/// gauges, so that a dashboard can plot the rates health judged.
struct CounterRate {
  Endpoint where;
  std::string counter;  // its neutral name (docs/counters-reference.md)
  double per_s = 0;
};

struct VerifyReport {
  /// Every result that is not a pass, in a stable order. Writers also accept passes here (reports
  /// built by hand); verify keeps its passes in `passes`.
  std::vector<Result> results;
  std::vector<PassRef> passes;                    // passing results, in the order they ran, when listed
  size_t pass_count = 0;                          // every passing result, listed in `passes` or not
  Interner names;                                 // device and port names of `passes`
  size_t devices_checked = 0;                     // devices with readable state
  size_t links_checked = 0;                       // links with both ends read and compared
  std::map<std::string, std::string> unreadable;  // device -> why its state could not be read
  std::vector<std::string> checks_run;            // every selected check ID, catalog order
  Severity min_severity = Severity::info;         // failures below this were not reported (--severity)
  size_t incomplete = 0;                          // missing results of checks whose data is required
  /// Objects a check was not compared on because it does not apply to them as they are (the speed of
  /// a link that is down): neither a pass nor checked.
  size_t not_applicable = 0;
  size_t hidden_warnings = 0, hidden_infos = 0;  // failures below --severity, counted so summaries can say so
  /// What produced it: "verify" or "health". Names the JSON schema (fabricctl.<tool>/v1), the JUnit
  /// suites' name and the Prometheus metrics' prefix (fabricctl_<tool>_).
  std::string_view tool = "verify";
  /// When the checks ran, for monitoring (Prometheus' last-run timestamp); unset in a report built by
  /// hand, whose writers then stay byte-for-byte deterministic.
  std::optional<std::chrono::system_clock::time_point> ran_at;
  /// health: every counter's rate on every port judged, in device and port order; empty for verify.
  std::vector<CounterRate> rates;

  /// What one check found beyond `results`, by index into checks_run: JUnit's compact form gives a
  /// check that passed everywhere one test case, and the summaries count per check.
  struct CheckTally {
    size_t passed = 0;
    size_t not_applicable = 0;
  };
  std::vector<CheckTally> check_tallies;

  /// Adds a passing result (listed and counted).
  void add_pass(uint32_t check, const Result& r);
  /// The tally of check ID `id` (an entry of checks_run), or an empty one.
  [[nodiscard]] CheckTally tally_of(std::string_view id) const;
  /// The check ID and object name of a pass, as Result::check and Result::object() would give them.
  [[nodiscard]] const std::string& check_of(const PassRef& p) const { return checks_run[p.check]; }
  [[nodiscard]] std::string object_of(const PassRef& p) const;
};

/// Results by status, and failures by severity: every summary counts the same way. Consequences are
/// counted apart: they are explained by a failure and are never a fault of their own.
struct ReportTally {
  size_t pass = 0, fail = 0, missing = 0, consequence = 0, not_applicable = 0;
  size_t errors = 0, warnings = 0, infos = 0;
};
ReportTally tally(const VerifyReport& r);

}  // namespace fabricctl
