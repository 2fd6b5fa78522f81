#include "platform/platform.h"

namespace fabricctl {

nlohmann::json eos_context(const DeviceDesired& device) { return common_context(device); }

}  // namespace fabricctl
