#include <doctest/doctest.h>

#include "platform/linux/dcb_observed.h"

using namespace fabricctl;

TEST_CASE("dcb observed: PFC, ETS and the DSCP app table in the neutral fields") {
  DcbState s;
  DcbPfc pfc;
  pfc.enabled[3] = true;
  s.pfc = pfc;
  DcbEts ets;
  ets.prio_tc = {0, 0, 0, 1, 0, 0, 6, 0};
  ets.tc_tsa = {kTsaEts, kTsaEts, 0, 0, 0, 0, 0, 0};
  ets.tc_tx_bw = {50, 50, 0, 0, 0, 0, 0, 0};
  s.ets = ets;
  s.apps = {{kAppSelDscp, 3, 26}, {kAppSelDscp, 6, 48}, {kAppSelEthertype, 5, 0x8915}};
  PortObserved port;
  REQUIRE(fill_observed(s, port).has_value());
  CHECK(*port.lossless == std::array<bool, 8>{false, false, false, true, false, false, false, false});
  CHECK(*port.priority_to_tc == std::array<int, 8>{0, 0, 0, 1, 0, 0, 6, 0});
  CHECK((*port.tc)[1].used);
  CHECK_FALSE((*port.tc)[1].strict);
  CHECK((*port.tc)[1].bandwidth_pct == 50);
  CHECK((*port.tc)[6].strict);
  CHECK((*port.tc)[6].bandwidth_pct == 0);
  CHECK_FALSE((*port.tc)[2].used);
  CHECK(port.trust == Trust::dscp);
  CHECK((*port.dscp_to_priority)[26] == 3);
  CHECK((*port.dscp_to_priority)[48] == 6);
  CHECK((*port.dscp_to_priority)[0] == 0);
}

TEST_CASE("dcb observed: no DSCP entries is PCP trust; what the state lacks stays empty; CBS is an error") {
  PortObserved port;
  REQUIRE(fill_observed(DcbState{}, port).has_value());
  CHECK(port.trust == Trust::pcp);
  CHECK_FALSE(port.dscp_to_priority.has_value());
  CHECK_FALSE(port.lossless.has_value());
  CHECK_FALSE(port.tc.has_value());
  DcbState s;
  s.ets = DcbEts{};
  s.ets->tc_tsa[4] = kTsaCbShaper;
  auto r = fill_observed(s, port);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error() == "ets tc_tsa of tc 4 is 1, neither strict (0) nor ets (2)");
}
