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

std::string render_eos(const DeviceDesired& d) {
  Diags diags;
  auto text = read_template(FABRICCTL_SOURCE_DIR "/templates/eos/session.cfg.mustache", diags);
  REQUIRE(text);
  auto out = render_template(*text, eos_context(d), "session.cfg.mustache", diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

void check_shape(const std::string& out) {
  REQUIRE_FALSE(out.empty());
  CHECK(out.back() == '\n');
  for (const auto& l : lines_of(out)) {
    CHECK_MESSAGE(!l.empty(), "blank line in output");
    if (!l.empty()) CHECK_MESSAGE(l.back() != ' ', "trailing whitespace: ", l);
  }
}

/// One interface of the roce-lossless intent, written by hand: every priority stated (3 no-drop, the others
/// removed), the watchdog on, and all eight queue blocks, each with its scheduling and its ECN or the
/// removal of both: a session merges, so a line left out would keep what an earlier session set.
std::string roce_lossless_interface(const std::string& name) {
  return "interface " + name +
         "\n"
         "   mtu 9100\n"
         "   qos trust dscp\n"
         "   priority-flow-control on\n"
         "   no priority-flow-control priority 0 no-drop\n"
         "   no priority-flow-control priority 1 no-drop\n"
         "   no priority-flow-control priority 2 no-drop\n"
         "   priority-flow-control priority 3 no-drop\n"
         "   no priority-flow-control priority 4 no-drop\n"
         "   no priority-flow-control priority 5 no-drop\n"
         "   no priority-flow-control priority 6 no-drop\n"
         "   no priority-flow-control priority 7 no-drop\n"
         "   priority-flow-control pause watchdog\n"
         "   !\n"
         "   uc-tx-queue 0\n"
         "      no priority\n"
         "      bandwidth percent 50\n"
         "      no random-detect ecn minimum-threshold\n"
         "   !\n"
         "   uc-tx-queue 1\n"
         "      priority strict\n"
         "      no bandwidth percent\n"
         "      no random-detect ecn minimum-threshold\n"
         "   !\n"
         "   uc-tx-queue 2\n"
         "      priority strict\n"
         "      no bandwidth percent\n"
         "      no random-detect ecn minimum-threshold\n"
         "   !\n"
         "   uc-tx-queue 3\n"
         "      no priority\n"
         "      bandwidth percent 50\n"
         "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1536000 bytes "
         "max-mark-probability 20 weight 0\n"
         "   !\n"
         "   uc-tx-queue 4\n"
         "      priority strict\n"
         "      no bandwidth percent\n"
         "      no random-detect ecn minimum-threshold\n"
         "   !\n"
         "   uc-tx-queue 5\n"
         "      priority strict\n"
         "      no bandwidth percent\n"
         "      no random-detect ecn minimum-threshold\n"
         "   !\n"
         "   uc-tx-queue 6\n"
         "      priority strict\n"
         "      no bandwidth percent\n"
         "      no random-detect ecn minimum-threshold\n"
         "   !\n"
         "   uc-tx-queue 7\n"
         "      priority strict\n"
         "      no bandwidth percent\n"
         "      no random-detect ecn minimum-threshold\n"
         "!\n";
}

}  // namespace

TEST_CASE("eos session.cfg renders the roce-lossless intent") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1"});
  std::string out = render_eos(d);
  check_shape(out);

  CHECK(lines_of(out).front() == "! fabricctl: leaf1 profile roce-lossless");
  // Every DSCP, grouped per priority.
  CHECK(has_line(out,
                 "qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 27 28 29 30 31 32 "
                 "33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 to "
                 "traffic-class 0"));
  CHECK(has_line(out, "qos map dscp 26 to traffic-class 3"));
  CHECK(has_line(out, "qos map dscp 48 to traffic-class 6"));
  // The list form, one line per queue, in the unicast queue vocabulary of the default chip (Tomahawk);
  // traffic-class 7 is EOS's own, since no DSCP maps to priority 7.
  CHECK(has_line(out, "qos map traffic-class 0 1 2 4 5 to uc-tx-queue 0"));
  CHECK(has_line(out, "qos map traffic-class 3 to uc-tx-queue 3"));
  CHECK(has_line(out, "qos map traffic-class 6 to uc-tx-queue 6"));
  CHECK(out.find("traffic-class 7") == std::string::npos);
  CHECK(out.find(" tx-queue") == std::string::npos);  // one vocabulary per session
  CHECK_FALSE(has_line(out, "qos map cos 0 to traffic-class 0"));

  CHECK(has_line(out, "priority-flow-control pause watchdog default timeout 0.2"));
  CHECK(has_line(out, "priority-flow-control pause watchdog default recovery-time 0.2"));
  CHECK(has_line(out, "priority-flow-control pause watchdog default polling-interval 0.1"));
  CHECK(has_line(out, "priority-flow-control pause watchdog action drop"));

  // One interface block, exactly.
  const std::string eth1 = "!\n" + roce_lossless_interface("Ethernet1/1") + "interface Ethernet2/1\n";
  CHECK_MESSAGE(out.find(eth1) != std::string::npos, out);
  CHECK(out.substr(out.size() - 2) == "!\n");
  // Globals come before the interfaces.
  CHECK(line_index(out, "priority-flow-control pause watchdog action drop") < line_index(out, "interface Ethernet1/1"));
}

