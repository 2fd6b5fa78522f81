// Cumulus Linux 5.15's RoCE switch, end to end on the NVUE emulator in 5.15 mode (version.json): a
// switch whose RoCE mode was turned off with `nv set qos roce state disabled` is found by verify (it is
// not lossless, whatever else qos.roce holds) and fixed by apply, which turns it on with 5.15's form.
#include <doctest/doctest.h>

#include "emulated_switch.h"
#include "fixtures.h"
#include "platform/platform.h"
#include "verify/engine.h"

using namespace fabricctl;

namespace {

/// A factory-default 5.15 switch with ports swp1 and swp2 whose intent is NVIDIA's RoCE mode, behind sshd.
struct Switch515 : test::EmulatedSwitch {
  Switch515()
      : EmulatedSwitch(Platform::nvue, "nvue.py", {"swp1", "swp2"},
                       R"({"swp1": {"speed": "400G", "oper": "up"}, "swp2": {"speed": "400G", "oper": "up"}})") {
    device.qos.ecn = {{0, 150000, 1500000, 100}, {3, 150000, 1500000, 100}};  // RoCE mode's ECN
    device.hardware.nos_release = "5.15";
    device.qos.watchdog.restoration_configurable = false;  // as the model sets it from NVUE's traits
    test::spit(state() / "version.json", R"({"release": "5.15.0"})");
  }
  /// NVUE commands typed on the switch, one `nv ...` per element, then applied.
  void type(const std::vector<std::string>& lines) {
    for (const std::string& l : lines) {
      auto out = session->run(l);
      REQUIRE_MESSAGE(out, out.error());
      REQUIRE_MESSAGE(out->exit_status == 0, l << ": " << out->err << out->out);
    }
  }
  /// verify over this one switch: the failed checks' IDs with their objects.
  std::vector<std::string> failures() {
    auto seen = adapter(Platform::nvue).collector.observe(device.name, collect());
    REQUIRE_MESSAGE(seen, seen.error());
    FabricDesired desired{{device}};
    FabricObserved observed;
    observed.devices.emplace(device.name, *seen);
    std::string error;
    const VerifyReport r = run_verify(desired, observed,
                                      {.checks = select_checks({}, error),
                                       .scope = {device.name},
                                       .needed = {device.name},
                                       .passes = Passes::counted});
    std::vector<std::string> out;
    for (const Result& res : r.results)
      if (res.status == Status::fail) out.push_back(res.check + " " + res.object());
    return out;
  }
};

bool has(const std::vector<std::string>& v, const std::string& prefix) {
  for (const std::string& s : v)
    if (s.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace

TEST_CASE("nvue 5.15: RoCE turned off with `qos roce state disabled` is found by verify and fixed by apply") {
  Switch515 sw;
  if (!sw.up()) return;
  REQUIRE(sw.device.name == "leaf1");
  // The intent, applied; verify is clean.
  TransactionSteps steps = sw.applier.steps(sw.device, sw.change(), test::id_with_timer(300));
  REQUIRE(sw.run(steps.stage) == "");
  REQUIRE(sw.run(steps.confirm) == "");
  CHECK(sw.change().empty());
  const std::vector<std::string> clean = sw.failures();
  CHECK_MESSAGE(clean.empty(), clean.front());
  CHECK(sw.file("config.json").find("\"state\": \"enabled\"") != std::string::npos);

  // Someone turns RoCE off the 5.15 way; the tree keeps `mode lossless`. NVUE takes a PFC watchdog only
  // on a port with PFC (NVUE command reference), so the watchdogs go first, or the apply is refused.
  REQUIRE(sw.session->run("nv set qos roce state disabled")->exit_status == 0);
  CHECK(sw.session->run("nv config apply --assume-yes")->exit_status == 1);
  sw.type({"nv unset interface swp1 qos pfc-watchdog", "nv unset interface swp2 qos pfc-watchdog",
           "nv config apply --assume-yes"});
  const std::vector<std::string> found = sw.failures();
  CAPTURE(found.size());
  CHECK(has(found, "port.pfc.drift leaf1:swp1"));  // PFC is off on the lossless priority: not lossless
  CHECK(has(found, "port.watchdog.drift leaf1:swp2"));

  // plan sends 5.15's form, and only what differs; apply fixes it.
  const NativeChange c = sw.change();
  CHECK(c.text ==
        "nv set qos roce state enabled\n"
        "nv set interface swp1 qos pfc-watchdog state enable\n"
        "nv set interface swp2 qos pfc-watchdog state enable\n");
  steps = sw.applier.steps(sw.device, c, test::id_with_timer(300));
  REQUIRE(sw.run(steps.stage) == "");
  REQUIRE(sw.run(steps.confirm) == "");
  CHECK(sw.failures().empty());
  CHECK(sw.change().empty());
}

TEST_CASE("nvue 5.15: an inventory that says 5.14 is refused before anything is sent, naming the key") {
  Switch515 sw;
  sw.device.hardware.nos_release = "";  // the default, 5.14
  if (!sw.up()) return;
  const auto c = sw.applier.change(sw.device, sw.collect());
  REQUIRE_FALSE(c);
  CHECK(c.error() ==
        "the switch runs Cumulus Linux 5.15, whose NVUE syntax differs from release 5.14 (the default: no "
        "nvue.release): set nvue.release: \"5.15\" in the inventory");
}
