// health on the verify checks' small lab (verify/checks/check_test_support.h): two readings 30 s apart,
// a clean fabric with moving counters judged clean, then each fault made in the counters and named where
// it is, once, its consequences naming it.
#include "health/health.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "verify/checks/check_test_support.h"

using namespace fabricctl;

namespace {

/// The lab read twice, 30 s apart: every port's counters in both readings, the same unless a test
/// moves them in `after`.
struct Twice {
  test::Lab lab;
  FabricObserved before, after;

  Twice() {
    for (auto& [name, d] : lab.observed.devices) {
      d.collected_at = "2026-12-05T12:00:00Z";
      for (PortObserved& p : d.ports)
        p.counters = {{"pfc_rx_pause_3", 1000}, {"pfc_tx_pause_3", 1000}, {"fcs_errors", 5},
                      {"link_changes", 1},      {"rx_discards_3", 0},     {"watchdog_storms_3", 0},
                      {"ecn_marked_rx", 10},    {"cnp_sent", 10},         {"rdma_packet_seq_err", 0}};
    }
    before = lab.observed;
    after = lab.observed;
    for (auto& [name, d] : after.devices) {
      d.collected_at = "2026-12-05T12:00:30Z";
      for (PortObserved& p : d.ports) {
        p.counters["pfc_rx_pause_3"] += 300;  // 10/s: a healthy lossless link pauses a little
        p.counters["pfc_tx_pause_3"] += 300;
        p.counters["ecn_marked_rx"] += 50;
        p.counters["cnp_sent"] += 40;
      }
    }
  }
  uint64_t& counter(std::string_view device, std::string_view port, const std::string& name) {
    for (PortObserved& p : after.devices.find(device)->second.ports)
      if (p.name == port) return p.counters[name];
    FAIL("no port " << port);
    static uint64_t none = 0;
    return none;
  }
  /// `f` on every port of `device` in both readings: how its platform reports them, before a test moves one.
  template <typename F>
  void in_both(std::string_view device, F f) {
    for (FabricObserved* reading : {&before, &after})
      for (PortObserved& p : reading->devices.find(device)->second.ports) f(p);
  }
  VerifyReport run(HealthOptions o = {}) const { return run_health(lab.desired, before, after, o); }
};

std::vector<const Result*> of(const VerifyReport& r, std::string_view check) {
  std::vector<const Result*> out;
  for (const Result& x : r.results)
    if (x.check == check) out.push_back(&x);
  return out;
}

}  // namespace

TEST_CASE("health: a clean fabric whose counters move at normal rates has no finding") {
  const Twice t;
  const VerifyReport r = t.run();
  CHECK(r.results.empty());
  CHECK(r.unreadable.empty());
  CHECK(r.devices_checked == 4);
  CHECK(r.pass_count > 20);
  CHECK(r.tool == "health");
  CHECK(r.checks_run.size() + 1 == health_checks().size());  // all but the baseline's, without one
  CHECK(std::find(r.checks_run.begin(), r.checks_run.end(), "health.baseline.rate") == r.checks_run.end());
}

TEST_CASE("health: against a baseline, a counter many times its normal rate is named, once") {
  Twice t;
  // The baseline: this same clean window (10 pauses a second each way).
  const Baseline normal = baseline_between(t.before, t.after);
  HealthOptions o;
  o.baseline = &normal;
  VerifyReport r = t.run(o);
  CHECK(r.results.empty());
  CHECK(r.tally_of("health.baseline.rate").passed > 0);

  // 15 times the baseline's pauses, still under the pause threshold: named against the baseline alone.
  t.counter("leaf1", "Ethernet48", "pfc_rx_pause_3") += 150 * 30 - 300;  // 150/s against 10/s
  r = t.run(o);
  REQUIRE(r.results.size() == 1);
  CHECK(r.results[0].check == "health.baseline.rate");
  CHECK(r.results[0].status == Status::fail);
  CHECK(r.results[0].message == "pfc_rx_pause_3 on leaf1:Ethernet48 at 15x its baseline (150/s against 10/s)");
  CHECK(r.results[0].link.has_value());

  // Over the pause threshold too: the pause finding names it, the baseline's is its consequence.
  t.counter("leaf1", "Ethernet48", "pfc_rx_pause_3") += 60'000;  // 2150/s
  r = t.run(o);
  const auto base = of(r, "health.baseline.rate");
  REQUIRE(base.size() == 1);
  CHECK(base[0]->status == Status::consequence);
  CHECK(base[0]->cause == "health.pfc.pauses spine1:swp1~leaf1:Ethernet48");

  // A counter still at its baseline's 0 is judged against the floor (1/s): 5 in 30 s is not named.
  Twice quiet;
  quiet.counter("host1", "ens1f0np0", "rdma_packet_seq_err") += 5;
  CHECK(of(quiet.run(o), "health.baseline.rate").empty());
  quiet.counter("host1", "ens1f0np0", "rdma_packet_seq_err") += 295;  // 10/s: the floor times 10
  CHECK(of(quiet.run(o), "health.baseline.rate").size() == 1);
}

