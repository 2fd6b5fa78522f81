#include "verify/result_sink.h"

#include "verify/check.h"

namespace fabricctl {

void ResultSink::pass(const LinkEnds& l) { passes_.push_back({l.a_device, l.a, l.b_device, l.b, results_.size()}); }

std::vector<Result> ResultSink::all() const {
  std::vector<Result> out;
  out.reserve(passes_.size() + results_.size());
  size_t next = 0;  // the next Result not yet copied
  auto as_result = [this](const Pass& p) {
    Result r;
    r.check = std::string(check_->id);
    r.status = Status::pass;
    r.severity = check_->severity;
    r.a = {p.a_device->name, p.a_port ? p.a_port->name : std::string()};
    if (p.b_device) r.b = Endpoint{p.b_device->name, p.b_port ? p.b_port->name : std::string()};
    return r;
  };
  for (const Pass& p : passes_) {
    for (; next < p.position; ++next) out.push_back(results_[next]);
    out.push_back(as_result(p));
  }
  for (; next < results_.size(); ++next) out.push_back(results_[next]);
  return out;
}

}  // namespace fabricctl
