// The EOS write side on running-configs shaped like EOS prints them: a factory-default switch gets the
// whole session, a switch that holds it gets nothing (whatever EOS's block order and spacing), one
// setting off gets that one line; bad output is an error. The transaction's shape and its judgments.
#include <doctest/doctest.h>

#include "fidelity_support.h"
#include "fixtures.h"
#include "platform/eos/session_lines.h"
#include "platform/eos/test_support.h"
#include "platform/platform.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf() { return test::example_switch(Platform::eos, {"Ethernet1", "Ethernet2"}); }

/// A factory-default EOS switch with these ports: an empty block per port, nothing else it reads.
std::string factory(const std::vector<std::string>& ports) {
  std::string out = "! Command: show running-config\n!\nhostname leaf1\n!\n";
  for (const std::string& p : ports) out += "interface " + p + "\n!\n";
  return out + "management api http-commands\n   no shutdown\n!\nend\n";
}

RawOutputs raw(const std::string& running) { return {{"running-config.txt", running}}; }

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("eos apply: session_text() is what session.cfg.mustache renders, for every intent variant") {
  for (const auto& variant : test::intent_variants()) {
    CAPTURE(variant.first);
    DeviceDesired d = leaf();
    variant.second(d);
    CHECK(eos::session_text(d) == test::render_template_of("eos/session.cfg.mustache", eos_context(d)));
  }
  DeviceDesired voq = leaf();
  voq.hardware.voq = true;
  voq.qos.trust = Trust::pcp;
  CHECK(eos::session_text(voq) == test::render_template_of("eos/session.cfg.mustache", eos_context(voq)));
}

TEST_CASE("eos apply: a factory-default switch gets the session's settings, under their blocks") {
  const Applier a = eos_applier();
  auto c = a.change(leaf(), raw(factory({"Ethernet1", "Ethernet2"})));
  REQUIRE_MESSAGE(c, c.error());
  const auto lines = test::lines_of(c->text);
  // Only the DSCPs whose default traffic-class differs: DSCP 0-7 default to 1, 8-15 to 0, 26 to 3, ...
  CHECK(lines.front().rfind("qos map dscp 0 1 2 3 4 5 6 7 16 17", 0) == 0);
  CHECK(lines.front().find(" 24 25 27 ") != std::string::npos);  // 26 is COS 3's: traffic-class 3 already
  CHECK(c->text.find("to traffic-class 3") == std::string::npos);
  CHECK(c->text.find("to traffic-class 6") == std::string::npos);  // DSCP 48 is COS 6's: 6 already
  CHECK(test::has_line(c->text, "priority-flow-control pause watchdog default timeout 0.2"));
  // The action drop is EOS's default: not sent.
  CHECK_FALSE(test::has_line(c->text, "priority-flow-control pause watchdog action drop"));
  CHECK(test::has_line(c->text, "interface Ethernet2"));
  CHECK(test::has_line(c->text, "   mtu 9100"));
  CHECK(test::has_line(c->text, "   priority-flow-control priority 3 no-drop"));
  CHECK(test::has_line(c->text,
                       "      random-detect ecn minimum-threshold 153600 bytes maximum-threshold 1536000 "
                       "bytes max-mark-probability 20 weight 0"));
  // Removals of what a factory switch does not have, and defaults it has, are not sent.
  CHECK_FALSE(test::has_line(c->text, "   no priority-flow-control priority 0 no-drop"));
  CHECK_FALSE(test::has_line(c->text, "   priority-flow-control pause watchdog"));
  CHECK_FALSE(test::has_line(c->text, "      priority strict"));
  CHECK_FALSE(test::has_line(c->text, "      no random-detect ecn minimum-threshold"));
  CHECK(c->payload == c->text);
  CHECK(c->text.back() == '\n');
  // Queue 6 is strict without ECN on a factory switch: no block for it.
  CHECK_FALSE(test::has_line(c->text, "   uc-tx-queue 6"));
  CHECK(test::has_line(c->text, "   uc-tx-queue 3"));
}

