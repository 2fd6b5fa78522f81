// nvue write side: not written yet; the adapter has no native change, so apply refuses its devices.
#include "platform/platform.h"

namespace fabricctl {

Applier nvue_applier() { return {}; }

}  // namespace fabricctl