TEST_CASE("eos ECN thresholds are bytes, whatever their size, and mark on the instantaneous queue") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  d.qos.ecn = {{3, 150000, 1500000, 20}};
  std::string out = render_eos(d);
  CHECK(has_line(out,
                 "      random-detect ecn minimum-threshold 150000 bytes maximum-threshold 1500000 bytes "
                 "max-mark-probability 20 weight 0"));
  d.qos.ecn = {{3, 1048576, 2097152, 5}};  // whole kbytes and mbytes: still bytes (EOS's kbyte base is unknown)
  out = render_eos(d);
  CHECK(has_line(out,
                 "      random-detect ecn minimum-threshold 1048576 bytes maximum-threshold 2097152 bytes "
                 "max-mark-probability 5 weight 0"));
  CHECK(out.find("kbytes") == std::string::npos);
}

TEST_CASE("eos VOQ chips (Jericho) take tx-queue in the map and the queue blocks alike") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  d.hardware.voq = true;
  const std::string out = render_eos(d);
  check_shape(out);
  CHECK(has_line(out, "qos map traffic-class 0 1 2 4 5 to tx-queue 0"));
  CHECK(has_line(out, "qos map traffic-class 3 to tx-queue 3"));
  CHECK(has_line(out, "   tx-queue 3"));
  CHECK(has_line(out, "   tx-queue 6"));
  CHECK(out.find("uc-tx-queue") == std::string::npos);  // a session that mixes the two is rejected
}

TEST_CASE("eos traffic-class 7 is mapped only when the profile classifies traffic into priority 7") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  d.qos.dscp_to_priority[56] = 7;
  CHECK(has_line(render_eos(d), "qos map traffic-class 0 1 2 4 5 7 to uc-tx-queue 0"));
  d.qos.dscp_to_priority[56] = 0;
  d.qos.trust = Trust::pcp;  // PCP 7 is priority 7
  CHECK(has_line(render_eos(d), "qos map traffic-class 0 1 2 4 5 7 to uc-tx-queue 0"));
}

TEST_CASE("eos watchdog times are seconds with decimals") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  d.qos.watchdog.detection_ms = 50;
  d.qos.watchdog.restoration_ms = 1110;
  d.qos.watchdog.poll_interval_ms = 1000;
  std::string out = render_eos(d);
  CHECK(has_line(out, "priority-flow-control pause watchdog default timeout 0.05"));
  CHECK(has_line(out, "priority-flow-control pause watchdog default recovery-time 1.11"));
  CHECK(has_line(out, "priority-flow-control pause watchdog default polling-interval 1"));
  d.qos.watchdog.poll_interval_ms = 5;
  out = render_eos(d);
  CHECK(has_line(out, "priority-flow-control pause watchdog default polling-interval 0.005"));
}

TEST_CASE("eos watchdog off and ECN off remove them, globally and on every port and queue") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  d.qos.watchdog.enabled = false;
  d.qos.ecn_enabled = false;
  d.qos.ecn.clear();
  std::string out = render_eos(d);
  check_shape(out);
  CHECK(has_line(out, "no priority-flow-control pause watchdog default timeout"));
  CHECK(has_line(out, "no priority-flow-control pause watchdog default recovery-time"));
  CHECK(has_line(out, "no priority-flow-control pause watchdog default polling-interval"));
  CHECK(has_line(out, "   no priority-flow-control pause watchdog"));
  CHECK_FALSE(has_line(out, "   priority-flow-control pause watchdog"));
  CHECK(has_line(out, "no priority-flow-control pause watchdog action"));
  CHECK(out.find("watchdog action drop") == std::string::npos);
  size_t ecn_off = 0;
  for (const std::string& l : lines_of(out)) {
    CHECK(l.find("random-detect ecn minimum-threshold ") == std::string::npos);  // no thresholds anywhere
    ecn_off += l == "      no random-detect ecn minimum-threshold" ? 1 : 0;
  }
  CHECK(ecn_off == 8);
  // Scheduling and PFC stay.
  CHECK(has_line(out, "   priority-flow-control priority 3 no-drop"));
  const std::string q3 =
      "   uc-tx-queue 3\n      no priority\n      bandwidth percent 50\n"
      "      no random-detect ecn minimum-threshold\n   !\n   uc-tx-queue 4\n";
  CHECK_MESSAGE(out.find(q3) != std::string::npos, out);
}

