// The Junos write side: the difference from configurations shaped as `display set` prints them, the
// NETCONF replies judged (real ones from PyEZ's tests), and the transaction against the emulator behind
// a real sshd (check, stage, confirm, rollback, the confirmed commit's timer firing by itself, a second
// transaction refused while one is pending).
#include <doctest/doctest.h>

#include "emulated_switch.h"
#include "fixtures.h"
#include "platform/junos/change.h"
#include "platform/junos/config.h"
#include "platform/junos/netconf.h"
#include "platform/platform.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

DeviceDesired leaf() { return test::example_switch(Platform::junos, {"et-0/0/0", "et-0/0/1"}); }

RawOutputs raw(const std::string& configuration) { return {{"configuration.txt", configuration}}; }

/// The desired statements as `display set` prints them: one line per leaf, the forwarding class
/// one-liner as its leaves (junos.py, UNCONFIRMED), after lines fabricctl does not read.
std::string displayed(const DeviceDesired& d) {
  std::string out = "set system host-name leaf1\nset interfaces et-0/0/0 description gpu01\n";
  for (const std::string& s : junos::desired_statements(d)) {
    const size_t no_loss = s.find(" no-loss pfc-priority ");
    if (no_loss == std::string::npos) {
      out += "set " + s + "\n";
      continue;
    }
    const std::string head = s.substr(0, s.find(" queue-num "));
    out += "set " + s.substr(0, no_loss) + "\nset " + head + " no-loss\nset " + head + " pfc-priority " +
           s.substr(no_loss + 22) + "\n";
  }
  return out + "\n{master:0}\n";
}

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

struct Switch : test::EmulatedSwitch {
  Switch()
      : EmulatedSwitch(Platform::junos, "junos.py", {"et-0/0/0", "et-0/0/1"},
                       R"({"et-0/0/0": {"speed": 400000, "oper": "up"}, "et-0/0/1": {"speed": 400000}})") {}
};

}  // namespace

TEST_CASE("junos apply: a factory switch gets everything, a switch that holds it nothing") {
  const Applier& a = adapter(Platform::junos).applier;
  auto c = a.change(leaf(), raw("set system host-name leaf1\n"));
  REQUIRE_MESSAGE(c, c.error());
  CHECK(test::lines_of(c->text).size() == junos::desired_statements(leaf()).size());
  CHECK(test::has_line(c->text, "set interfaces et-0/0/0 mtu 9114"));  // 9100 + the Ethernet header
  CHECK(test::has_line(c->text,
                       "set class-of-service forwarding-classes class FABRICCTL-TC3 queue-num 3 no-loss "
                       "pfc-priority 3"));
  c = a.change(leaf(), raw(displayed(leaf())));
  REQUIRE_MESSAGE(c, c.error());
  CHECK(c->empty());
  CHECK_FALSE(c->base.empty());
  // The same with lists in brackets and the one-liner in one line: alike.
  std::string bracketed = "set class-of-service drop-profiles FABRICCTL-ECN3-15000K interpolate fill-level [ 1 10 ]\n";
  for (const std::string& s : junos::desired_statements(leaf()))
    if (s.find("fill-level") == std::string::npos) bracketed += "set " + s + "\n";
  c = a.change(leaf(), raw(bracketed));
  REQUIRE(c);
  CHECK(c->empty());
}

