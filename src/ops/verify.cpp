#include "ops/verify.h"

#include <utility>

#include "platform/platform.h"

namespace fabricctl::ops {

VerifyReport verify(const FabricDesired& desired, const FabricObserved& observed, VerifyOptions options) {
  options.fix_text = fix_text;
  return run_verify(desired, observed, options);
}

}  // namespace fabricctl::ops
