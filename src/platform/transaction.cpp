#include "platform/transaction.h"

#include "util/escape.h"
#include "util/text.h"

namespace fabricctl {
namespace {

// Device output is untrusted: a reason is one printable line of at most this many characters.
constexpr size_t kReasonChars = 200;

std::string reason_line(std::string_view line) { return terminal_line(line.substr(0, kReasonChars)); }

}  // namespace

std::string first_text_line(std::string_view text) {
  for (const std::string& line : split_lines(text))
    if (line.find_first_not_of(" \t\r") != std::string::npos) return reason_line(line);
  return {};
}

std::string marked_line(const StepOutput& out, std::initializer_list<std::string_view> prefixes) {
  for (const std::string_view text : {out.err, out.out})
    for (const std::string& line : split_lines(text))
      for (const std::string_view prefix : prefixes)
        if (line.rfind(prefix, 0) == 0) return reason_line(line);
  return {};
}

std::string ended_text(int exit_status) {
  return exit_status == -1 ? "ended without an exit status" : "exited with status " + std::to_string(exit_status);
}

std::string exit_status_failure(const RemoteStep& step, const StepOutput& out, const std::string& why) {
  if (out.exit_status == 0) return {};
  const std::string reason = why.empty() ? first_text_line(out.err.empty() ? out.out : out.err) : why;
  return step.what + ": " + ended_text(out.exit_status) + (reason.empty() ? "" : ": " + reason);
}

std::string exit_status_failure(const RemoteStep& step, const StepOutput& out) {
  return exit_status_failure(step, out, std::string());
}

}  // namespace fabricctl