TEST_CASE("junos apply: what differs is replaced whole, what the intent lacks deleted, nothing else touched") {
  const Applier& a = adapter(Platform::junos).applier;
  // A port's MTU: the leaf alone, set over the old value.
  auto c = a.change(
      leaf(), raw(replaced(displayed(leaf()), "set interfaces et-0/0/1 mtu 9114", "set interfaces et-0/0/1 mtu 1514")));
  REQUIRE(c);
  CHECK(c->text == "set interfaces et-0/0/1 mtu 9114\n");
  // A scheduler's rate: the scheduler deleted and set again whole.
  c = a.change(leaf(), raw(replaced(displayed(leaf()), "schedulers FABRICCTL-TC3 transmit-rate percent 50",
                                    "schedulers FABRICCTL-TC3 transmit-rate percent 40")));
  REQUIRE(c);
  CHECK(c->text ==
        "delete class-of-service schedulers FABRICCTL-TC3\n"
        "set class-of-service schedulers FABRICCTL-TC3 transmit-rate percent 50\n"
        "set class-of-service schedulers FABRICCTL-TC3 explicit-congestion-notification\n"
        "set class-of-service schedulers FABRICCTL-TC3 drop-profile-map loss-priority any protocol any drop-profile "
        "FABRICCTL-ECN3-15000K\n");
  // An earlier intent's drop profile (another buffer), a site's own scheduler, a port fabricctl does not
  // manage: the first deleted, the others left alone.
  c = a.change(leaf(), raw(displayed(leaf()) +
                           "set class-of-service drop-profiles FABRICCTL-ECN3-20000K interpolate fill-level 5\n"
                           "set class-of-service schedulers SITE-BE transmit-rate percent 10\n"
                           "set class-of-service interfaces et-0/0/9 scheduler-map SITE-SM\n"
                           "set interfaces et-0/0/9 mtu 1514\n"));
  REQUIRE(c);
  CHECK(c->text == "delete class-of-service drop-profiles FABRICCTL-ECN3-20000K\n");
  // No lossless priority: the PFC profile and its bindings deleted. PCP trust: the DSCP classifier's
  // binding deleted (a unit's classifier is a list: a new one is added, not replaced).
  DeviceDesired d = leaf();
  d.qos.lossless.fill(false);
  d.qos.trust = Trust::pcp;
  c = a.change(d, raw(displayed(leaf())));
  REQUIRE(c);
  CHECK(test::has_line(c->text, "delete class-of-service congestion-notification-profile FABRICCTL-CNP"));
  CHECK(test::has_line(c->text, "delete class-of-service interfaces et-0/0/0 congestion-notification-profile"));
  CHECK(test::has_line(c->text, "delete class-of-service interfaces et-0/0/1 unit 0 classifiers dscp"));
  CHECK(test::has_line(c->text, "delete class-of-service classifiers dscp FABRICCTL-DSCP"));
  CHECK(
      test::has_line(c->text, "set class-of-service interfaces et-0/0/1 unit 0 classifiers ieee-802.1 FABRICCTL-PCP"));
  CHECK(test::line_index(c->text, "delete class-of-service classifiers dscp FABRICCTL-DSCP") <
        test::line_index(c->text,
                         "set class-of-service interfaces et-0/0/1 unit 0 classifiers ieee-802.1 FABRICCTL-PCP"));
}

TEST_CASE("junos apply: the site's own classifier kinds stay; what is deactivated is deleted and set again") {
  const Applier& a = adapter(Platform::junos).applier;
  auto c = a.change(
      leaf(), raw(displayed(leaf()) + "set class-of-service interfaces et-0/0/0 unit 0 classifiers dscp-ipv6 SITE6\n"));
  REQUIRE(c);
  CHECK(c->empty());
  c = a.change(leaf(), raw(displayed(leaf()) + "deactivate class-of-service schedulers FABRICCTL-TC3\n"
                                               "deactivate interfaces et-0/0/1 mtu\n"));
  REQUIRE(c);
  CHECK(test::has_line(c->text, "delete class-of-service schedulers FABRICCTL-TC3"));
  CHECK(test::has_line(c->text, "set class-of-service schedulers FABRICCTL-TC3 transmit-rate percent 50"));
  CHECK(test::has_line(c->text, "delete interfaces et-0/0/1 mtu"));
  CHECK(test::has_line(c->text, "set interfaces et-0/0/1 mtu 9114"));
  CHECK(test::line_index(c->text, "delete interfaces et-0/0/1 mtu") <
        test::line_index(c->text, "set interfaces et-0/0/1 mtu 9114"));
}

TEST_CASE("junos apply: the rollback undoes what the change sent, whatever the intent says now") {
  const junos::Statements base = {"interfaces et-0/0/0 mtu 1514",
                                  "class-of-service schedulers FABRICCTL-TC3 transmit-rate percent 40",
                                  "class-of-service schedulers SITE transmit-rate percent 5"};
  const std::vector<std::string> sent = {"delete class-of-service schedulers FABRICCTL-TC3",
                                         "set class-of-service schedulers FABRICCTL-TC3 transmit-rate percent 50",
                                         "set interfaces et-0/0/0 mtu 9114",
                                         "set class-of-service interfaces et-0/0/7 scheduler-map FABRICCTL-SM"};
  CHECK(junos::inverse(base, sent) ==
        std::vector<std::string>{"delete class-of-service schedulers FABRICCTL-TC3", "delete interfaces et-0/0/0 mtu",
                                 "delete class-of-service interfaces et-0/0/7 scheduler-map",
                                 "set interfaces et-0/0/0 mtu 1514",
                                 "set class-of-service schedulers FABRICCTL-TC3 transmit-rate percent 40"});
  // A saved plan's payload edited after review: a line that is not a plain statement is not sent.
  NativeChange c;
  c.text = "set interfaces et-0/0/0 mtu 9114\n";
  c.payload = c.text + "set system login user x class \"super-user\"\nrequest system reboot\n";
  const TransactionSteps t = adapter(Platform::junos).applier.steps(leaf(), c, test::id_with_timer(300));
  CHECK(t.stage.back().input.find("set interfaces et-0/0/0 mtu 9114") != std::string::npos);
  CHECK(t.stage.back().input.find("super-user") == std::string::npos);
  CHECK(t.stage.back().input.find("reboot") == std::string::npos);
}

