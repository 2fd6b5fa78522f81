// Results of checks: one per check and object (port, link or device), pass, fail or missing data.
// Failures are the findings a network engineer acts on; passes and missing data are kept so that
// JUnit can list every test case and so that "nothing to compare" is never mistaken for "fine".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fabricctl {

enum class Severity { info, warning, error };
enum class Status { pass, fail, missing };

std::string_view to_string(Severity s);
std::string_view to_string(Status s);
/// Parses "info", "warning" or "error".
std::optional<Severity> parse_severity(std::string_view s);

/// One end of what a result is about: a device and, for port-level results, a port.
struct Endpoint {
  std::string device;
  std::string port;  // empty for a device-level result

  [[nodiscard]] std::string str() const { return port.empty() ? device : device + ":" + port; }
  friend bool operator==(const Endpoint&, const Endpoint&) = default;
};

struct Result {
  std::string check;          // stable ID, e.g. "link.pfc.mismatch"
  Status status = Status::pass;
  Severity severity = Severity::error;  // of a failure (the check's severity)
  Endpoint a;                 // the object; for links the host end (or the lower name of two switches)
  std::optional<Endpoint> b;  // the other end of a link
  std::string expected;       // human-readable expected value(s); for links: "both ends ..." etc.
  std::string observed;       // what was seen; for links: "a=..., b=..."
  std::string message;        // one line: what is wrong (or what was compared, for a pass)
  std::string hint;           // one line: how to fix it (failures only)

  /// A stable name for the object: "leaf1:Ethernet0" or "host1:eth0~leaf1:Ethernet0" for a link.
  [[nodiscard]] std::string object() const { return b ? a.str() + "~" + b->str() : a.str(); }
};

}  // namespace fabricctl
