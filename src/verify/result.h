// Results of checks: one per check and object (port, link or device), pass, fail or missing data.
// Failures are the findings a network engineer acts on; passes and missing data are kept so that
// JUnit can list every test case and so that "nothing to compare" is never mistaken for "fine".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace fabricctl {

enum class Severity { info, warning, error };
/// pass: as intended. fail: a fault, counted by severity. missing: not compared (data absent).
/// consequence: wrong, but explained by another finding (its `cause`); shown under it, never counted as
/// a fault of its own, so one fault is one finding.
enum class Status { pass, fail, missing, consequence };

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

/// A cabled link, host end first (between switches, the natural-order first device).
struct LinkRef {
  Endpoint a;
  Endpoint b;
};

struct Result {
  std::string check;  // stable ID, e.g. "link.pfc.mismatch"
  Status status = Status::pass;
  Severity severity = Severity::error;  // of a failure (the check's severity)
  Endpoint a;                           // the object; for links the host end (or the lower name of two switches)
  std::optional<Endpoint> b;            // the other end of a link
  std::string expected;                 // human-readable expected value(s); for links: "both ends ..." etc.
  std::string observed;                 // what was seen; for links: "a=..., b=..."
  std::string message;                  // one line: what is wrong (or what was compared, for a pass)
  std::string hint;             // how to fix it, commands for the device's platform, one per line (failures only)
  std::string cause;            // consequences: the finding that explains it, "<check> <object>"
  std::optional<LinkRef> link;  // the link the object belongs to, when it is cabled (grouping, context)

  /// A stable name for the object: "leaf1:Ethernet0" or "host1:eth0~leaf1:Ethernet0" for a link.
  [[nodiscard]] std::string object() const { return b ? a.str() + "~" + b->str() : a.str(); }
};

}  // namespace fabricctl
