#include "ops/remote_steps.h"

namespace fabricctl::ops {

std::string run_steps(DeviceSession& session, const std::vector<RemoteStep>& steps, const Applier& a) {
  for (const RemoteStep& step : steps) {
    auto out = session.run(step.command, step.input);
    if (!out) return step.what + ": " + out.error();
    const StepOutput so{out->exit_status, out->out, out->err};
    std::string why = a.failure ? a.failure(step, so) : exit_status_failure(step, so);
    if (!why.empty()) return why;
  }
  return {};
}

}  // namespace fabricctl::ops
