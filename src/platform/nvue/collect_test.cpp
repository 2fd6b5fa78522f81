// The NVUE collector: what it keeps of the configuration (no secret reaches a raw file), and how the
// three outputs become one device's observed state: the same, on every field verify compares, as
// `snapshot --from-intent` (observed_from_desired) for a switch that applied its rendered commands.
#include <doctest/doctest.h>

#include "collect_support.h"
#include "platform/nvue/test_support.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"

using namespace fabricctl;

namespace {

using test::command;

/// `nv show interface -o json` and the LLDP view of a switch whose ports are up at their intended
/// speed with their intended neighbours.
RawOutputs live_outputs(const DeviceDesired& d) { return nvue::testing::show_outputs(observed_from_desired(d).ports); }

}  // namespace

TEST_CASE("nvue collector: device-wide commands and one per port for its counters; secrets not kept") {
  const Collector c = adapter(Platform::nvue).collector;
  REQUIRE(c.commands.size() == 5);
  for (const CollectCommand& cmd : c.commands) {
    CHECK(cmd.command.rfind("nv ", 0) == 0);
    CHECK(cmd.command.find("swp") == std::string_view::npos);
    CHECK(cmd.per_port == (cmd.command.find("{port}") != std::string_view::npos));
  }
  // The per-port counters: one run per inventory port, its name quoted in the command and in the file.
  const DeviceDesired two = fabricctl::test::example_switch(Platform::nvue, {"swp1", "swp2s1"});
  const auto runs = command_runs(c, command(c, "qos-counters-{port}.txt"), two, "fabricctl");
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].line == "nv show interface 'swp2s1' counters qos");
  CHECK(runs[1].file == "qos-counters-swp2s1.txt");
  const CollectCommand& config = command(c, "config.json");
  const bool has_keep = config.keep != nullptr;
  REQUIRE(has_keep);
  const std::string kept = config.keep(nvue::testing::config_show(
      nvue::testing::commands_of(fabricctl::test::example_switch(Platform::nvue, {"swp1"}))));
  CHECK(kept.find("s3cret") == std::string::npos);
  CHECK(kept.find("\"system\"") == std::string::npos);
  CHECK(kept.find("\"pfc-watchdog\"") != std::string::npos);
  CHECK(kept.find("\"swp1\"") != std::string::npos);
  // Of an interface only its type, MTU and QoS: a secret beside them (802.1X, a description) is dropped.
  const std::string iface = config.keep(R"({"interface": {"swp1": {"type": "swp", "link": {"mtu": 9100,
      "description": "s3cret"}, "dot1x": {"s3cret": 1}, "qos": {"pfc-watchdog": {}}}, "swp2": "s3cret"}})");
  CHECK(iface.find("s3cret") == std::string::npos);
  CHECK(iface.find("9100") != std::string::npos);
  CHECK(config.keep("not json, maybe a s3cret").empty());
  CHECK(config.keep("\"s3cret\"").empty());
}

TEST_CASE("nvue collector: a switch that applied its commands observes as its intent, every variant") {
  const Collector c = adapter(Platform::nvue).collector;
  for (const auto& entry : fabricctl::test::intent_variants()) {
    const auto& [name, change] = entry;
    CAPTURE(entry.first);
    DeviceDesired d = fabricctl::test::example_switch(Platform::nvue, {"swp1", "swp2"});
    change(d);
    d.ports[0].peer_device = "host1";
    d.ports[0].peer_port = "ens1f0np0";
    d.ports[1].peer_device = "spine1";
    d.ports[1].peer_port = "swp7";
    RawOutputs raw = live_outputs(d);
    raw["config.json"] = command(c, "config.json").keep(nvue::testing::config_show(nvue::testing::commands_of(d)));
    const auto got = c.observe("leaf1", raw);
    REQUIRE_MESSAGE(got, got.error());
    const DeviceObserved want = observed_from_desired(d);
    CHECK(got->platform == Platform::nvue);
    CHECK(got->unreadable_ports.empty());
    REQUIRE(got->ports.size() == want.ports.size());  // eth0 is no switch port
    for (size_t i = 0; i < want.ports.size(); ++i) {
      const PortObserved &g = got->ports[i], &w = want.ports[i];
      CAPTURE(w.name);
      CHECK(g.name == w.name);
      CHECK(g.mtu == w.mtu);
      CHECK(g.speed_mbps == w.speed_mbps);
      CHECK(g.oper_up == w.oper_up);
      CHECK(g.trust == w.trust);
      CHECK(g.dscp_to_priority == w.dscp_to_priority);
      CHECK(g.lossless == w.lossless);
      CHECK(g.priority_to_tc == w.priority_to_tc);
      REQUIRE(g.tc);
      for (size_t tc = 0; tc < kTrafficClasses; ++tc)
        if (w.tc->at(tc).used) {
          CHECK(g.tc->at(tc).strict == w.tc->at(tc).strict);
          CHECK(g.tc->at(tc).bandwidth_pct == w.tc->at(tc).bandwidth_pct);
        }
      REQUIRE(g.ecn);
      REQUIRE(g.ecn->size() == w.ecn->size());
      for (size_t e = 0; e < w.ecn->size(); ++e) {
        CHECK(g.ecn->at(e).tc == w.ecn->at(e).tc);
        CHECK(g.ecn->at(e).min_bytes == w.ecn->at(e).min_bytes);
        CHECK(g.ecn->at(e).max_bytes == w.ecn->at(e).max_bytes);
        CHECK(g.ecn->at(e).probability_pct == w.ecn->at(e).probability_pct);
      }
      const bool runs = w.watchdog->enabled && !d.qos.lossless_priorities().empty();
      CHECK(g.watchdog->enabled == runs);
      if (runs) {
        CHECK(g.watchdog->poll_interval_ms == w.watchdog->poll_interval_ms);
        CHECK(g.watchdog->detection_ms == w.watchdog->detection_ms);
        CHECK(g.watchdog->action == w.watchdog->action);
        // NVUE has no restoration time: it restores PFC one polling interval after a storm.
        CHECK(g.watchdog->restoration_ms == w.watchdog->poll_interval_ms);
      }
      REQUIRE(g.lldp);
      CHECK(g.lldp->system_name == w.lldp->system_name);
      CHECK(g.lldp->port_id == w.lldp->port_id);
    }
  }
}

