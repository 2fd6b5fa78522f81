// One commit timer per EOS switch, against the emulator behind a real sshd: a second transaction's check
// reads the first one's timer (in EOS 4.31's shape and in 4.32's) and refuses before anything is sent; a
// second transaction that skipped the check is refused by the switch at `commit timer` and rolls back to
// the first one's configuration.
#include <doctest/doctest.h>

#include "emulated_switch.h"
#include "fidelity_support.h"
#include "fixtures.h"
#include "platform/platform.h"

using namespace fabricctl;

namespace {

struct TimerSwitch : test::EmulatedSwitch {
  TimerSwitch()
      : EmulatedSwitch(Platform::eos, "eos.py", {"Ethernet1", "Ethernet2"},
                       R"({"Ethernet1": {"speed": 400000, "oper": "up"}, "Ethernet2": {"speed": 400000}})") {}
};

using test::id_with_timer;

}  // namespace

TEST_CASE("eos commit timer: a second transaction is refused while the first one's timer runs") {
  for (const std::string release : {"4.30.1F", "4.32.2F"}) {
    CAPTURE(release);
    TimerSwitch sw;
    if (!sw.up()) return;
    test::spit(sw.state() / "release.txt", release);
    const NativeChange c = sw.change();
    const TransactionSteps first = sw.applier.steps(sw.device, c, id_with_timer(300, "aaaaaa"));
    CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");
    CHECK(sw.run(first.stage) == "");
    const TransactionSteps second = sw.applier.steps(sw.device, c, id_with_timer(300, "bbbbbb"));
    const std::string refused = sw.run(sw.applier.check(sw.device, c, {}));
    CHECK(refused.starts_with("configuration session \"" + id_with_timer(300, "aaaaaa").name +
                              "\" holds EOS's commit timer (it expires at 20"));
    CHECK(refused.find("nothing was sent") != std::string::npos);
    CHECK(sw.run(first.confirm) == "");
    CHECK(sw.run(sw.applier.check(sw.device, c, {})) == "");  // confirmed: the timer is gone
  }
}

TEST_CASE("eos commit timer: past the check, the lock refuses a second commit and its release keeps the first") {
  TimerSwitch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps first = sw.applier.steps(sw.device, c, id_with_timer(300, "aaaaaa"));
  CHECK(sw.run(first.stage) == "");
  CHECK(sw.mtu("Ethernet1") == 9100);
  NativeChange other = c;
  other.payload = "interface Ethernet1\n   mtu 9000\n!\n";
  const TransactionSteps second = sw.applier.steps(sw.device, other, id_with_timer(300, "bbbbbb"));
  CHECK(sw.run(second.stage)
            .starts_with("configuration session \"fabricctl-20261203T120000-aaaaaa\" holds EOS's "
                         "commit timer"));
  // Without the lock, the switch itself refuses the second timer (eos_sessions.py, UNCONFIRMED wording).
  const std::string refused = sw.run({second.stage[0], second.stage.back()});
  CHECK(refused.starts_with("commit with EOS's commit timer armed for 00:05:00: "));
  CHECK(refused.find(": % Cannot commit session fabricctl-20261203T120000-bbbbbb") != std::string::npos);
  CHECK(sw.run(second.release) == "");  // its session was never committed: aborted
  CHECK(sw.mtu("Ethernet1") == 9100);   // the first transaction's trial stands
  CHECK(sw.timer_armed());
  CHECK(sw.run(first.rollback) == "");
  CHECK(sw.mtu("Ethernet1") == 1500);
}

TEST_CASE("eos commit timer: two applies prepared at once both stop at their lock; neither commits") {
  // Both passed their check while the switch was idle, and both sessions are pending when each takes its
  // lock: each sees the other's and stops (napalm's lock: another pending session). Never both go on.
  TimerSwitch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps a = sw.applier.steps(sw.device, c, id_with_timer(300, "aaaaaa"));
  const TransactionSteps b = sw.applier.steps(sw.device, c, id_with_timer(300, "bbbbbb"));
  for (const TransactionSteps* t : {&a, &b})
    CHECK(sw.run({t->stage.begin(), t->stage.begin() + static_cast<std::ptrdiff_t>(*t->lock)}) == "");
  for (const TransactionSteps* t : {&a, &b}) {
    const std::string refused = sw.run({t->stage[*t->lock]});
    CHECK(
        refused.starts_with("another fabricctl apply is staging the switch (fabricctl sessions pending: "
                            "\"fabricctl-20261203T120000-aaaaaa\", \"fabricctl-20261203T120000-bbbbbb\"); "
                            "nothing was committed"));
  }
  CHECK(sw.run(a.release) == "");
  CHECK(sw.mtu("Ethernet1") == 1500);
  CHECK_FALSE(sw.timer_armed());
  // A's release dropped its session; B's lock now holds, and B goes on.
  CHECK(sw.run({b.stage.begin() + static_cast<std::ptrdiff_t>(*b.lock), b.stage.end()}) == "");
  CHECK(sw.mtu("Ethernet1") == 9100);
  // Plan's check names a pending fabricctl session too (B's timer first, here).
  CHECK_FALSE(sw.run(sw.applier.check(sw.device, c, {})).empty());
  CHECK(sw.run(b.confirm) == "");
}