TEST_CASE("health: a storm is named on the port that sends the pauses; its pause rate is a consequence") {
  Twice t;
  t.counter("leaf1", "Ethernet0", "watchdog_storms_3") += 2;
  t.counter("leaf1", "Ethernet0", "pfc_rx_pause_3") += 90'000;  // 3000/s from host1
  const VerifyReport r = t.run();
  const auto storm = of(r, "health.pfc.storm");
  REQUIRE(storm.size() == 1);
  CHECK(storm[0]->object() == "host1:ens1f0np0~leaf1:Ethernet0");  // the pausing end first
  CHECK(storm[0]->message.find("host1:ens1f0np0 keeps pausing it") != std::string::npos);
  CHECK(storm[0]->observed == "+2 in 30 s (0.07/s) storms on queue 3");
  const auto pauses = of(r, "health.pfc.pauses");
  REQUIRE(pauses.size() == 1);
  CHECK(pauses[0]->status == Status::consequence);
  CHECK(pauses[0]->cause == "health.pfc.storm host1:ens1f0np0~leaf1:Ethernet0");
  CHECK(r.results.size() == 2);
}

TEST_CASE("health: pauses above the threshold name the pausing end, read on either end") {
  Twice t;
  t.counter("host1", "ens2f0np0", "pfc_tx_pause_3") += 60'000;  // 2000/s sent by host1 toward leaf2
  VerifyReport r = t.run();
  auto pauses = of(r, "health.pfc.pauses");
  REQUIRE(pauses.size() == 1);
  CHECK(pauses[0]->status == Status::fail);
  CHECK(pauses[0]->object() == "host1:ens2f0np0~leaf2:Ethernet1/1");
  CHECK(pauses[0]->observed == "priority 3: 2010/s pause frames");
  // The pausing device's profile sets the limit: host1's `health: {pauses_per_s: 5000}` (leaf2's is not
  // asked).
  for (DeviceDesired& dev : t.lab.desired.devices)
    if (dev.name == "host1") dev.qos.health.pauses_per_s = 5000;
  CHECK(of(t.run(), "health.pfc.pauses").empty());
  // Pause time, where counted: 20% of 30 s paused on leaf2's side, few frames.
  Twice d;
  d.counter("leaf2", "Ethernet1/1", "pfc_rx_pause_duration_3") = 6'000'000;
  d.before.devices.find("leaf2")->second.ports[0].counters["pfc_rx_pause_duration_3"] = 0;
  r = d.run();
  pauses = of(r, "health.pfc.pauses");
  REQUIRE(pauses.size() == 1);
  CHECK(pauses[0]->object() == "host1:ens2f0np0~leaf2:Ethernet1/1");
  CHECK(pauses[0]->observed.find("20% of the time paused") != std::string::npos);
}

TEST_CASE("health: an end that counts pauses only over all priorities (EOS) is read where no end counts per priority") {
  Twice t;
  // leaf2 as EOS reports it: PFC frames per port, not per priority; host1's counters not readable.
  t.in_both("leaf2", [](PortObserved& p) {
    p.counters.erase("pfc_rx_pause_3");
    p.counters.erase("pfc_tx_pause_3");
    p.counters["pfc_rx_pause"] = 1000;
    p.counters["pfc_tx_pause"] = 1000;
  });
  t.in_both("host1", [](PortObserved& p) { p.counters.clear(); });
  CHECK(of(t.run(), "health.pfc.pauses").empty());
  t.counter("leaf2", "Ethernet1/1", "pfc_rx_pause") += 60'000;  // 2000/s received from host1
  const VerifyReport r = t.run();
  const auto pauses = of(r, "health.pfc.pauses");
  REQUIRE(pauses.size() == 1);
  CHECK(pauses[0]->object() == "host1:ens2f0np0~leaf2:Ethernet1/1");
  CHECK(pauses[0]->observed == "all priorities: 2000/s pause frames");
  // An end that counts per priority is read first: the summed count does not add to it.
  Twice u;
  for (PortObserved& p : u.before.devices.find("leaf2")->second.ports) p.counters["pfc_rx_pause"] = 0;
  u.counter("leaf2", "Ethernet1/1", "pfc_rx_pause") = 90'000;  // 3000/s over all priorities
  CHECK(of(u.run(), "health.pfc.pauses").empty());
}

