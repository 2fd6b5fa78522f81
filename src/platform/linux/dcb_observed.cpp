#include "platform/linux/dcb_observed.h"

#include <string>

namespace fabricctl {

Expected<void> fill_observed(const DcbState& state, PortObserved& port) {
  if (state.pfc) port.lossless = state.pfc->enabled;
  if (state.ets) {
    std::array<int, kPriorities> prio_tc{};
    std::array<TcSchedule, kTrafficClasses> tc{};
    for (int p = 0; p < kPriorities; ++p) {
      prio_tc[p] = state.ets->prio_tc[p];
      if (prio_tc[p] >= kTrafficClasses)
        return unexpected("ets prio_tc of priority " + std::to_string(p) + " is " + std::to_string(prio_tc[p]));
      tc[prio_tc[p]].used = true;
    }
    for (int t = 0; t < kTrafficClasses; ++t) {
      const uint8_t tsa = state.ets->tc_tsa[t];
      if (tsa != kTsaStrict && tsa != kTsaEts)
        return unexpected("ets tc_tsa of tc " + std::to_string(t) + " is " + std::to_string(tsa) +
                          ", neither strict (0) nor ets (2)");
      tc[t].strict = tsa == kTsaStrict;
      tc[t].bandwidth_pct = tc[t].strict ? 0 : state.ets->tc_tx_bw[t];
    }
    port.priority_to_tc = prio_tc;
    port.tc = tc;
  }
  std::array<int, kDscpValues> map{};
  bool any_dscp = false;
  for (const DcbApp& a : state.apps) {
    if (a.selector != kAppSelDscp) continue;
    if (a.protocol >= kDscpValues)
      return unexpected("app table DSCP entry " + std::to_string(a.protocol) + " is above 63");
    map[a.protocol] = a.priority;
    any_dscp = true;
  }
  port.trust = any_dscp ? Trust::dscp : Trust::pcp;
  if (any_dscp) port.dscp_to_priority = map;
  return {};
}

}  // namespace fabricctl
