#include "verify/checks/checks.h"

namespace fabricctl {

std::vector<Check> drift_checks() { return {}; }

}  // namespace fabricctl