TEST_CASE("eos apply: a switch that holds the session gets nothing, in any block order and spacing") {
  const Applier a = eos_applier();
  const DeviceDesired d = leaf();
  const std::string running = test::as_eos_prints(eos::session_text(d));
  auto c = a.change(d, raw(running));
  REQUIRE_MESSAGE(c, c.error());
  CHECK_MESSAGE(c->empty(), c->text);
  // The same configuration as another release prints it: Ethernet2 first, the watchdog before the maps,
  // doubled spaces, CRLF.
  std::string moved = running;
  const size_t e1 = moved.find("interface Ethernet1"), e2 = moved.find("interface Ethernet2");
  const size_t end = moved.find("end\n");
  const std::string block1 = moved.substr(e1, e2 - e1), block2 = moved.substr(e2, end - e2);
  moved = moved.substr(0, e1) + block2 + block1 + "end\n";
  moved = replaced(moved, "   mtu 9100", "   mtu  9100\r");
  auto again = a.change(d, raw(moved));
  REQUIRE_MESSAGE(again, again.error());
  CHECK_MESSAGE(again->empty(), again->text);
  CHECK(again->base == c->base);  // the same configuration, the same base
  // A block printed in two parts is one block.
  auto split =
      a.change(d, raw(replaced(running, "   qos trust dscp\n", "!\ninterface Ethernet1\n   qos trust dscp\n")));
  REQUIRE_MESSAGE(split, split.error());
  CHECK_MESSAGE(split->empty(), split->text);
}

TEST_CASE("eos apply: one setting off gets only that setting's line") {
  const Applier a = eos_applier();
  const DeviceDesired d = leaf();
  const std::string running = test::as_eos_prints(eos::session_text(d));
  auto mtu =
      a.change(d, raw(replaced(running, "interface Ethernet2\n   mtu 9100", "interface Ethernet2\n   mtu 1500")));
  REQUIRE_MESSAGE(mtu, mtu.error());
  CHECK(mtu->text == "interface Ethernet2\n   mtu 9100\n!\n");

  auto pfc = a.change(d, raw(replaced(running, "   priority-flow-control priority 3 no-drop\n",
                                      "   priority-flow-control priority 3 no-drop\n"
                                      "   priority-flow-control priority 4 no-drop\n")));
  REQUIRE_MESSAGE(pfc, pfc.error());
  CHECK(pfc->text == "interface Ethernet1\n   no priority-flow-control priority 4 no-drop\n!\n");

  auto dscp = a.change(d, raw(replaced(running, "qos map dscp 26 to", "qos map dscp 26 27 to")));
  REQUIRE_MESSAGE(dscp, dscp.error());
  CHECK(dscp->text == "qos map dscp 27 to traffic-class 0\n!\n");

  auto timer = a.change(d, raw(replaced(running, "default timeout 0.2", "default timeout 0.5")));
  REQUIRE_MESSAGE(timer, timer.error());
  CHECK(timer->text == "priority-flow-control pause watchdog default timeout 0.2\n!\n");
  CHECK(timer->base != a.change(d, raw(running))->base);

  auto wd = a.change(d, raw(replaced(running, "interface Ethernet1\n",
                                     "interface Ethernet1\n   no priority-flow-control pause watchdog\n")));
  REQUIRE_MESSAGE(wd, wd.error());
  CHECK(wd->text == "interface Ethernet1\n   priority-flow-control pause watchdog\n!\n");

  auto ecn = a.change(d, raw(replaced(running, "   uc-tx-queue 0\n",
                                      "   uc-tx-queue 0\n      random-detect ecn "
                                      "minimum-threshold 1 kbytes maximum-threshold 2 "
                                      "kbytes\n")));
  REQUIRE_MESSAGE(ecn, ecn.error());
  CHECK(ecn->text == "interface Ethernet1\n   !\n   uc-tx-queue 0\n      no random-detect ecn minimum-threshold\n!\n");
}

TEST_CASE("eos apply: the base is the kept configuration, canonical: no comments, secrets or order") {
  const Applier a = eos_applier();
  const DeviceDesired d = leaf();
  const std::string running = test::as_eos_prints(eos::session_text(d));
  auto c = a.change(d, raw("! Time: Thu Dec  3 10:00:00 2026\nusername admin secret sha512 $6$x\n" + running));
  REQUIRE_MESSAGE(c, c.error());
  CHECK(c->base == a.change(d, raw(running))->base);
  CHECK(c->base.find("secret") == std::string::npos);
  CHECK(c->base.find('!') == std::string::npos);
  CHECK(test::has_line(c->base, "interface Ethernet1"));
}