TEST_CASE("junos apply: bad configuration output is an error, not a change") {
  const Applier& a = adapter(Platform::junos).applier;
  CHECK(a.change(leaf(), {}).error() == "no configuration.txt was collected");
  CHECK(a.change(leaf(), raw("edit class-of-service\n")).error() ==
        "show configuration: not a `set` statement: \"edit class-of-service\"");
  CHECK_FALSE(a.change(leaf(), raw("set system host-name a\n" + std::string(5000, 'x') + "\n")));
  CHECK_FALSE(a.change(leaf(), raw(std::string("set a\0b\n", 8))));
}

TEST_CASE("junos apply: the NETCONF sessions, and how Junos's replies are judged") {
  const Applier& a = adapter(Platform::junos).applier;
  const auto c = a.change(leaf(), raw(""));
  REQUIRE(c);
  const TransactionSteps s = a.steps(leaf(), *c, test::id_with_timer(90));
  // The lock, its own session right before the stage's: no confirmed commit pending. Stopped there, the
  // stage changed nothing, and nothing is undone (a rollback's commit would confirm the pending one).
  REQUIRE(s.stage.size() == 2);
  CHECK(s.lock == 0U);
  CHECK(s.arms == 1);
  CHECK(s.changes == 1);
  CHECK(s.release.empty());
  CHECK(s.stage.front().input.find("<get-commit-revision-information>") != std::string::npos);
  CHECK(s.stage.front().input.find("<load-configuration") == std::string::npos);
  const RemoteStep& stage = s.stage.back();
  CHECK(stage.command == "xml-mode netconf need-trailer");
  // 90 s: Junos's window is whole minutes, rounded up.
  CHECK(stage.input.find("<confirmed/><confirm-timeout>2</confirm-timeout><log>" + test::id_with_timer(90).name +
                         "</log>") != std::string::npos);
  CHECK(stage.input.find("<lock>") < stage.input.find("<load-configuration action=\"set\" format=\"text\">"));
  CHECK(stage.input.ends_with("<close-session/></rpc>]]>]]>\n"));
  CHECK(a.steps(leaf(), NativeChange{}, test::id_with_timer(90)).stage.empty());

  const std::string hello = "<!-- user admin, class super-user -->\n<hello><session-id>7</session-id></hello>]]>]]>\n";
  auto ok = [](int id) { return "<rpc-reply message-id=\"" + std::to_string(id) + "\"><ok/></rpc-reply>]]>]]>\n"; };
  std::string all = hello;
  for (int i = 1; i <= 6; ++i) all += ok(i);
  CHECK(a.failure(stage, {0, all, ""}) == "");
  // A session cut short: fewer replies than RPCs.
  CHECK(a.failure(stage, {0, hello + ok(1) + ok(2), ""}).ends_with("the NETCONF session ended after 2 of 6 replies"));
  CHECK(a.failure(stage, {0, "error: syntax error, expecting <command>: xml-mode\n", ""})
            .ends_with("did not start a NETCONF session: error: syntax error, expecting <command>: xml-mode"));
  // Real error replies (PyEZ's test data): the first error's message, with its bad element.
  const std::string dir = std::string(FABRICCTL_SOURCE_DIR) + "/tests/fixtures/junos/";
  CHECK(a.failure(stage, {0, hello + test::file_text(dir + "rpc-reply-load-configuration-error.pyez-test.xml"), ""})
            .ends_with(": syntax error (bad element: system1)"));
  CHECK(a.failure(stage, {0, hello + test::file_text(dir + "rpc-reply-commit-configuration-error.pyez-test.xml"), ""})
            .ends_with(": interface-range 'axp' is not defined"));
  // A warning is not a failure.
  CHECK(a.failure(stage, {0,
                          all + "<rpc-reply><rpc-error><error-severity>warning</error-severity><error-message>"
                                "statement not found</error-message></rpc-error></rpc-reply>]]>]]>",
                          ""}) == "");
  CHECK(junos::rpc_errors("<rpc-error><error-message>a &lt;b&gt; &amp; \x1b[31m</error-message></rpc-error>") ==
        std::vector<std::string>{"a <b> & \\x1b[31m"});
}

