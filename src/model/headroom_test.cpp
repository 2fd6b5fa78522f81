#include <doctest/doctest.h>

#include "model/headroom.h"

using namespace fabricctl;

TEST_CASE("PFC headroom grows with speed and cable length") {
  // 400G, 5 m, MTU 9100: 2*9122 + 2*5*400000/1600 (2500) + 905*64 (57920) = 78664 -> 78848
  CHECK(pfc_headroom_bytes(400000, 5, 9100) == 78848);
  // 100G, 3 m, MTU 9000: 18044 + 375 + 25216 = 43635 -> 44032
  CHECK(pfc_headroom_bytes(100000, 3, 9000) == 44032);
  CHECK(pfc_headroom_bytes(400000, 100, 9100) > pfc_headroom_bytes(400000, 5, 9100));
  CHECK(pfc_headroom_bytes(0, 5, 9100) == 0);
}
