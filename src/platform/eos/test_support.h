// Test-only helpers for the EOS adapter. Included by *_test.cpp only.
#pragma once

#include <regex>
#include <string>

#include "text_lines.h"

namespace fabricctl::test {

/// session.cfg as `show running-config` prints it after the session's commit: the removals (`no ...`
/// of what is not set) and the lines that state EOS's default (`priority strict`, the port's watchdog,
/// `qos trust cos` on a switched port) are not printed; `end` closes it.
inline std::string as_eos_prints(const std::string& session) {
  static const std::regex hidden(
      R"(\s*(no (priority-flow-control (priority|pause watchdog default|pause watchdog action)|bandwidth percent|)"
      R"(random-detect ecn)( .*)?|no priority-flow-control|priority strict|priority-flow-control pause watchdog|)"
      R"(priority-flow-control pause watchdog action drop|qos trust cos))");
  std::string out;
  for (const std::string& line : lines_of(session))
    if (!std::regex_match(line, hidden)) out += line + "\n";
  return out + "end\n";
}

}  // namespace fabricctl::test
