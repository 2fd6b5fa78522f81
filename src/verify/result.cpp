#include "verify/result.h"

namespace fabricctl {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::info: return "info";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "?";
}

std::string_view to_string(Status s) {
  switch (s) {
    case Status::pass: return "pass";
    case Status::fail: return "fail";
    case Status::missing: return "missing";
    case Status::consequence: return "consequence";
  }
  return "?";
}

std::optional<Severity> parse_severity(std::string_view s) {
  if (s == "info") return Severity::info;
  if (s == "warning") return Severity::warning;
  if (s == "error") return Severity::error;
  return std::nullopt;
}

}  // namespace fabricctl
