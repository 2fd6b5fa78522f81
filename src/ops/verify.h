// verify as the fleet's operations and the command line run it: the check engine (verify/engine.h)
// with every failure's fix phrased for its device's platform, which verify itself does not know.
#pragma once

#include "state/desired.h"
#include "state/observed.h"
#include "verify/engine.h"

namespace fabricctl::ops {

/// run_verify with `options.fix_text` set to the platform layer's phrasing.
VerifyReport verify(const FabricDesired& desired, const FabricObserved& observed, VerifyOptions options);

}  // namespace fabricctl::ops
