// The NX-OS write side: the difference from running-configs shaped as NX-OS prints them, and the
// transaction against the emulator behind a real sshd (stage, confirm, rollback, the revert firing by
// itself, a second transaction refused while one is armed).
#include <doctest/doctest.h>

#include "emulated_switch.h"
#include "fixtures.h"
#include "platform/nxos/change.h"
#include "platform/nxos/config.h"
#include "platform/platform.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf() { return test::example_switch(Platform::nxos, {"Ethernet1/1", "Ethernet1/2"}); }

RawOutputs raw(const std::string& running) { return {{"running-config.txt", running}}; }

/// A factory-default switch: an empty block per port, and lines fabricctl does not read.
std::string factory() {
  return "!Command: show running-config\nversion 10.3(2)\nhostname leaf1\nfeature lldp\n\n"
         "interface Ethernet1/1\n\ninterface Ethernet1/2\n";
}

std::string desired_text() { return nxos::config_text(nxos::desired_config(leaf())); }

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

struct Switch : test::EmulatedSwitch {
  Switch()
      : EmulatedSwitch(Platform::nxos, "nxos.py", {"Ethernet1/1", "Ethernet1/2"},
                       R"({"Ethernet1/1": {"speed": 400000, "oper": "up"}, "Ethernet1/2": {"speed": 400000}})") {}
};

}  // namespace

TEST_CASE("nxos apply: a factory switch gets everything, a switch that holds it nothing") {
  const Applier& a = adapter(Platform::nxos).applier;
  auto c = a.change(leaf(), raw(factory()));
  REQUIRE_MESSAGE(c, c.error());
  CHECK(c->text == desired_text());  // the ports' MTU 9100 too: not NX-OS's default
  CHECK(c->payload.starts_with("configure terminal ; priority-flow-control watch-dog-interval on ; "));
  CHECK(c->payload.find(" ; class-map type qos match-any FABRICCTL-TC3 ; match dscp 26 ; exit ; ") !=
        std::string::npos);
  CHECK(c->payload.ends_with(" ; service-policy type qos input FABRICCTL-QOS ; exit ; end"));

  // Running printed in another order, with NX-OS's comment lines: the same configuration.
  c = a.change(leaf(), raw("!Command: show running-config\nversion 10.3(2) \n" + desired_text()));
  REQUIRE_MESSAGE(c, c.error());
  CHECK(c->empty());
  CHECK(c->payload.empty());
  CHECK_FALSE(c->base.empty());
}

TEST_CASE("nxos apply: one setting off gets its line; an earlier intent's lines are removed") {
  const Applier& a = adapter(Platform::nxos).applier;
  // A port's MTU: its block and the one line.
  auto c = a.change(leaf(), raw(replaced(desired_text(), "interface Ethernet1/2\n  mtu 9100\n",
                                         "interface Ethernet1/2\n  mtu 1500\n")));
  REQUIRE(c);
  CHECK(c->text == "interface Ethernet1/2\n  mtu 9100\n");
  // A queue's bandwidth: the new value replaces the old one, no `no` line.
  const std::string q3 = "  class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n";
  c = a.change(leaf(), raw(replaced(desired_text(), q3,
                                    "  class type queuing c-out-8q-q3\n    bandwidth remaining percent 40\n")));
  REQUIRE(c);
  CHECK(
      c->text ==
      "policy-map type queuing FABRICCTL-OUT\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 50\n");
  // ECN an earlier intent set on queue 4, and a class map it had: removed, the class map last.
  std::string old = replaced(
      desired_text(), "  class type queuing c-out-8q-q4\n    bandwidth remaining percent 0\n",
      "  class type queuing c-out-8q-q4\n    bandwidth remaining percent 0\n"
      "    random-detect minimum-threshold 100 kbytes maximum-threshold 900 kbytes drop-probability 5 weight 0 ecn\n");
  old = replaced(old, "policy-map type qos FABRICCTL-QOS\n",
                 "class-map type qos match-any FABRICCTL-TC5\n  match dscp 40\npolicy-map type qos FABRICCTL-QOS\n"
                 "  class FABRICCTL-TC5\n    set qos-group 5\n");
  c = a.change(leaf(), raw(old));
  REQUIRE(c);
  CHECK(
      c->text ==
      "policy-map type qos FABRICCTL-QOS\n"
      "  no class FABRICCTL-TC5\n"
      "policy-map type queuing FABRICCTL-OUT\n"
      "  class type queuing c-out-8q-q4\n"
      "    no random-detect minimum-threshold 100 kbytes maximum-threshold 900 kbytes drop-probability 5 weight 0 ecn\n"
      "no class-map type qos match-any FABRICCTL-TC5\n");
  // Lines fabricctl does not set, on a port or in a policy that is not its own, are left alone.
  c = a.change(
      leaf(),
      raw(replaced(desired_text(), "interface Ethernet1/1\n", "interface Ethernet1/1\n  description gpu01\n") +
          "policy-map type queuing SITE-OUT\n  class type queuing c-out-8q-q3\n    bandwidth remaining percent 10\n"));
  REQUIRE(c);
  CHECK(c->empty());
}