TEST_CASE("health: errors name the link toward the port that counts them; a flap is one finding per link") {
  Twice t;
  t.counter("leaf1", "Ethernet48", "fcs_errors") += 12;
  t.counter("leaf1", "Ethernet48", "link_changes") += 2;
  t.counter("spine1", "swp1", "link_changes") += 2;
  const VerifyReport r = t.run();
  const auto errors = of(r, "health.link.errors");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]->object() == "leaf1:Ethernet48~spine1:swp1");
  CHECK(errors[0]->hint.find("spine1:swp1 -> leaf1:Ethernet48") != std::string::npos);
  const auto flaps = of(r, "health.link.flap");
  REQUIRE(flaps.size() == 1);
  CHECK(flaps[0]->message.find("leaf1:Ethernet48~spine1:swp1") != std::string::npos);
  CHECK(flaps[0]->observed == "+2 in 30 s (0.07/s) link changes (a flap is two)");
}

TEST_CASE("health: a host NIC's own down count is judged, not summed with the kernel's carrier changes") {
  Twice t;
  t.counter("host1", "ens1f0np0", "link_down_events") = 4;  // mlx5 link_down_events_phy
  t.before.devices.find("host1")->second.ports[0].counters["link_down_events"] = 3;
  t.counter("host1", "ens1f0np0", "link_changes") += 2;  // the same flap, as the kernel's carrier saw it
  const VerifyReport r = t.run();
  const auto flaps = of(r, "health.link.flap");
  REQUIRE(flaps.size() == 1);
  CHECK(flaps[0]->a.str() == "host1:ens1f0np0");
  CHECK(flaps[0]->observed == "+1 in 30 s (0.03/s) downs");
}

TEST_CASE("health: lossless drops, retransmissions and a broken CNP loop on a host") {
  Twice t;
  t.counter("host1", "ens1f0np0", "rx_discards_3") += 7;
  t.counter("host1", "ens1f0np0", "rdma_packet_seq_err") += 900;  // 30/s
  t.counter("host1", "ens2f0np0", "cnp_sent") -= 40;              // marked packets, no CNP
  const VerifyReport r = t.run();
  REQUIRE(of(r, "health.lossless.drops").size() == 1);
  CHECK(of(r, "health.lossless.drops")[0]->observed == "priority 3: +7 in 30 s (0.23/s)");
  // The fix names what the headroom is sized by: the cable, and the headroom derived from it.
  CHECK(of(r, "health.lossless.drops")[0]->hint.find(" m of cable in the inventory, ") != std::string::npos);
  CHECK(of(r, "health.lossless.drops")[0]->hint.find(" bytes of headroom per lossless priority") != std::string::npos);
  REQUIRE(of(r, "health.rdma.retransmissions").size() == 1);
  REQUIRE(of(r, "health.dcqcn.cnp").size() == 1);
  CHECK(of(r, "health.dcqcn.cnp")[0]->a.str() == "host1:ens2f0np0");
  CHECK(of(r, "health.dcqcn.reaction").empty());  // nothing ignored yet

  t.counter("host1", "ens1f0np0", "cnp_ignored") = 90;  // 3/s ignored: its reaction point is off
  for (auto& [name, dev] : t.before.devices)
    for (PortObserved& p : dev.ports) p.counters["cnp_ignored"] = 0;
  const VerifyReport again = t.run();
  const auto ignored = of(again, "health.dcqcn.reaction");
  REQUIRE(ignored.size() == 1);
  CHECK(ignored[0]->object() == "host1:ens1f0np0~leaf1:Ethernet0");
  CHECK(ignored[0]->observed == "CNPs ignored +90 in 30 s (3.00/s)");
}

