#include "platform/sonic/names.h"

namespace fabricctl::sonic {

std::string scheduler_name(int tc) { return "ROCE_TC" + std::to_string(tc); }

std::string wred_profile_name(const QosIntent& q, int tc) {
  if (tc == q.priority_to_tc.at(static_cast<size_t>(q.roce_priority))) return "ROCE_LOSSLESS";
  return "ROCE_ECN_TC" + std::to_string(tc);
}

}  // namespace fabricctl::sonic
