#include "platform/platform.h"

namespace fabricctl {

nlohmann::json sonic_context(const DeviceDesired& device) { return common_context(device); }

}  // namespace fabricctl
