// The NVUE transaction against its real consumer: SshSession to a real sshd whose ForceCommand is the
// NVUE emulator (tests/lab/emulators/nvue.py) in front of a factory-default switch. Stage, collect with
// the collector's own commands, then confirm, roll back, or let NVUE's revert timer expire.
#include <doctest/doctest.h>

#include <fstream>

#include "emulated_switch.h"
#include "fixtures.h"
#include "platform/platform.h"
#include "temp_dir.h"
#include "transport/ssh_session.h"
#include "util/subprocess.h"

using namespace fabricctl;

namespace {

/// A factory-default NVUE switch with ports swp1 and swp2, behind sshd; the session to it.
struct Switch : test::EmulatedSwitch {
  Switch()
      : EmulatedSwitch(Platform::nvue, "nvue.py", {"swp1", "swp2"},
                       R"({"swp1": {"speed": "400G", "oper": "up"}, "swp2": {"speed": "400G"}})") {
    // NVIDIA's RoCE mode with its documented adjustments: a change of about ten lines (an explicit
    // profile's is about 120, one SSH command each).
    device.qos.ecn = {{0, 150000, 1500000, 100}, {3, 150000, 1500000, 100}};  // fidelity_support.h intent_variants()
  }
};

using test::id_with_timer;

}  // namespace

TEST_CASE("nvue transaction: stage makes the change running, rollback restores the factory configuration") {
  Switch sw;
  sw.device = test::example_switch(Platform::nvue, {"swp1", "swp2"});  // an explicit profile: every line
  if (!sw.up()) return;
  CHECK(sw.mtu("swp1") == 9216);
  const NativeChange c = sw.change();
  REQUIRE_FALSE(c.empty());
  CHECK(c.text.find("nv set qos roce") == std::string::npos);
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(60));
  CHECK(sw.run(steps.stage) == "");
  CHECK(sw.mtu("swp1") == 9100);
  CHECK(sw.change().empty());  // collection reads the running (applied) configuration
  CHECK(sw.file("startup.json").find("9100") == std::string::npos);  // a trial is not saved
  CHECK(sw.run(steps.rollback) == "");
  CHECK(sw.mtu("swp1") == 9216);
  CHECK(sw.change().text == c.text);
  CHECK_FALSE(std::filesystem::exists(sw.state() / "confirm.json"));
}

TEST_CASE("nvue transaction: unconfirmed, NVUE's timer reverts by itself; confirmed, the change stays and is saved") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  REQUIRE(c.text.find("nv set qos roce mode lossless\n") == 0);
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(300));
  CHECK(sw.run(steps.stage) == "");
  CHECK(sw.mtu("swp1") == 9100);
  CHECK(sw.timer_armed());
  sw.fire_timers();  // nobody confirms: fabricctl was killed, the window passed
  CHECK(sw.mtu("swp1") == 9216);
  CHECK(sw.change().text == c.text);

  CHECK(sw.run(steps.stage) == "");
  // What verify will read: the device's intent, through the collector's own parsing.
  const auto seen = adapter(Platform::nvue).collector.observe("leaf1", sw.collect());
  REQUIRE_MESSAGE(seen, seen.error());
  REQUIRE(seen->ports.size() == 2);
  for (const PortObserved& p : seen->ports) {
    CHECK(p.mtu == 9100);
    CHECK(p.trust == sw.device.qos.trust);
    CHECK(p.lossless == sw.device.qos.lossless);
    CHECK(p.dscp_to_priority == sw.device.qos.dscp_to_priority);
    CHECK(p.watchdog->enabled);
  }
  CHECK(sw.run(steps.confirm) == "");
  CHECK_FALSE(sw.timer_armed());
  sw.fire_timers();  // the window passes: nothing is left to revert
  CHECK(sw.mtu("swp1") == 9100);
  CHECK(sw.change().empty());
  CHECK(sw.file("startup.json").find("9100") != std::string::npos);
}

TEST_CASE("nvue transaction: a failing step is named; rollback after a partial stage leaves the switch as it was") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(60));
  test::spit(
      sw.state() / "answers.json",
      R"({"nv set interface swp2 link mtu 9100": {"stderr": "Error: Could not connect to nvued.\n", "exit": 1}})");
  // The lines go in one command (`&&`, transactions-nvue.md): the message names the batch, and the line
  // in it NVUE refused, by the marks the emulated bash printed for the lines before.
  CHECK(sw.run(steps.stage) ==
        "stage `nv set qos roce mode lossless` and the 10 lines after it: refused at `nv set interface swp2 link mtu "
        "9100` (line 10 of 11): exited with status 1: Error: Could not connect to nvued.");
  CHECK(sw.run(steps.rollback) == "");
  CHECK(sw.mtu("swp1") == 9216);
  CHECK(sw.file("pending.json").find("9100") == std::string::npos);  // what was staged is set aside
  std::filesystem::remove(sw.state() / "answers.json");
  CHECK(sw.change().text == c.text);

  // A value NVUE refuses (MTU range 552-9216) fails at `nv set`, as NVUE checks it there.
  NativeChange bad;
  bad.text = bad.payload = "nv set interface swp1 link mtu 99999\n";
  const TransactionSteps b = sw.applier.steps(sw.device, bad, id_with_timer(60));
  const std::string why = sw.run(b.stage);
  CHECK(why.find("stage `nv set interface swp1 link mtu 99999`: exited with status 1: Error:") == 0);
  CHECK(why.find("552 - 9216") != std::string::npos);
  CHECK(sw.run(b.rollback) == "");
  CHECK(sw.mtu("swp1") == 9216);
}

TEST_CASE("nvue transaction: a trial in flight refuses the next one at check and at its lock; never rejected by it") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps a = sw.applier.steps(sw.device, c, id_with_timer(300, "aaaaaa"));
  CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");
  CHECK(sw.run(a.stage) == "");
  CHECK(sw.mtu("swp1") == 9100);
  // B was planned before A staged: its check, run now, names A's trial.
  const TransactionSteps b = sw.applier.steps(sw.device, c, id_with_timer(300, "bbbbbb"));
  const std::string refused = sw.run(sw.applier.check(sw.device, c, {}));
  CHECK(
      refused.starts_with("a configuration apply is in flight on the switch: revision 1 (state confirm, message "
                          "\"fabricctl-20261203T120000-aaaaaa\")"));
  // B passed its check before A staged: its lock stops it before its apply, and its release only drops
  // its pending revision.
  CHECK(sw.run(b.stage).starts_with("another configuration apply is in flight on the switch: revision 1 "));
  CHECK(sw.run(b.release) == "");
  CHECK(sw.timer_armed());
  CHECK(sw.mtu("swp1") == 9100);
  // B's rollback (a failure after its apply, say) does not reject A's trial.
  CHECK(sw.run(b.rollback).starts_with("not rejected: the trial awaiting confirmation is revision 1 "));
  CHECK(sw.timer_armed());
  CHECK(sw.mtu("swp1") == 9100);
  // A's own rollback does.
  CHECK(sw.run(a.rollback) == "");
  CHECK(sw.mtu("swp1") == 9216);
  CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");  // rolled back: nothing in flight
}