TEST_CASE("eos without lossless priorities turns PFC off, removes every no-drop priority and the watchdog") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  d.qos.lossless.fill(false);
  std::string out = render_eos(d);
  check_shape(out);
  CHECK(has_line(out, "   no priority-flow-control"));
  for (int p = 0; p < 8; ++p) {
    CAPTURE(p);
    CHECK(has_line(out, "   no priority-flow-control priority " + std::to_string(p) + " no-drop"));
    CHECK_FALSE(has_line(out, "   priority-flow-control priority " + std::to_string(p) + " no-drop"));
  }
  CHECK(has_line(out, "   no priority-flow-control pause watchdog"));
  CHECK(has_line(out, "no priority-flow-control pause watchdog default timeout"));
}

TEST_CASE("eos pcp trust writes qos trust cos and an identity cos map") {
  auto d = test::example_switch(Platform::eos, {"Ethernet1/1"});
  d.qos.trust = Trust::pcp;
  std::string out = render_eos(d);
  check_shape(out);
  CHECK(has_line(out, "   qos trust cos"));
  CHECK(has_line(out, "qos map cos 0 to traffic-class 0"));
  CHECK(has_line(out, "qos map cos 1 to traffic-class 1"));
  CHECK(has_line(out, "qos map cos 7 to traffic-class 7"));
}

TEST_CASE("eos interfaces come in natural port order") {
  auto d = test::example_switch(Platform::eos, {"Ethernet10/1", "Ethernet2/1", "Ethernet1/1"});
  std::string out = render_eos(d);
  long e1 = line_index(out, "interface Ethernet1/1");
  long e2 = line_index(out, "interface Ethernet2/1");
  long e10 = line_index(out, "interface Ethernet10/1");
  REQUIRE(e1 >= 0);
  REQUIRE(e2 >= 0);
  REQUIRE(e10 >= 0);
  CHECK(e1 < e2);
  CHECK(e2 < e10);
}

TEST_CASE("eos session.cfg is exactly the hand-written session, whatever the order of the ports") {
  // Written by hand from docs/profiles.md ("How keys are rendered per platform") for the roce-lossless
  // intent, not copied from a render: every DSCP mapped (grouped per priority), priority p is EOS
  // traffic-class p, each queue's traffic classes in one list (traffic-class 7 left to EOS), ETS shares on
  // uc-tx-queues (the default chip, Tomahawk), ECN in bytes on the instantaneous queue (weight 0),
  // watchdog times in seconds. The ports come in reverse; the session lists them in natural order.
  const std::string want =
      "! fabricctl: leaf1 profile roce-lossless\n"
      "!\n"
      "qos map dscp 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 27 28 29 30 31 32 33 34 "
      "35 36 37 38 39 40 41 42 43 44 45 46 47 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 to traffic-class 0\n"
      "qos map dscp 26 to traffic-class 3\n"
      "qos map dscp 48 to traffic-class 6\n"
      "qos map traffic-class 0 1 2 4 5 to uc-tx-queue 0\n"
      "qos map traffic-class 3 to uc-tx-queue 3\n"
      "qos map traffic-class 6 to uc-tx-queue 6\n"
      "!\n"
      "priority-flow-control pause watchdog default timeout 0.2\n"
      "priority-flow-control pause watchdog default recovery-time 0.2\n"
      "priority-flow-control pause watchdog default polling-interval 0.1\n"
      "priority-flow-control pause watchdog action drop\n"
      "!\n" +
      roce_lossless_interface("Ethernet1/1") + roce_lossless_interface("Ethernet2/1");
  CHECK(render_eos(test::example_switch(Platform::eos, {"Ethernet2/1", "Ethernet1/1"})) == want);
}
