#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "render/template_set.h"
#include "text_lines.h"

using namespace fabricctl;
using fabricctl::test::has_line;
using fabricctl::test::line_index;
using fabricctl::test::lines_of;

namespace {

std::string render_nvue(const DeviceDesired& d) {
  Diags diags;
  auto text = read_template(FABRICCTL_SOURCE_DIR "/templates/nvue/commands.nvue.mustache", diags);
  REQUIRE(text);
  auto out = render_template(*text, nvue_context(d), "commands.nvue.mustache", diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

size_t count_prefix(const std::string& s, const std::string& prefix) {
  size_t n = 0;
  for (const auto& l : lines_of(s))
    if (l.rfind(prefix, 0) == 0) ++n;
  return n;
}

/// Every line is a `#` comment or an `nv set` or `nv unset` command; no blank lines, no trailing whitespace.
void check_shape(const std::string& out) {
  REQUIRE_FALSE(out.empty());
  CHECK(out.back() == '\n');
  for (const auto& l : lines_of(out)) {
    CHECK_MESSAGE((l.rfind("# ", 0) == 0 || l.rfind("nv set ", 0) == 0 || l.rfind("nv unset ", 0) == 0),
                  "unexpected line: ", l);
    if (!l.empty()) CHECK_MESSAGE(l.back() != ' ', "trailing whitespace: ", l);
  }
}

}  // namespace

TEST_CASE("nvue commands render the roce-lossless intent") {
  auto d = test::example_switch(Platform::nvue, {"swp1", "swp2"});
  d.ports[1].cable_length_m = 30;  // the global cable length is the longest one
  std::string out = render_nvue(d);
  check_shape(out);

  CHECK(lines_of(out).front() == "# fabricctl: leaf1 profile roce-lossless");
  CHECK(count_prefix(out, "nv set qos roce") == 0);
  CHECK(has_line(out, "nv set qos mapping default-global trust l3"));
  CHECK(count_prefix(out, "nv set qos mapping default-global dscp ") == 64);
  CHECK(has_line(out, "nv set qos mapping default-global dscp 0 switch-priority 0"));
  CHECK(has_line(out, "nv set qos mapping default-global dscp 26 switch-priority 3"));
  CHECK(has_line(out, "nv set qos mapping default-global dscp 48 switch-priority 6"));
  CHECK(has_line(out, "nv set qos mapping default-global dscp 63 switch-priority 0"));
  CHECK(count_prefix(out, "nv set qos mapping default-global pcp ") == 0);

  CHECK(has_line(out, "nv set qos pfc default-global switch-priority 3"));
  CHECK(has_line(out, "nv set qos pfc default-global tx enable"));
  CHECK(has_line(out, "nv set qos pfc default-global rx enable"));
  CHECK(has_line(out, "nv set qos pfc default-global cable-length 30"));
  CHECK(has_line(out, "nv set qos traffic-pool default-lossless memory-percent 50"));

  CHECK(count_prefix(out, "nv set qos egress-queue-mapping default-global ") == 8);
  CHECK(has_line(out, "nv set qos egress-queue-mapping default-global switch-priority 3 traffic-class 3"));
  CHECK(has_line(out, "nv set qos egress-queue-mapping default-global switch-priority 6 traffic-class 6"));
  CHECK(has_line(out, "nv set qos egress-queue-mapping default-global switch-priority 7 traffic-class 0"));

  const std::string sched =
      "nv set qos egress-scheduler default-global traffic-class 0 mode dwrr\n"
      "nv set qos egress-scheduler default-global traffic-class 0 bw-percent 50\n"
      "nv set qos egress-scheduler default-global traffic-class 1 mode strict\n"
      "nv unset qos egress-scheduler default-global traffic-class 1 bw-percent\n"
      "nv set qos egress-scheduler default-global traffic-class 2 mode strict\n"
      "nv unset qos egress-scheduler default-global traffic-class 2 bw-percent\n"
      "nv set qos egress-scheduler default-global traffic-class 3 mode dwrr\n"
      "nv set qos egress-scheduler default-global traffic-class 3 bw-percent 50\n"
      "nv set qos egress-scheduler default-global traffic-class 4 mode strict\n"
      "nv unset qos egress-scheduler default-global traffic-class 4 bw-percent\n"
      "nv set qos egress-scheduler default-global traffic-class 5 mode strict\n"
      "nv unset qos egress-scheduler default-global traffic-class 5 bw-percent\n"
      "nv set qos egress-scheduler default-global traffic-class 6 mode strict\n"
      "nv unset qos egress-scheduler default-global traffic-class 6 bw-percent\n"
      "nv set qos egress-scheduler default-global traffic-class 7 mode strict\n"
      "nv unset qos egress-scheduler default-global traffic-class 7 bw-percent\n";
  CHECK_MESSAGE(out.find(sched) != std::string::npos, out);

  // ECN thresholds stay in bytes.
  const std::string ecn =
      "nv set qos congestion-control default-global traffic-class 3 ecn enable\n"
      "nv set qos congestion-control default-global traffic-class 3 min-threshold 153600\n"
      "nv set qos congestion-control default-global traffic-class 3 max-threshold 1536000\n"
      "nv set qos congestion-control default-global traffic-class 3 probability 20\n";
  CHECK_MESSAGE(out.find(ecn) != std::string::npos, out);
  // NVUE marks TC0 by default; the profile marks only TC3: every other class is set to disable.
  CHECK(has_line(out, "nv set qos congestion-control default-global traffic-class 0 ecn disable"));
  CHECK(has_line(out, "nv set qos congestion-control default-global traffic-class 6 ecn disable"));
  CHECK(has_line(out, "nv set qos congestion-control default-global traffic-class 7 ecn disable"));
  CHECK(count_prefix(out, "nv set qos congestion-control ") == 4 + 7);
  // The PFC priorities that are not lossless are removed, and RoCE mode with them.
  CHECK(has_line(out, "nv unset qos pfc default-global switch-priority 0,1,2,4,5,6,7"));
  CHECK(has_line(out, "nv unset qos roce"));
  CHECK_FALSE(has_line(out, "nv set qos roce mode lossless"));  // ECN 20 % on TC3 only: not RoCE mode

  CHECK(has_line(out, "nv set qos pfc-watchdog polling-interval 100"));
  CHECK(has_line(out, "nv set qos pfc-watchdog robustness 2"));

  const std::string ports =
      "nv set interface swp1 link mtu 9100\n"
      "nv set interface swp1 qos pfc-watchdog state enable\n"
      "nv set interface swp2 link mtu 9100\n"
      "nv set interface swp2 qos pfc-watchdog state enable\n";
  CHECK(out.size() >= ports.size());
  CHECK_MESSAGE(out.substr(out.size() - ports.size()) == ports, out);
}

TEST_CASE("nvue robustness rounds detection up to whole polling intervals") {
  auto d = test::example_switch(Platform::nvue, {"swp1"});
  d.qos.watchdog.poll_interval_ms = 150;
  d.qos.watchdog.detection_ms = 400;
  std::string out = render_nvue(d);
  CHECK(has_line(out, "nv set qos pfc-watchdog polling-interval 150"));
  CHECK(has_line(out, "nv set qos pfc-watchdog robustness 3"));
  d.qos.watchdog.detection_ms = 450;
  out = render_nvue(d);
  CHECK(has_line(out, "nv set qos pfc-watchdog robustness 3"));
}

TEST_CASE("nvue ECN off disables ECN on every class, TC0 (NVUE's default) included") {
  auto d = test::example_switch(Platform::nvue, {"swp1"});
  d.qos.ecn_enabled = false;
  d.qos.ecn.clear();
  std::string out = render_nvue(d);
  check_shape(out);
  for (int tc = 0; tc < 8; ++tc)
    CHECK(has_line(
        out, "nv set qos congestion-control default-global traffic-class " + std::to_string(tc) + " ecn disable"));
  CHECK(count_prefix(out, "nv set qos congestion-control ") == 8);
}

TEST_CASE("nvue best-effort ECN is the profile's choice: ecn.tc.0 marks TC0") {
  auto d = test::example_switch(Platform::nvue, {"swp1"});
  d.qos.ecn.push_back({0, 1000000, 2000000, 5});
  const std::string out = render_nvue(d);
  CHECK(has_line(out, "nv set qos congestion-control default-global traffic-class 0 ecn enable"));
  CHECK(has_line(out, "nv set qos congestion-control default-global traffic-class 0 probability 5"));
  CHECK_FALSE(has_line(out, "nv set qos congestion-control default-global traffic-class 0 ecn disable"));
}

TEST_CASE("nvue RoCE mode where the profile is NVIDIA's, with the adjustments NVIDIA documents") {
  auto d = test::example_switch(Platform::nvue, {"swp1", "swp2"});
  // NVIDIA's RoCE defaults: ECN on TC0 and TC3 at 150000-1500000 B, probability 100.
  d.qos.ecn = {{0, 150000, 1500000, 100}, {3, 150000, 1500000, 100}};
  std::string out = render_nvue(d);
  check_shape(out);
  CHECK(has_line(out, "nv set qos roce mode lossless"));
  CHECK(has_line(out, "nv set qos roce cable-length 5"));
  CHECK(has_line(out, "nv set qos mapping default-global trust l3"));  // RoCE mode trusts PCP and DSCP
  // NVIDIA's map is eight DSCPs per priority; the profile's differs there, one list per priority.
  CHECK(has_line(out,
                 "nv set qos mapping default-global dscp 8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,27,28,"
                 "29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,49,50,51,52,53,54,55,56,57,58,59,60,61,"
                 "62,63 switch-priority 0"));
  CHECK(count_prefix(out, "nv set qos mapping default-global dscp ") == 1);  // 26 -> 3 and 48 -> 6 are NVIDIA's
  // What RoCE mode sets is not written again; what it leaves alone is.
  for (const char* set_by_roce : {"nv set qos pfc ", "nv set qos egress-scheduler ", "nv set qos congestion-control ",
                                  "nv set qos traffic-pool ", "nv set qos egress-queue-mapping "})
    CHECK(count_prefix(out, set_by_roce) == 0);
  CHECK(has_line(out, "nv set qos pfc-watchdog robustness 2"));
  CHECK(has_line(out, "nv set interface swp2 link mtu 9100"));
  CHECK_FALSE(has_line(out, "nv unset qos roce"));
  // What an explicit profile wrote to default-global is removed in the same change: RoCE mode's own PFC.
  CHECK(has_line(out, "nv unset qos pfc default-global"));
  CHECK(has_line(out, "nv unset qos congestion-control default-global"));
  CHECK(has_line(out, "nv set qos roce enable on"));  // the default release, 5.14

  d.qos.dscp_to_priority.fill(0);  // NVIDIA's own map: no adjustment left but trust
  for (int dscp = 0; dscp < 64; ++dscp) d.qos.dscp_to_priority[static_cast<size_t>(dscp)] = dscp / 8;
  out = render_nvue(d);
  CHECK(count_prefix(out, "nv set qos mapping default-global dscp ") == 0);

  // Anything RoCE mode fixes differently: the explicit form.
  for (int variant = 0; variant < 4; ++variant) {
    auto e = d;
    if (variant == 0) e.qos.ecn[1].probability_pct = 20;
    if (variant == 1) e.qos.ecn.pop_back();
    if (variant == 2) e.qos.tc[0].bandwidth_pct = 60;
    if (variant == 3) e.qos.lossless[4] = true;
    CAPTURE(variant);
    CHECK_FALSE(has_line(render_nvue(e), "nv set qos roce mode lossless"));
  }
}

TEST_CASE("nvue watchdog off removes the watchdog, globally and per interface") {
  auto d = test::example_switch(Platform::nvue, {"swp1", "swp2"});
  d.qos.watchdog.enabled = false;
  std::string out = render_nvue(d);
  check_shape(out);
  CHECK(count_prefix(out, "nv set qos pfc-watchdog") == 0);
  CHECK_FALSE(has_line(out, "nv set interface swp1 qos pfc-watchdog state enable"));
  CHECK(has_line(out, "nv unset qos pfc-watchdog"));
  CHECK(has_line(out, "nv unset interface swp1 qos pfc-watchdog"));
  CHECK(has_line(out, "nv unset interface swp2 qos pfc-watchdog"));
  CHECK(has_line(out, "nv set interface swp1 link mtu 9100"));
  CHECK(has_line(out, "nv set qos pfc default-global switch-priority 3"));
}

TEST_CASE("nvue without lossless priorities removes PFC, the pool split and the watchdog") {
  auto d = test::example_switch(Platform::nvue, {"swp1"});
  d.qos.lossless.fill(false);
  std::string out = render_nvue(d);
  check_shape(out);
  CHECK(count_prefix(out, "nv set qos pfc") == 0);
  CHECK(count_prefix(out, "nv set qos traffic-pool") == 0);
  CHECK_FALSE(has_line(out, "nv set interface swp1 qos pfc-watchdog state enable"));
  CHECK(has_line(out, "nv unset qos pfc default-global"));
  CHECK(has_line(out, "nv unset qos traffic-pool default-lossless memory-percent"));
  CHECK(has_line(out, "nv unset qos traffic-pool default-lossy memory-percent"));
  CHECK(has_line(out, "nv unset qos pfc-watchdog"));
  CHECK(has_line(out, "nv unset interface swp1 qos pfc-watchdog"));
}

TEST_CASE("nvue pcp trust and several lossless priorities") {
  auto d = test::example_switch(Platform::nvue, {"swp1"});
  d.qos.trust = Trust::pcp;
  d.qos.lossless[4] = true;
  std::string out = render_nvue(d);
  check_shape(out);
  CHECK(has_line(out, "nv set qos mapping default-global trust l2"));
  CHECK(count_prefix(out, "nv set qos mapping default-global pcp ") == 8);
  CHECK(has_line(out, "nv set qos mapping default-global pcp 5 switch-priority 5"));
  CHECK(has_line(out, "nv set qos pfc default-global switch-priority 3,4"));
  CHECK(has_line(out, "nv unset qos pfc default-global switch-priority 0,1,2,5,6,7"));
}

TEST_CASE("nvue interfaces come in natural port order") {
  auto d = test::example_switch(Platform::nvue, {"swp10", "swp2", "swp1s1"});
  std::string out = render_nvue(d);
  long s1 = line_index(out, "nv set interface swp1s1 link mtu 9100");
  long s2 = line_index(out, "nv set interface swp2 link mtu 9100");
  long s10 = line_index(out, "nv set interface swp10 link mtu 9100");
  REQUIRE(s1 >= 0);
  REQUIRE(s2 >= 0);
  REQUIRE(s10 >= 0);
  CHECK(s1 < s2);
  CHECK(s2 < s10);
}

TEST_CASE("nvue commands are exactly the hand-computed commands, whatever the order of the ports") {
  // Computed here from docs/profiles.md ("How keys are rendered per platform") for the roce-lossless
  // intent, not copied from a render: all 64 DSCPs, PFC on 3 with the longest cable (5 m), every priority's
  // traffic class, DWRR 50/50 with unused classes strict (their shares removed), ECN in bytes and off on
  // every other class (NVUE marks TC0 by default), robustness = ceil(200 / 100); RoCE mode and the
  // priorities that are not lossless removed.
  // The ports come in reverse; the interfaces are set in natural order.
  std::string want;
  for (const auto& l : lines_of(render_nvue(test::example_switch(Platform::nvue, {"swp1"}))))
    if (l.rfind("#", 0) == 0) want += l + "\n";  // the explanatory comments, pinned by the golden files
  REQUIRE(want.rfind("# fabricctl: leaf1 profile roce-lossless\n", 0) == 0);
  want += "nv unset qos roce\n";
  want += "nv set qos mapping default-global trust l3\n";
  for (int dscp = 0; dscp < 64; ++dscp)
    want += "nv set qos mapping default-global dscp " + std::to_string(dscp) + " switch-priority " +
            (dscp == 26   ? "3"
             : dscp == 48 ? "6"
                          : "0") +
            "\n";
  want +=
      "nv set qos traffic-pool default-lossless memory-percent 50\n"
      "nv set qos traffic-pool default-lossy memory-percent 50\n"
      "nv set qos pfc default-global switch-priority 3\n"
      "nv unset qos pfc default-global switch-priority 0,1,2,4,5,6,7\n"
      "nv set qos pfc default-global tx enable\n"
      "nv set qos pfc default-global rx enable\n"
      "nv set qos pfc default-global cable-length 5\n";
  const int tc_of[8] = {0, 0, 0, 3, 0, 0, 6, 0};
  for (int p = 0; p < 8; ++p)
    want += "nv set qos egress-queue-mapping default-global switch-priority " + std::to_string(p) + " traffic-class " +
            std::to_string(tc_of[p]) + "\n";
  for (int tc = 0; tc < 8; ++tc) {
    const std::string q = "nv set qos egress-scheduler default-global traffic-class " + std::to_string(tc);
    want += tc == 0 || tc == 3 ? q + " mode dwrr\n" + q + " bw-percent 50\n"
                               : q + " mode strict\n" + "nv unset" + q.substr(6) + " bw-percent\n";
  }
  want +=
      "nv set qos congestion-control default-global traffic-class 3 ecn enable\n"
      "nv set qos congestion-control default-global traffic-class 3 min-threshold 153600\n"
      "nv set qos congestion-control default-global traffic-class 3 max-threshold 1536000\n"
      "nv set qos congestion-control default-global traffic-class 3 probability 20\n"
      "nv unset qos congestion-control default-global traffic-class 0,1,2,4,5,6,7\n"
      "nv set qos congestion-control default-global traffic-class 0 ecn disable\n"
      "nv set qos congestion-control default-global traffic-class 1 ecn disable\n"
      "nv set qos congestion-control default-global traffic-class 2 ecn disable\n"
      "nv set qos congestion-control default-global traffic-class 4 ecn disable\n"
      "nv set qos congestion-control default-global traffic-class 5 ecn disable\n"
      "nv set qos congestion-control default-global traffic-class 6 ecn disable\n"
      "nv set qos congestion-control default-global traffic-class 7 ecn disable\n"
      "nv set qos pfc-watchdog polling-interval 100\n"
      "nv set qos pfc-watchdog robustness 2\n";
  for (const char* port : {"swp1", "swp2", "swp10"})
    want += std::string("nv set interface ") + port + " link mtu 9100\n" + "nv set interface " + port +
            " qos pfc-watchdog state enable\n";
  CHECK(render_nvue(test::example_switch(Platform::nvue, {"swp10", "swp2", "swp1"})) == want);
}
