#include "verify/checks/checks.h"

namespace fabricctl {

std::vector<Check> rdma_checks() { return {}; }

}  // namespace fabricctl
