// Running a platform's remote steps (a transaction's stage, confirm or rollback, or its check) on one
// device's session, each judged the platform's way: shared by plan's check and apply.
#pragma once

#include <string>
#include <vector>

#include "ops/device_session.h"
#include "platform/transaction.h"

namespace fabricctl::ops {

/// Runs `steps` in order on `session`; "" when all succeeded, else why the first failed (the applier's
/// `failure`, or the exit status when it has none; a command that could not run: its step and why).
std::string run_steps(DeviceSession& session, const std::vector<RemoteStep>& steps, const Applier& a);

}  // namespace fabricctl::ops
