#include "state/device_failure.h"

namespace fabricctl {

std::string_view to_string(FailureStage stage) {
  switch (stage) {
    case FailureStage::snapshot: return "snapshot";
    case FailureStage::connect: return "connect";
    case FailureStage::collect: return "collect";
    case FailureStage::parse: return "parse";
    case FailureStage::apply: return "apply";
  }
  return "unknown";
}

}  // namespace fabricctl