TEST_CASE("eos apply: output that is not a running-config is an error, not a change") {
  const Applier a = eos_applier();
  const DeviceDesired d = leaf();
  CHECK(a.change(d, {}).error() == "no running-config.txt was collected");
  CHECK(a.change(d, raw("interface Ethernet1\n   mtu 9100\n")).error().find("no `end` line") != std::string::npos);
  CHECK_FALSE(a.change(d, raw(std::string("qos map dscp 99 to traffic-class 3\nend\n"))));
  CHECK_FALSE(a.change(d, raw(std::string("interface Ethernet1\n\0\nend\n", 26))));
  CHECK_FALSE(a.change(d, raw(std::string(40 << 20, 'x'))));
}

TEST_CASE("eos apply: the transaction: lines into a named session, the commit timer in stage") {
  const Applier a = eos_applier();
  const DeviceDesired d = leaf();
  auto c = a.change(d, raw(factory({"Ethernet1"})));
  REQUIRE(c);
  TransactionId id{"fabricctl-20261203T101500-a1b2c3", 300, "fabricctl"};
  const TransactionSteps s = a.steps(d, *c, id);
  REQUIRE(s.stage.size() == 4);
  CHECK(s.stage[0].command == "configure session fabricctl-20261203T101500-a1b2c3\n" + c->payload + "end");
  CHECK(s.stage[0].input.empty());
  CHECK(s.stage[1].command == "show session-config named fabricctl-20261203T101500-a1b2c3 diffs");
  // The lock right before the commit; the commit the first step that changes what runs.
  CHECK(s.stage[2].command == "show configuration sessions detail | json");
  CHECK(s.lock == 2);
  CHECK(s.stage[3].command == "configure session fabricctl-20261203T101500-a1b2c3 commit timer 00:05:00");
  CHECK(s.arms == 3);
  CHECK(s.changes == 3);
  REQUIRE(s.release.size() == 1);
  CHECK(s.release[0].command == "configure session fabricctl-20261203T101500-a1b2c3 abort");
  REQUIRE(s.confirm.size() == 2);
  CHECK(s.confirm[0].command == "configure session fabricctl-20261203T101500-a1b2c3 commit");
  CHECK(s.confirm[1].command == "copy running-config startup-config");
  REQUIRE(s.rollback.size() == 1);
  CHECK(s.rollback[0].command == "configure session fabricctl-20261203T101500-a1b2c3 abort");
  id.confirm_timeout_s = 3725;
  CHECK(a.steps(d, *c, id).stage[3].command.ends_with(" commit timer 01:02:05"));
  id.confirm_timeout_s = 0;
  CHECK(a.steps(d, *c, id).stage[3].command.ends_with(" commit timer 00:00:01"));
  id.name = "x; reload now";  // never a name that is more than a name
  CHECK(a.steps(d, *c, id).rollback[0].command == "configure session invalid-session-name abort");
  CHECK(a.steps(d, NativeChange{}, id).stage.empty());
}

TEST_CASE("eos apply: a line EOS's CLI could read as more than settings is never sent") {
  // The model refuses such names long before; the applier refuses them again (EOS has no quoting).
  for (const std::string port : {"Ethernet1;reload", "Ethernet1|bash", "Ethernet1 $(reboot)"}) {
    CAPTURE(port);
    auto c = eos_applier().change(test::example_switch(Platform::eos, {port}), raw(factory({"Ethernet2"})));
    REQUIRE_FALSE(c);
    CHECK(c.error().starts_with("a line that cannot be sent to EOS: interface Ethernet1"));
  }
}

TEST_CASE("eos apply: failure() reads EOS's % lines whatever the exit status") {
  const Applier a = eos_applier();
  const RemoteStep step{"stage the change", "configure session x", ""};
  CHECK(a.failure(step, {0, "", ""}).empty());
  CHECK(a.failure(step, {0, "--- system:/running-config\n+++ session:/x\n+   mtu 9100\n", ""}).empty());
  CHECK(a.failure(step, {0, "% Invalid input (at token 1: '99999')\n", ""}) ==
        "stage the change: % Invalid input (at token 1: '99999')");
  CHECK(a.failure(step, {0, "", "% Incomplete command\n"}) == "stage the change: % Incomplete command");
  CHECK(a.failure(step, {1, "", "% Error: session not found\n"}) ==
        "stage the change: exited with status 1: % Error: session not found");
  const std::string r = a.failure(step, {0, "% Invalid \x1b[31minput\n", ""});
  CHECK(r.find('\x1b') == std::string::npos);
}
