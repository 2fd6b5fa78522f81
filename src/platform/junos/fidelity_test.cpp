// Junos fidelity: config.set as the switch takes it. Every intent variant, loaded onto a factory switch
// over NETCONF through the emulator's grammar (tests/lab/emulators/junos_grammar.py, what Junos takes,
// each row with its source) behind a real sshd, reads back as the intent it came from; and one intent
// changed into another reads back as the second.
#include <doctest/doctest.h>

#include "emulated_switch.h"
#include "fidelity_support.h"
#include "platform/platform.h"

using namespace fabricctl;

namespace {

struct FidelitySwitch : test::EmulatedSwitch {
  FidelitySwitch()
      : EmulatedSwitch(Platform::junos, "junos.py", {"et-0/0/0", "et-0/0/1"},
                       R"({"et-0/0/0": {"speed": 400000, "oper": "up"}, "et-0/0/1": {"speed": 400000}})") {}
};

/// A Junos profile sets ECN in whole percents of the queue buffer (the model refuses others).
void in_percents(DeviceDesired& d) {
  const uint64_t unit = d.hardware.ecn_buffer_bytes / 100;
  for (EcnQueue& e : d.qos.ecn) {
    e.min_bytes = std::max<uint64_t>(e.min_bytes / unit, 1) * unit;
    e.max_bytes = std::max<uint64_t>(e.max_bytes / unit, 2) * unit;
  }
}

void check_reads_back(const DeviceDesired& d, const DeviceObserved& observed) {
  const QosIntent& q = d.qos;
  for (const PortDesired& want : d.ports) {
    CAPTURE(want.name);
    const PortObserved* p = observed.port(want.name);
    REQUIRE(p != nullptr);
    CHECK(p->mtu == want.mtu);
    CHECK(*p->trust == q.trust);
    if (q.trust == Trust::dscp) CHECK(*p->dscp_to_priority == q.dscp_to_priority);
    CHECK(*p->lossless == q.lossless);
    for (int tc = 0; tc < kTrafficClasses; ++tc) {
      const TcSchedule& w = q.tc[static_cast<size_t>(tc)];
      CHECK((*p->tc)[static_cast<size_t>(tc)].used == w.used);
      if (!w.used) continue;
      CHECK((*p->tc)[static_cast<size_t>(tc)].strict == w.strict);
      CHECK((*p->tc)[static_cast<size_t>(tc)].bandwidth_pct == w.bandwidth_pct);
    }
    std::vector<EcnQueue> want_ecn = q.ecn_enabled ? q.ecn : std::vector<EcnQueue>{};
    REQUIRE(p->ecn->size() == want_ecn.size());
    for (size_t i = 0; i < want_ecn.size(); ++i) {
      CHECK((*p->ecn)[i].tc == want_ecn[i].tc);
      CHECK((*p->ecn)[i].min_bytes == want_ecn[i].min_bytes);
      CHECK((*p->ecn)[i].max_bytes == want_ecn[i].max_bytes);
      CHECK((*p->ecn)[i].probability_pct == want_ecn[i].probability_pct);
    }
    const bool wd = q.watchdog.enabled && !q.lossless_priorities().empty();
    CHECK(p->watchdog->enabled == wd);
    if (wd) {
      CHECK(p->watchdog->poll_interval_ms == q.watchdog.poll_interval_ms);
      CHECK(p->watchdog->detection_ms == q.watchdog.detection_ms);
      CHECK(p->watchdog->restoration_ms == q.watchdog.restoration_ms);
      CHECK(p->watchdog->action == q.watchdog.action);
    }
  }
}

}  // namespace

TEST_CASE("junos fidelity: every intent variant, committed on the emulated switch, reads back as the intent") {
  for (const auto& variant : test::intent_variants()) {
    const std::string& name = variant.first;
    const auto& change = variant.second;
    CAPTURE(name);
    FidelitySwitch sw;
    if (!sw.up()) return;
    change(sw.device);
    in_percents(sw.device);
    const NativeChange c = sw.change();
    REQUIRE_FALSE(c.empty());
    REQUIRE(sw.run(sw.applier.check(sw.device, c, {})) == "");
    const TransactionSteps t = sw.applier.steps(sw.device, c, test::id_with_timer(300));
    REQUIRE(sw.run(t.stage) == "");
    REQUIRE(sw.run(t.confirm) == "");
    CHECK(sw.change().empty());
    auto observed = adapter(Platform::junos).collector.observe("leaf1", sw.collect());
    REQUIRE_MESSAGE(observed, observed.error());
    check_reads_back(sw.device, *observed);
  }
}

TEST_CASE("junos fidelity: from one intent to another on the emulated switch, read back as the second") {
  FidelitySwitch sw;
  if (!sw.up()) return;
  // The steps of the change before stage: once staged, there is no change and so no steps to confirm with.
  const TransactionSteps first = sw.applier.steps(sw.device, sw.change(), test::id_with_timer(300, "aaaaaa"));
  REQUIRE(sw.run(first.stage) == "");
  REQUIRE(sw.run(first.confirm) == "");
  // The second intent: a port back to 1500, the CNP queue made ETS, ECN and the watchdog off, DSCP 27
  // classified with RoCE, and PCP trust on top: every object and binding changes.
  sw.device.ports[0].mtu = 1500;
  sw.device.qos.tc[6] = {true, false, 10};
  sw.device.qos.tc[0].bandwidth_pct = 40;
  sw.device.qos.ecn_enabled = false;
  sw.device.qos.ecn.clear();
  sw.device.qos.watchdog.enabled = false;
  sw.device.qos.dscp_to_priority[27] = 3;
  NativeChange c = sw.change();
  REQUIRE_FALSE(c.empty());
  const TransactionSteps second = sw.applier.steps(sw.device, c, test::id_with_timer(300, "bbbbbb"));
  REQUIRE(sw.run(second.stage) == "");
  CHECK(sw.change().empty());
  auto observed = adapter(Platform::junos).collector.observe("leaf1", sw.collect());
  REQUIRE_MESSAGE(observed, observed.error());
  check_reads_back(sw.device, *observed);

  REQUIRE(sw.run(second.confirm) == "");  // a third stage waits for the first to be confirmed (its lock)
  sw.device.qos.trust = Trust::pcp;
  c = sw.change();
  REQUIRE_FALSE(c.empty());
  const TransactionSteps third = sw.applier.steps(sw.device, c, test::id_with_timer(300, "cccccc"));
  REQUIRE(sw.run(third.stage) == "");
  CHECK(sw.change().empty());
  observed = adapter(Platform::junos).collector.observe("leaf1", sw.collect());
  REQUIRE_MESSAGE(observed, observed.error());
  check_reads_back(sw.device, *observed);
  CHECK(sw.run(third.confirm) == "");  // its revert timer process ends with the test
}
