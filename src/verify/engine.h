// Running the check catalog over a fabric, with the filters of `fabricctl verify`.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "state/desired.h"
#include "state/observed.h"
#include "verify/check.h"
#include "verify/verify_report.h"

namespace fabricctl {

struct VerifyFilter {
  std::vector<std::string> limit;          // device-name or group globs (--limit); empty = every device
  std::vector<std::string> only;           // check-ID globs to run (--check); empty = all
  std::vector<std::string> skip;           // check-ID globs not to run (--skip)
  Severity min_severity = Severity::info;  // failures below this are not reported (--severity)
};

/// Devices in scope of `--limit`: matching by name or by any of their groups (fnmatch globs).
std::set<std::string> devices_in_scope(const FabricDesired& desired, const std::vector<std::string>& limit);

/// Devices whose state verify needs: the scope and the far ends of its links.
std::set<std::string> devices_needed(const FabricDesired& desired, const std::set<std::string>& scope);

/// The checks selected by --check/--skip. A glob that matches no check ID is an error, reported
/// in `error` (with a suggestion), because a typo would otherwise silently verify nothing.
std::vector<const Check*> select_checks(const VerifyFilter& f, std::string& error);

/// Whether a run lists every passing result (VerifyReport::passes, for a report that names them:
/// JUnit) or only counts them (VerifyReport::pass_count): at R100k there are 4.6 million.
enum class Passes { listed, counted };

/// What one verify run does: its checks, its scope, and how it reports.
struct VerifyOptions {
  std::vector<const Check*> checks{};  // select_checks()
  std::set<std::string> scope{};       // devices_in_scope(): results that touch one of these are kept
  std::set<std::string> needed{};      // devices_needed(desired, scope): unreadable devices outside it go unreported
  Severity min_severity = Severity::info;  // failures below this are not reported
  Tolerance tolerance{};
  Passes passes = Passes::listed;
  /// Failures' fixes phrased for their device's platform (the caller's platform layer); nullptr: none.
  FixText fix_text = nullptr;
  /// The checks run on one thread more per this many desired ports (up to one per core, at most 8).
  /// Below it a thread costs more than it saves: on two cores, two never beat one even at R100k
  /// (409,600 ports: 0.65 s of checks against 0.67-0.77 s), and over a small fabric the checks take
  /// microseconds where starting a thread per batch of them takes tens.
  size_t ports_per_thread = 100'000;
};

/// Runs the options' checks and keeps results that touch a device in scope and pass the severity filter.
VerifyReport run_verify(const FabricDesired& desired, const FabricObserved& observed, const VerifyOptions& options);

/// Exit code of a verify run (docs/cli.md): 3 when some device's state was unreadable or a check
/// lacked data it requires, else 1 when a failure of severity error remains, else 0.
int verify_exit_code(const VerifyReport& r);

}  // namespace fabricctl