TEST_CASE("nvue collector: a port the configuration does not name runs the defaults; what is missing is named") {
  const Collector c = adapter(Platform::nvue).collector;
  DeviceDesired d = fabricctl::test::example_switch(Platform::nvue, {"swp1", "swp2"});
  d.ports[0].peer_device = d.ports[1].peer_device = "x";
  d.ports[0].peer_port = d.ports[1].peer_port = "y";
  RawOutputs raw = live_outputs(d);
  raw["config.json"] = R"({"interface": {"swp1": {"type": "swp", "link": {"mtu": 9000}}}})";
  const auto got = c.observe("leaf1", raw);
  REQUIRE_MESSAGE(got, got.error());
  REQUIRE(got->ports.size() == 2);
  CHECK(got->ports[0].mtu == 9000);
  CHECK(got->ports[1].name == "swp2");
  CHECK(got->ports[1].mtu == 9216);  // NVUE's default
  CHECK(got->ports[1].oper_up == true);
  raw["config.json"] = R"({"interface": {"swp1": {"type": "swp", "link": {"mtu": 1}}}})";
  const auto bad = c.observe("leaf1", raw);
  REQUIRE(bad);
  CHECK(bad->ports.size() == 1);  // swp2 still read
  CHECK(bad->unreadable_ports.at("swp1").find("\"1\" is out of range 552-9216") != std::string::npos);

  // Each port's QoS counters (its own command's output), beside its link stats.
  raw["qos-counters-swp2.txt"] =
      "PFC Statistics\n=================\n"
      "    switch-priority  rx-pause-frames  rx-pause-duration  tx-pause-frames  tx-pause-duration\n"
      "    ---------------  ---------------  -----------------  ---------------  -----------------\n"
      "    3                40               0                  2                0                \n\n"
      "Egress Queue Statistics\n==========================\n"
      "    traffic-class  tx-frames  tx-bytes  tx-uc-buffer-discards  wred-discards\n"
      "    -------------  ---------  --------  ---------------------  -------------\n\n"
      "Qos Port Statistics\n======================\n"
      "    Counter             Receive  Transmit\n    ------------------  -------  --------\n"
      "    ecn-marked-packets  n/a      5       \n";
  const auto counted = c.observe("leaf1", raw);
  REQUIRE_MESSAGE(counted, counted.error());
  CHECK(counted->ports[0].counters.at("pfc_rx_pause_3") == 40);
  CHECK(counted->ports[0].counters.at("ecn_marked") == 5);
  raw["qos-counters-swp2.txt"] = "Error: The requested item does not exist.\n";
  CHECK(c.observe("leaf1", raw).error() == "nv show interface swp2 counters qos: no \"PFC Statistics\" section");
  raw.erase("qos-counters-swp2.txt");

  raw.erase("lldp.txt");
  CHECK(c.observe("leaf1", raw).error() == "no lldp.txt was collected");
  raw["lldp.txt"] = "Error: 'lldp' is not one of [...]";
  CHECK(c.observe("leaf1", raw).error().find("nv show interface --view=lldp: no table") == 0);
  raw["lldp.txt"] = "";
  raw["config.json"] = "";
  CHECK(c.observe("leaf1", raw).error().find("nv config show: ") == 0);
}
