#include "platform/transaction.h"

#include "util/escape.h"

namespace fabricctl {

std::string exit_status_failure(const RemoteStep& step, const StepOutput& out) {
  if (out.exit_status == 0) return {};
  std::string_view text = out.err.empty() ? out.out : out.err;
  const std::string_view first = text.substr(0, text.find('\n'));
  return step.what + ": exited with status " + std::to_string(out.exit_status) +
         (first.empty() ? "" : ": " + terminal_line(first.substr(0, 200)));
}

}  // namespace fabricctl
