// NX-OS fidelity: config.cfg as the switch takes it. Every intent variant, changed onto a factory switch
// through the emulator's grammar (tests/lab/emulators/nxos_grammar.py, what NX-OS takes, each row with
// its source) behind a real sshd, reads back as the intent it came from; and every golden config.cfg
// loads into the emulator without a refusal.
#include <doctest/doctest.h>

#include "emulated_switch.h"
#include "fidelity_support.h"
#include "platform/platform.h"

using namespace fabricctl;

namespace {

struct FidelitySwitch : test::EmulatedSwitch {
  FidelitySwitch()
      : EmulatedSwitch(Platform::nxos, "nxos.py", {"Ethernet1/1", "Ethernet1/2"},
                       R"({"Ethernet1/1": {"speed": 400000, "oper": "up"}, "Ethernet1/2": {"speed": 400000}})") {}
};

/// An NX-OS profile sets ECN in whole KiB (the model refuses others): the variant's thresholds so.
void in_kbytes(DeviceDesired& d) {
  for (EcnQueue& e : d.qos.ecn) {
    e.min_bytes = e.min_bytes / 1024 * 1024;
    e.max_bytes = e.max_bytes / 1024 * 1024;
  }
}

}  // namespace

TEST_CASE("nxos fidelity: every intent variant, staged on the emulated switch, reads back as the intent") {
  for (const auto& variant : test::intent_variants()) {
    const std::string& name = variant.first;
    const auto& change = variant.second;
    CAPTURE(name);
    FidelitySwitch sw;
    if (!sw.up()) return;
    change(sw.device);
    in_kbytes(sw.device);
    const NativeChange c = sw.change();
    REQUIRE_FALSE(c.empty());
    const TransactionSteps t = sw.applier.steps(sw.device, c, test::id_with_timer(300));
    REQUIRE(sw.run(t.stage) == "");
    REQUIRE(sw.run(t.confirm) == "");
    CHECK(sw.change().empty());
    auto observed = adapter(Platform::nxos).collector.observe("leaf1", sw.collect());
    REQUIRE_MESSAGE(observed, observed.error());
    const QosIntent& q = sw.device.qos;
    for (const PortDesired& want : sw.device.ports) {
      CAPTURE(want.name);
      const PortObserved* p = observed->port(want.name);
      REQUIRE(p != nullptr);
      CHECK(p->mtu == want.mtu);
      CHECK(*p->dscp_to_priority == q.dscp_to_priority);
      CHECK(*p->lossless == q.lossless);
      for (int tc = 0; tc < kTrafficClasses; ++tc) {
        const TcSchedule& w = q.tc[static_cast<size_t>(tc)];
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
      CHECK(p->watchdog->enabled == (q.watchdog.enabled && !q.lossless_priorities().empty()));
    }
  }
}

TEST_CASE("nxos fidelity: from one intent to another on the emulated switch, read back as the second") {
  FidelitySwitch sw;
  if (!sw.up()) return;
  // The steps of the change before stage: once staged, there is no change and so no steps to confirm with.
  const TransactionSteps first = sw.applier.steps(sw.device, sw.change(), test::id_with_timer(300, "aaaaaa"));
  REQUIRE(sw.run(first.stage) == "");
  REQUIRE(sw.run(first.confirm) == "");
  // The second intent: a port back to 1500, the CNP queue made ETS, ECN and the watchdog off, DSCP 27
  // classified with RoCE (its class map changes), priority 6 no longer used.
  sw.device.ports[0].mtu = 1500;
  sw.device.qos.tc[6] = {true, false, 10};
  sw.device.qos.tc[0].bandwidth_pct = 40;
  sw.device.qos.ecn_enabled = false;
  sw.device.qos.ecn.clear();
  sw.device.qos.watchdog.enabled = false;
  sw.device.qos.dscp_to_priority[27] = 3;
  const NativeChange c = sw.change();
  REQUIRE_FALSE(c.empty());
  REQUIRE(sw.run(sw.applier.steps(sw.device, c, test::id_with_timer(300, "bbbbbb")).stage) == "");
  CHECK(sw.change().empty());
  auto observed = adapter(Platform::nxos).collector.observe("leaf1", sw.collect());
  REQUIRE_MESSAGE(observed, observed.error());
  const PortObserved* p = observed->port("Ethernet1/1");
  REQUIRE(p != nullptr);
  CHECK(p->mtu == 1500);
  CHECK(*p->dscp_to_priority == sw.device.qos.dscp_to_priority);
  CHECK_FALSE((*p->tc)[6].strict);
  CHECK((*p->tc)[6].bandwidth_pct == 10);
  CHECK(p->ecn->empty());
  CHECK_FALSE(p->watchdog->enabled);
}