TEST_CASE("nxos apply: bad running-config output is an error, not a change") {
  const Applier& a = adapter(Platform::nxos).applier;
  CHECK(a.change(leaf(), {}).error() == "no running-config.txt was collected");
  CHECK_FALSE(a.change(leaf(), raw("interface Ethernet1/1\n     mtu 9100\n")));
}

TEST_CASE("nxos apply: the transaction's commands and how NX-OS's answers are judged") {
  const Applier& a = adapter(Platform::nxos).applier;
  const auto c = a.change(leaf(), raw(factory()));
  REQUIRE(c);
  const TransactionSteps s = a.steps(leaf(), *c, test::id_with_timer(120));
  REQUIRE(s.stage.size() == 4);
  const std::string name = test::id_with_timer(120).name;
  CHECK(s.stage[0].command == "terminal dont-ask ; checkpoint " + name);
  CHECK(s.stage[1].command == "configure terminal ; event manager applet " + name +
                                  " ; event timer countdown time 120 ; action 1 cli terminal dont-ask ; action 2 cli "
                                  "rollback running-config checkpoint " +
                                  name + " ; end");
  CHECK(s.stage[2].command == "show running-config eem");  // the lock: this applet the only one
  CHECK(s.changes == 3);
  CHECK(s.stage[3].command == c->payload);
  CHECK(s.release.front().command == "configure terminal ; no event manager applet " + name + " ; end");
  CHECK(s.release.back().command == "no checkpoint " + name);
  CHECK(s.confirm.front().command == "configure terminal ; no event manager applet " + name + " ; end");
  CHECK(s.rollback.front().command == "terminal dont-ask ; rollback running-config checkpoint " + name);
  CHECK(a.steps(leaf(), NativeChange{}, test::id_with_timer(120)).stage.empty());

  const RemoteStep& lock = s.stage[2];
  const std::string ours = "event manager applet " + name + "\n  event timer countdown time 120\n";
  const std::string theirs = "event manager applet fabricctl-20261203T115900-ffffff\n";
  CHECK(a.failure(lock, {0, ours, ""}) == "");
  CHECK(a.failure(lock, {0, theirs + ours, ""}) ==
        "another fabricctl transaction is in flight on the switch (EEM applets fabricctl-20261203T115900-ffffff, " +
            name + "); nothing was changed, and this transaction's applet and checkpoint are removed");
  CHECK(a.failure(lock, {0, "", ""}).ends_with("the applet armed by the step before is not configured"));
  const RemoteStep& send = s.stage[3];
  CHECK(a.failure(send, {0, "", ""}) == "");
  CHECK(a.failure(send, {0, "% Invalid command at '^' marker.\n", ""}) ==
        "send the change in configure terminal: % Invalid command at '^' marker.");
  CHECK(a.failure(send, {0, "ERROR: Checkpoint name is in use\n", ""}).ends_with("ERROR: Checkpoint name is in use"));
  CHECK(a.failure(s.rollback.front(), {0, "Rollback failed.\n", ""}).ends_with("Rollback failed."));
  const RemoteStep eem = a.check(leaf(), *c, {}).at(0);
  CHECK(a.failure(eem, {0, "!Command: show running-config eem\nversion 10.3(2)\n", ""}) == "");
  CHECK(a.failure(eem,
                  {0, "event manager applet fabricctl-20261203T120000-aaaaaa\n  event timer countdown time 300\n", ""})
            .starts_with(
                "a fabricctl revert is still armed on the switch (EEM applet fabricctl-20261203T120000-aaaaaa)"));
}