TEST_CASE("junos transaction: stage, then confirm keeps it; a rollback or the commit timer takes it back") {
  Switch sw;
  if (!sw.up()) return;
  CHECK(sw.mtu("et-0/0/0") == 1500);
  const NativeChange c = sw.change();
  REQUIRE_FALSE(c.empty());
  const TransactionSteps t = sw.applier.steps(sw.device, c, test::id_with_timer(300));
  CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");
  CHECK(sw.change().text == c.text);  // the dry run left nothing behind
  CHECK(sw.run(t.stage) == "");
  CHECK(sw.mtu("et-0/0/0") == 9100);
  CHECK(sw.timer_armed());
  CHECK(sw.change().empty());
  // A second transaction is refused before it sends anything while this one's commit is pending.
  CHECK(sw.run(sw.applier.check(sw.device, c, {})).starts_with("a confirmed commit is pending on the switch"));
  // The window extended (the step's slowest stage kept this switch waiting): still pending, then kept.
  REQUIRE(t.extend.size() == 2);  // the pending commit proved in a session of its own, then extended
  CHECK(sw.run(t.extend) == "");
  CHECK(sw.timer_armed());
  CHECK(sw.mtu("et-0/0/0") == 9100);
  CHECK(sw.run(t.confirm) == "");
  CHECK_FALSE(sw.timer_armed());
  CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");

  // On a factory switch: the timer fires by itself as if fabricctl had died after stage.
  Switch again;
  if (!again.up()) return;
  const NativeChange c2 = again.change();
  const TransactionSteps u = again.applier.steps(again.device, c2, test::id_with_timer(300, "bbbbbb"));
  CHECK(again.run(u.stage) == "");
  again.fire_timers();
  CHECK(again.mtu("et-0/0/0") == 1500);
  CHECK(again.change().text == c2.text);
  // A confirm, or an extend, after the window: refused, nothing kept.
  CHECK(
      again.run(u.confirm).ends_with("its rollback has run already (the confirm window ended), so the change is "
                                     "not there to keep"));
  CHECK(again.run(u.extend).ends_with("so the change is not there to keep"));
  // ... and the refused extend armed no confirmed commit of its own: the next stage's lock finds none.
  CHECK(again.mtu("et-0/0/0") == 1500);
  // And an explicit rollback, back to exactly the statements before.
  const TransactionSteps v = again.applier.steps(again.device, c2, test::id_with_timer(300, "cccccc"));
  CHECK(again.run(v.stage) == "");
  CHECK(again.run(v.rollback) == "");
  CHECK(again.mtu("et-0/0/0") == 1500);
  CHECK(again.change().text == c2.text);
}

TEST_CASE("junos transaction: another user's uncommitted edits refuse the check before anything is loaded") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  // Another session loads a statement and leaves without committing: the shared candidate is modified.
  const std::string edit = junos::netconf_session(
      {"<load-configuration action=\"set\" format=\"text\"><configuration-set>set interfaces et-0/0/1 mtu "
       "1600</configuration-set></load-configuration>"});
  auto out = sw.session->run("xml-mode netconf need-trailer", edit);
  REQUIRE(out);
  CHECK(sw.run(sw.applier.check(sw.device, c, {})).starts_with("open a private copy of the configuration"));
  // The check loaded nothing into the shared candidate: when the other user commits it, only their edit
  // goes in.
  out = sw.session->run("xml-mode netconf need-trailer", junos::netconf_session({"<commit-configuration/>"}));
  REQUIRE(out);
  CHECK(sw.mtu("et-0/0/1") == 1586);
  CHECK(sw.mtu("et-0/0/0") == 1500);
}

TEST_CASE("junos transaction: a statement Junos refuses fails the dry run with nothing changed") {
  Switch sw;
  if (!sw.up()) return;
  NativeChange c = sw.change();
  c.payload =
      "set interfaces et-0/0/0 mtu 9114\nset class-of-service forwarding-classes class FABRICCTL-TC3 "
      "queue-num 3 no-loss pfc-priority 9\n";
  CHECK(sw.run(sw.applier.check(sw.device, c, {})) ==
        "judge the change with commit check on a private copy: value 9 is not within range (0..7) (bad element: 9)");
  CHECK(sw.mtu("et-0/0/0") == 1500);
  // A watchdog without the output stanza: loaded, then refused by the commit check.
  c.payload = "set class-of-service congestion-notification-profile FABRICCTL-CNP pfc-watchdog detection 2\n";
  CHECK(sw.run(sw.applier.check(sw.device, c, {}))
            .ends_with(": pfc-watchdog configurations mandate output config (bad element: pfc-watchdog)"));
  const TransactionSteps t = sw.applier.steps(sw.device, c, test::id_with_timer(300));
  CHECK(sw.run(t.stage).ends_with(": pfc-watchdog configurations mandate output config (bad element: pfc-watchdog)"));
  CHECK_FALSE(sw.timer_armed());
  CHECK(sw.run(t.rollback) == "");
  CHECK(sw.mtu("et-0/0/0") == 1500);
}
