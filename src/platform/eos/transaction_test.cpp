// The EOS transaction against its real consumer: SshSession to a real sshd whose ForceCommand is the EOS
// emulator (tests/lab/emulators/eos.py) in front of a factory-default switch. Stage, collect with the
// collector's own commands, then confirm, roll back, or let EOS's commit timer expire.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "emulated_switch.h"
#include "fidelity_support.h"
#include "fixtures.h"
#include "platform/platform.h"
#include "shared_dir.h"
#include "temp_dir.h"
#include "transport/ssh_session.h"
#include "util/subprocess.h"

using namespace fabricctl;

namespace {

const std::string kEmulator = std::string(FABRICCTL_SOURCE_DIR) + "/tests/lab/emulators/eos.py";

/// A factory-default EOS switch with ports Ethernet1 and Ethernet2, behind sshd; the session to it.
struct Switch : test::EmulatedSwitch {
  Switch()
      : EmulatedSwitch(Platform::eos, "eos.py", {"Ethernet1", "Ethernet2"},
                       R"({"Ethernet1": {"speed": 400000, "oper": "up"}, "Ethernet2": {"speed": 400000}})") {}
  std::string sessions() {
    auto out = session->run("show configuration sessions | json");
    REQUIRE_MESSAGE(out, out.error());
    return out->out;
  }
};

using test::id_with_timer;

}  // namespace

TEST_CASE(
    "eos transaction: stage makes the session running with its timer armed, rollback restores the factory "
    "configuration") {
  Switch sw;
  if (!sw.up()) return;
  CHECK(sw.mtu("Ethernet1") == 1500);  // EOS's default L3 MTU
  const NativeChange c = sw.change();
  REQUIRE_FALSE(c.empty());
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(60));
  // The lines alone change nothing running: the session is kept apart until its commit.
  CHECK(sw.run({steps.stage[0]}) == "");
  CHECK(sw.mtu("Ethernet1") == 1500);
  CHECK(sw.sessions().find(R"("state": "pending")") != std::string::npos);
  CHECK(sw.run({steps.stage[1], steps.stage[2], steps.stage[3]}) == "");  // diffs, lock, commit timer
  CHECK(sw.mtu("Ethernet1") == 9100);
  CHECK(sw.change().empty());  // collection reads running
  CHECK(sw.sessions().find(R"("state": "pendingCommitTimer")") != std::string::npos);
  CHECK(sw.file("startup.json").find("9100") == std::string::npos);  // a trial is not saved
  CHECK(sw.run(steps.rollback) == "");
  CHECK(sw.mtu("Ethernet1") == 1500);
  CHECK(sw.change().text == c.text);
  CHECK(sw.sessions().find(R"("sessions": {})") != std::string::npos);
}

TEST_CASE(
    "eos transaction: unconfirmed, EOS's commit timer reverts by itself; confirmed, the change stays and is "
    "saved") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  CHECK(sw.run(sw.applier.steps(sw.device, c, id_with_timer(300)).stage) == "");
  CHECK(sw.mtu("Ethernet1") == 9100);
  CHECK(sw.timer_armed());
  sw.fire_timers();  // nobody confirms: fabricctl was killed, the window passed
  CHECK(sw.mtu("Ethernet1") == 1500);
  CHECK(sw.change().text == c.text);

  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(300, "d4e5f6"));
  CHECK(sw.run(steps.stage) == "");
  // What verify will read: the device's intent, through the collector's own parsing.
  const auto seen = adapter(Platform::eos).collector.observe("leaf1", sw.collect());
  REQUIRE_MESSAGE(seen, seen.error());
  REQUIRE(seen->ports.size() == 2);
  for (const PortObserved& p : seen->ports) {
    CHECK(p.mtu == 9100);
    CHECK(p.trust == sw.device.qos.trust);
    CHECK(p.lossless == sw.device.qos.lossless);
    CHECK(p.dscp_to_priority == sw.device.qos.dscp_to_priority);
    for (size_t prio = 0; prio < 7; ++prio)  // traffic-class 7 is EOS's own: session.cfg leaves it
      CHECK(p.priority_to_tc->at(prio) == sw.device.qos.priority_to_tc[prio]);
    REQUIRE(p.watchdog);
    CHECK(p.watchdog->enabled);
    REQUIRE(p.ecn);
    REQUIRE(p.ecn->size() == 1);
    CHECK((*p.ecn)[0].min_bytes == sw.device.qos.ecn[0].min_bytes);
    CHECK((*p.ecn)[0].probability_pct == sw.device.qos.ecn[0].probability_pct);
  }
  CHECK(sw.run(steps.confirm) == "");
  CHECK_FALSE(sw.timer_armed());
  sw.fire_timers();  // the window passes: nothing is left to revert
  CHECK(sw.mtu("Ethernet1") == 9100);
  CHECK(sw.change().empty());
  CHECK(sw.file("startup.json").find("9100") != std::string::npos);
}