TEST_CASE("health: where a port counts no FCS or symbol errors, its frames received in error are read (NVUE)") {
  Twice t;
  t.in_both("spine1", [](PortObserved& p) {
    p.counters.erase("fcs_errors");
    p.counters["rx_errors"] = 10;
  });
  CHECK(of(t.run(), "health.link.errors").empty());
  t.counter("spine1", "swp1", "rx_errors") += 30;
  const VerifyReport r = t.run();
  const auto errors = of(r, "health.link.errors");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]->a.str() == "spine1:swp1");
  CHECK(errors[0]->observed == "+30 in 30 s (1.00/s)");
}

TEST_CASE("health: uncorrectable FEC codewords are errors of the link, alone or beside FCS errors (SONiC)") {
  Twice t;
  t.in_both("leaf1", [](PortObserved& p) { p.counters["fec_uncorrectable"] = 5; });
  CHECK(of(t.run(), "health.link.errors").empty());
  t.counter("leaf1", "Ethernet48", "fec_uncorrectable") += 60;
  const VerifyReport r = t.run();
  const auto errors = of(r, "health.link.errors");
  REQUIRE(errors.size() == 1);
  CHECK(errors[0]->a.str() == "leaf1:Ethernet48");
  CHECK(errors[0]->observed == "+0 in 30 s (0.00/s); FEC uncorrectable +60 in 30 s (2.00/s)");
  CHECK(errors[0]->expected == "no FCS or symbol errors, no uncorrectable FEC codewords");
  // Only FEC counted (no FCS counter on the port): the FEC rise alone.
  t.in_both("leaf1", [](PortObserved& p) {
    p.counters.erase("fcs_errors");
    p.counters.erase("symbol_errors");
  });
  const VerifyReport only_fec = t.run();
  const auto alone = of(only_fec, "health.link.errors");
  REQUIRE(alone.size() == 1);
  CHECK(alone[0]->observed == "FEC uncorrectable +60 in 30 s (2.00/s)");
  // A host NIC counts the symbols its FEC could not correct (mlx5), judged alike.
  Twice h;
  h.in_both("host1", [](PortObserved& p) { p.counters["fec_uncorrectable_symbols"] = 0; });
  h.counter("host1", "ens1f0np0", "fec_uncorrectable_symbols") += 3;
  const VerifyReport on_host = h.run();
  REQUIRE(of(on_host, "health.link.errors").size() == 1);
  CHECK(of(on_host, "health.link.errors")[0]->a.str() == "host1:ens1f0np0");
}

TEST_CASE("health: drops on a switch whose buffer table sizes headroom by length name the table's row") {
  Twice t;
  for (DeviceDesired& d : t.lab.desired.devices) {
    if (d.name != "leaf1") continue;
    d.hardware.headroom_cable_rows_m = {5, 40, 300};
    for (PortDesired& p : d.ports) p.cable_length_m = p.name == "Ethernet0" ? 3 : 500;
  }
  t.counter("leaf1", "Ethernet0", "rx_discards_3") += 7;
  t.counter("leaf1", "Ethernet48", "rx_discards_3") += 7;
  const VerifyReport r = t.run();
  const auto drops = of(r, "health.lossless.drops");
  REQUIRE(drops.size() == 2);
  for (const Result* d : drops) {
    CAPTURE(d->hint);
    const bool short_cable = d->a.str() == "leaf1:Ethernet0";
    CHECK(d->hint.find(short_cable ? "(3 m of cable in the inventory, sized by the 5 m row of its buffer table)"
                                   : "(500 m of cable in the inventory, longer than every row of its buffer "
                                     "table: no lossless headroom at all)") != std::string::npos);
  }
}

TEST_CASE("health: a counter that fell is a reset, not judged; a device read once or out of order is named") {
  Twice t;
  t.counter("leaf1", "Ethernet48", "fcs_errors") = 0;  // cleared between the readings
  t.before.devices.erase("spine1");
  t.after.devices.find("leaf2")->second.collected_at = "2026-12-05T11:59:00Z";
  const VerifyReport r = t.run();
  CHECK(of(r, "health.link.errors").empty());
  CHECK(r.unreadable.at("spine1") == "first reading: no state");
  CHECK(r.unreadable.at("leaf2") == "its two readings have no collected_at in time order, so no rate");
  CHECK(r.devices_checked == 2);
}
