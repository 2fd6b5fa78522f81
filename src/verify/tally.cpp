#include "verify/verify_report.h"

namespace fabricctl {

ReportTally tally(const VerifyReport& r) {
  ReportTally t;
  for (const Result& res : r.results) {
    switch (res.status) {
      case Status::pass: ++t.pass; break;
      case Status::missing: ++t.missing; break;
      case Status::consequence: ++t.consequence; break;
      case Status::fail:
        ++t.fail;
        switch (res.severity) {
          case Severity::error: ++t.errors; break;
          case Severity::warning: ++t.warnings; break;
          case Severity::info: ++t.infos; break;
        }
        break;
    }
  }
  return t;
}

}  // namespace fabricctl
