#include "verify/verify_report.h"

namespace fabricctl {

void VerifyReport::add_pass(uint32_t check, const Result& r) {
  PassRef p;
  p.check = check;
  p.a_device = names.intern(r.a.device);
  if (!r.a.port.empty()) p.a_port = names.intern(r.a.port);
  if (r.b) {
    p.b_device = names.intern(r.b->device);
    if (!r.b->port.empty()) p.b_port = names.intern(r.b->port);
  }
  passes.push_back(p);
  ++pass_count;
  if (check >= check_tallies.size()) check_tallies.resize(check + 1);
  ++check_tallies[check].passed;
}

VerifyReport::CheckTally VerifyReport::tally_of(std::string_view id) const {
  for (size_t i = 0; i < checks_run.size() && i < check_tallies.size(); ++i)
    if (checks_run[i] == id) return check_tallies[i];
  return {};
}

std::string VerifyReport::object_of(const PassRef& p) const {
  auto end = [this](uint32_t device, uint32_t port) {
    return port == PassRef::kNone ? names[device] : names[device] + ":" + names[port];
  };
  std::string s = end(p.a_device, p.a_port);
  if (p.b_device != PassRef::kNone) s += "~" + end(p.b_device, p.b_port);
  return s;
}

ReportTally tally(const VerifyReport& r) {
  ReportTally t;
  t.pass = r.pass_count;
  t.not_applicable = r.not_applicable;
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
