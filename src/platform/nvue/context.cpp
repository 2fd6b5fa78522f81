#include "platform/platform.h"

namespace fabricctl {

nlohmann::json nvue_context(const DeviceDesired& device) { return common_context(device); }

}  // namespace fabricctl
