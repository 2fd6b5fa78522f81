// Shared by the report tests: a hand-built report with passes, failures and missing data across three
// checks (links, ports, a device), duplicate objects, unreadable devices and strings that break naive
// writers (quotes, <, &, newlines); and running external validators (junitparser, xmllint, promtool).
#pragma once

#include <doctest/doctest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "report/report.h"

namespace fabricctl::report_test {

inline Result result(std::string check, Status status, Severity severity, Endpoint a, std::optional<Endpoint> b,
                     std::string expected, std::string observed, std::string message, std::string hint) {
  Result r;
  r.check = std::move(check);
  r.status = status;
  r.severity = severity;
  r.a = std::move(a);
  r.b = std::move(b);
  r.expected = std::move(expected);
  r.observed = std::move(observed);
  r.message = std::move(message);
  r.hint = std::move(hint);
  return r;
}

/// 9 results: 3 pass, 4 fail (1 error, 1 warning, 2 info), 2 missing; checks in first-appearance
/// order port.pause.delta, link.pfc.mismatch, port.ecn.missing. port.pause.delta reports
/// leaf1:Ethernet8 twice (two counters), so JUnit must disambiguate the second test case.
inline VerifyReport sample() {
  VerifyReport r;
  const Endpoint host1{"host1", "eth0"};
  const Endpoint leaf1_e0{"leaf1", "Ethernet0"};
  const Endpoint leaf1_e8{"leaf1", "Ethernet8"};
  const Endpoint leaf2_e0{"leaf2", "Ethernet0"};
  const std::string no_state = "no state from leaf2: ssh: connection refused";
  r.results = {
      result("port.pause.delta", Status::fail, Severity::info, leaf1_e8, std::nullopt, "no new pause frames", "+1200",
             "1200 pause frames since baseline", "look for a congested receiver behind leaf1:Ethernet8"),
      result("port.pause.delta", Status::fail, Severity::info, leaf1_e8, std::nullopt, "no pause time", "+35 ms",
             "pause duration grew", ""),
      result("port.pause.delta", Status::pass, Severity::info, Endpoint{"spine1", ""}, std::nullopt,
             "no new pause frames", "+0", "no pause frames since baseline", ""),
      result("link.pfc.mismatch", Status::fail, Severity::error, host1, leaf1_e0, "both ends 3", "a=3, b=none",
             "lossless priorities differ", "enable PFC on priority 3 on leaf1:Ethernet0"),
      result("link.pfc.mismatch", Status::pass, Severity::error, Endpoint{"host2", "eth0"}, leaf1_e8, "both ends 3",
             "a=3, b=3", "lossless priorities match", ""),
      result("link.pfc.mismatch", Status::missing, Severity::error, Endpoint{"host3", "eth0"}, leaf2_e0, "both ends 3",
             "", no_state, ""),
      result("port.ecn.missing", Status::pass, Severity::warning, leaf1_e0, std::nullopt, "ECN on queue 3", "on",
             "ECN marks queue 3", ""),
      result("port.ecn.missing", Status::fail, Severity::warning, leaf1_e8, std::nullopt,
             "min < max & probability 0-100", "min=2000000 <bytes> & max=150000",
             "ECN \"min\" > 'max' on queue 3 & <lossless>\nsecond line",
             "set min_threshold below max_threshold in the \"roce\" profile"),
      result("port.ecn.missing", Status::missing, Severity::warning, leaf2_e0, std::nullopt, "ECN on queue 3", "",
             no_state, ""),
  };
  r.devices_checked = 4;
  r.links_checked = 3;
  r.unreadable = {{"leaf2", "ssh: connection refused by \"10.0.0.2\" <port 22> & retried"},
                  {"host9", "timeout after 30 s"}};
  return r;
}

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

/// A temporary file with `contents`, removed when this goes out of scope.
class TempFile {
 public:
  TempFile(std::string_view contents, const std::string& suffix) {
    std::string pattern = (std::filesystem::temp_directory_path() / ("fabricctl-report-XXXXXX" + suffix)).string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    const int fd = mkstemps(buf.data(), static_cast<int>(suffix.size()));
    REQUIRE_MESSAGE(fd >= 0, "cannot create a temporary file");
    close(fd);
    path_ = buf.data();
    std::ofstream(path_, std::ios::binary) << contents;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct Run {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

/// Runs a shell command, capturing stdout and stderr.
inline Run run(const std::string& command) {
  Run r;
  const std::string cmd = command + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  REQUIRE_MESSAGE(pipe != nullptr, "cannot run " << command);
  char chunk[4096];
  size_t n = 0;
  while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) r.output.append(chunk, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

/// The first of `candidates` that exists, or "" (the caller fails with an install hint).
inline std::string find_tool(std::initializer_list<const char*> candidates) {
  for (const char* c : candidates)
    if (std::filesystem::exists(c)) return c;
  return "";
}

}  // namespace fabricctl::report_test