TEST_CASE(
    "eos transaction: a failing step is named, even with exit status 0; rollback after a partial stage "
    "leaves the switch as it was") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionId id = id_with_timer(60);
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id);
  test::spit(sw.state() / "answers.json",
             R"({"configure session )" + id.name + R"( commit timer*": {"stdout": "% Error: commit failed\n"}})");
  CHECK(sw.run(steps.stage) == "commit with EOS's commit timer armed for 00:01:00: % Error: commit failed");
  CHECK(sw.run(steps.rollback) == "");  // the session was pending, never committed: aborted
  CHECK(sw.mtu("Ethernet1") == 1500);
  std::filesystem::remove(sw.state() / "answers.json");
  CHECK(sw.change().text == c.text);
  CHECK(sw.sessions().find(R"("sessions": {})") != std::string::npos);

  // A value EOS refuses (L3 MTU 68-9214) fails in the session, with status 0, and is never committed.
  NativeChange bad;
  bad.text = bad.payload = "interface Ethernet1\n   mtu 99999\n!\n";
  const TransactionSteps b = sw.applier.steps(sw.device, bad, id_with_timer(60, "bad000"));
  CHECK(sw.run(b.stage) ==
        "stage the change in configuration session fabricctl-20261203T120000-bad000: % Invalid input (at token 1: "
        "'99999')");
  CHECK(sw.run(b.rollback) == "");
  CHECK(sw.mtu("Ethernet1") == 1500);
  CHECK(sw.sessions().find(R"("sessions": {})") != std::string::npos);
}

TEST_CASE(
    "eos transaction: between any two intent variants, the change brings the switch there and a second "
    "change is empty" *
    doctest::test_suite("external")) {
  if (access("/usr/bin/python3", X_OK) != 0) {
    test::unavailable("python3 is not installed");
    return;
  }
  const Applier a = adapter(Platform::eos).applier;
  const auto variants = test::intent_variants();
  // Four emulator runs per pair: through its server, each a fork rather than a Python start.
  test::TempDir server_dir;
  test::EmulatorServer server(kEmulator, server_dir.path);
  server.start();
  // What the emulator prints, read as the collector keeps it; `--load FILE` merges lines as a session does.
  const auto running = [&server](const test::TempDir& dir) {
    std::vector<std::string> argv{"env", "SSH_ORIGINAL_COMMAND=show running-config"};
    for (std::string& word : server.command(dir.path.string())) argv.push_back(std::move(word));
    auto out = run_command(argv);
    REQUIRE_MESSAGE(out, out.error());
    return RawOutputs{{"running-config.txt", *out}};
  };
  const auto load = [&server](const test::TempDir& dir, const std::string& lines) {
    test::spit(dir.path / "change.cfg", lines);
    auto out = run_command(server.command(dir.path.string(), {"--load", (dir.path / "change.cfg").string()}));
    REQUIRE_MESSAGE(out, out.error());
  };
  // The factory switch, made once and copied for each pair: a file copy, not an emulator start.
  test::TempDir factory;
  test::spit(factory.path / "ports.json", R"({"Ethernet1": {}})");
  REQUIRE(run_command({"/usr/bin/python3", kEmulator, factory.path.string(), "--factory"}));
  for (size_t from = 0; from < variants.size(); ++from)
    for (size_t to = 0; to < variants.size(); ++to) {
      CAPTURE(variants[from].first);
      CAPTURE(variants[to].first);
      DeviceDesired was = test::example_switch(Platform::eos, {"Ethernet1"});
      DeviceDesired want = was;
      variants[from].second(was);
      variants[to].second(want);
      test::TempDir dir;
      std::filesystem::copy(factory.path, dir.path, std::filesystem::copy_options::recursive);
      auto first = a.change(was, running(dir));
      REQUIRE_MESSAGE(first, first.error());
      load(dir, first->payload);
      auto change = a.change(want, running(dir));
      REQUIRE_MESSAGE(change, change.error());
      CHECK((from == to) == change->empty());
      load(dir, change->payload);
      const RawOutputs now = running(dir);
      auto again = a.change(want, now);
      REQUIRE_MESSAGE(again, again.error());
      CHECK_MESSAGE(again->empty(), again->text);
      const auto seen = adapter(Platform::eos)
                            .collector.observe("leaf1", {{"running-config.txt", now.at("running-config.txt")},
                                                         {"interfaces.json", R"({"interfaces": {}})"},
                                                         {"lldp-neighbors.json", R"({"lldpNeighbors": []})"}});
      REQUIRE_MESSAGE(seen, seen.error());
      REQUIRE(seen->ports.size() == 1);
      const PortObserved& p = seen->ports[0];
      CHECK(p.mtu == want.ports[0].mtu);
      CHECK(p.lossless == want.qos.lossless);
      CHECK(p.dscp_to_priority == want.qos.dscp_to_priority);
      REQUIRE(p.watchdog);
      CHECK(p.watchdog->enabled == (want.qos.watchdog.enabled && !want.qos.lossless_priorities().empty()));
      REQUIRE(p.ecn);
      CHECK(p.ecn->size() == want.qos.ecn.size());
    }
}
