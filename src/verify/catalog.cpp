#include "verify/checks/checks.h"

namespace fabricctl {

const std::vector<Check>& checks() {
  static const std::vector<Check> table = [] {
    std::vector<Check> all;
    for (auto family : {drift_checks, link_checks, path_checks, rdma_checks, nccl_checks, cabling_checks}) {
      std::vector<Check> part = family();
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }();
  return table;
}

}  // namespace fabricctl