TEST_CASE("nxos transaction: stage, then confirm keeps it; a rollback or the revert's countdown takes it back") {
  Switch sw;
  if (!sw.up()) return;
  CHECK(sw.mtu("Ethernet1/1") == 1500);
  const NativeChange c = sw.change();
  REQUIRE_FALSE(c.empty());
  const TransactionSteps t = sw.applier.steps(sw.device, c, test::id_with_timer(300));
  CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");
  CHECK(sw.run(t.stage) == "");
  CHECK(sw.mtu("Ethernet1/1") == 9100);
  CHECK(sw.timer_armed());
  CHECK(sw.change().empty());  // running holds the intent
  // A second transaction is refused before it sends anything while this one's revert is armed.
  CHECK(sw.run(sw.applier.check(sw.device, c, {})).starts_with("a fabricctl revert is still armed on the switch"));
  CHECK(sw.run(t.confirm) == "");
  CHECK_FALSE(sw.timer_armed());
  CHECK(sw.mtu("Ethernet1/1") == 9100);
  CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");

  // Back to the factory state, then the revert fires by itself as if fabricctl had died after stage.
  Switch again;
  if (!again.up()) return;
  const TransactionSteps u = again.applier.steps(again.device, again.change(), test::id_with_timer(300, "bbbbbb"));
  CHECK(again.run(u.stage) == "");
  CHECK(again.mtu("Ethernet1/1") == 9100);
  again.fire_timers();
  CHECK(again.mtu("Ethernet1/1") == 1500);
  CHECK_FALSE(again.change().empty());
  // And an explicit rollback.
  const TransactionSteps v = again.applier.steps(again.device, again.change(), test::id_with_timer(300, "cccccc"));
  CHECK(again.run(v.stage) == "");
  CHECK(again.run(v.rollback) == "");
  CHECK(again.mtu("Ethernet1/1") == 1500);
  CHECK_FALSE(again.timer_armed());
}

TEST_CASE("nxos transaction: the switch is locked: a second transaction that passed its check stops unchanged") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps a = sw.applier.steps(sw.device, c, test::id_with_timer(300, "aaaaaa"));
  const TransactionSteps b = sw.applier.steps(sw.device, c, test::id_with_timer(300, "bbbbbb"));
  REQUIRE(sw.run(sw.applier.check(sw.device, c, {})) == "");  // both checked while the switch was idle
  REQUIRE(sw.run(a.stage) == "");
  CHECK(
      sw.run(b.stage).starts_with("another fabricctl transaction is in flight on the switch (EEM applets "
                                  "fabricctl-20261203T120000-aaaaaa, fabricctl-20261203T120000-bbbbbb)"));
  // B's release removes B's applet and checkpoint; A's change and its armed revert stay.
  CHECK(sw.run(b.release) == "");
  CHECK(sw.mtu("Ethernet1/1") == 9100);
  CHECK(sw.run(sw.applier.check(sw.device, c, {})).find("fabricctl-20261203T120000-aaaaaa)") != std::string::npos);
  CHECK(sw.run(sw.applier.check(sw.device, c, {})).find("bbbbbb") == std::string::npos);
  // A's revert still takes back A's change, as armed.
  sw.fire_timers();
  CHECK(sw.mtu("Ethernet1/1") == 1500);
}

TEST_CASE("nxos transaction: a line NX-OS refuses fails the stage, and the rollback restores the checkpoint") {
  Switch sw;
  if (!sw.up()) return;
  NativeChange c = sw.change();
  c.payload =
      "configure terminal ; interface Ethernet1/1 ; mtu 9100 ; exit ; interface Ethernet1/2 ; mtu 9999 ; exit ; end";
  const TransactionSteps t = sw.applier.steps(sw.device, c, test::id_with_timer(300));
  CHECK(sw.run(t.stage) == "send the change in configure terminal: % Invalid command at '^' marker.");
  CHECK(sw.mtu("Ethernet1/1") == 9100);  // NX-OS took the lines before the refused one
  CHECK(sw.run(t.rollback) == "");
  CHECK(sw.mtu("Ethernet1/1") == 1500);
}

TEST_CASE("nxos apply: from one intent to another (the review's cases)") {
  const Applier& a = adapter(Platform::nxos).applier;
  // A port back to NX-OS's default MTU: running prints `mtu 9216`, the intent is 1500, which NX-OS omits.
  DeviceDesired d = leaf();
  d.ports[0].mtu = 1500;
  auto c = a.change(d, raw(desired_text()));
  REQUIRE(c);
  CHECK(c->text == "interface Ethernet1/1\n  mtu 1500\n");
  // A strict queue made ETS: the old scheduling removed first, then the new one.
  d = leaf();
  d.qos.tc[6] = {true, false, 10};
  d.qos.tc[0].bandwidth_pct = 40;
  c = a.change(d, raw(desired_text()));
  REQUIRE(c);
  CHECK(
      c->text.find("  class type queuing c-out-8q-q6\n    no priority level 1\n    bandwidth remaining percent 10\n") !=
      std::string::npos);
  // A class map NX-OS prints with match-all (which Nexus 9000 takes as match-any) is the same class map:
  // not removed, not made again.
  c = a.change(leaf(), raw(replaced(desired_text(), "class-map type qos match-any FABRICCTL-TC3",
                                    "class-map type qos match-all FABRICCTL-TC3")));
  REQUIRE(c);
  CHECK(c->empty());
}
