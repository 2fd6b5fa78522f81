// The SONiC transaction against its real consumer: SshSession to a real sshd whose ForceCommand is the
// SONiC emulator (tests/lab/emulators/sonic.py) in front of a factory-default switch. Stage, collect
// with the collector's own commands, then confirm, roll back, or let the switch's systemd timer revert.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "fixtures.h"
#include "platform/platform.h"
#include "sshd_fixture.h"
#include "temp_dir.h"
#include "transport/ssh_session.h"
#include "util/subprocess.h"

using namespace fabricctl;

namespace {

const std::string kEmulator = std::string(FABRICCTL_SOURCE_DIR) + "/tests/lab/emulators/sonic.py";

/// Skips (prints SKIP, passes) without sshd or python3; fails instead in CI, which installs both.
bool have_tools(const test::Sshd& sshd) {
  std::string why = sshd.skip_reason;
  if (why.empty() && access("/usr/bin/python3", X_OK) != 0) why = "python3 is not installed";
  if (why.empty()) return true;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && *ci != '\0') FAIL(why);
  std::printf("SKIP: %s\n", why.c_str());
  return false;
}

/// A factory-default SONiC switch with ports Ethernet0 and Ethernet8, behind sshd; the session to it.
struct Switch {
  test::TempDir state;
  test::Sshd sshd{"/usr/bin/python3 " + kEmulator + " " + state.path.string()};
  std::optional<SshSession> session;
  DeviceDesired device = test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet8"});
  Applier applier = adapter(Platform::sonic).applier;

  bool up() {
    if (!have_tools(sshd)) return false;
    test::spit(state.path / "ports.json",
               R"({"Ethernet0": {"speed": "400G", "oper": "up"}, "Ethernet8": {"speed": "400G"}})");
    REQUIRE(run_command({"/usr/bin/python3", kEmulator, state.path.string(), "--factory"}));
    SshEndpoint e;
    e.device = "leaf1";
    e.address = "127.0.0.1";
    e.port = sshd.port;
    e.user = sshd.user;
    e.key_file = sshd.dir + "/client";
    SshOptions o;
    o.known_hosts = sshd.dir + "/known_hosts";
    std::ofstream(o.known_hosts) << sshd.known_hosts_line();
    auto s = SshSession::open(e, o);
    REQUIRE_MESSAGE(s, s.error() << "\n" << sshd.log());
    session.emplace(std::move(*s));
    return true;
  }

  /// What the collector reads, kept as it keeps it.
  RawOutputs collect() {
    RawOutputs raw;
    for (const CollectCommand& c : adapter(Platform::sonic).collector.commands) {
      auto out = session->run(std::string(c.command));
      REQUIRE_MESSAGE(out, out.error());
      REQUIRE_MESSAGE(out->exit_status == 0, out->err);
      raw[std::string(c.file)] = c.keep != nullptr ? c.keep(out->out) : out->out;
    }
    return raw;
  }
  int mtu(const std::string& port) {
    auto d = adapter(Platform::sonic).collector.observe("leaf1", collect());
    REQUIRE_MESSAGE(d, d.error());
    for (const PortObserved& p : d->ports)
      if (p.name == port) return p.mtu.value_or(-1);
    return -1;
  }
  NativeChange change() {
    auto c = applier.change(device, collect());
    REQUIRE_MESSAGE(c, c.error());
    return *c;
  }
  /// Runs `steps` in order and stops at the first failure: "" or failure()'s reason.
  std::string run(const std::vector<RemoteStep>& steps) {
    for (const RemoteStep& s : steps) {
      auto out = session->run(s.command, s.input);
      REQUIRE_MESSAGE(out, out.error());
      std::string why = applier.failure(s, {out->exit_status, out->out, out->err});
      if (!why.empty()) return why;
    }
    return {};
  }
  [[nodiscard]] std::string file(const std::string& name) const {
    std::ifstream in(state.path / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
};

TransactionId id_with_timer(int seconds) {
  TransactionId id;
  id.name = "fabricctl-20261203T120000-a1b2c3";
  id.confirm_timeout_s = seconds;
  return id;
}

void wait_s(double s) { std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(s * 1000))); }

}  // namespace

TEST_CASE("sonic transaction: stage makes the change running, rollback restores the factory CONFIG_DB") {
  Switch sw;
  if (!sw.up()) return;
  CHECK(sw.mtu("Ethernet0") == 9100);
  const std::string factory = sw.file("config_db.json");
  sw.device.ports[0].mtu = 9000;  // a change beside the QoS slice that PORT shows
  const NativeChange c = sw.change();
  REQUIRE_FALSE(c.empty());
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(60));
  CHECK(sw.run(steps.stage) == "");  // the emulator refuses the map tables in apply-patch: the split holds
  CHECK(sw.mtu("Ethernet0") == 9000);
  CHECK(sw.change().empty());  // collection reads the running CONFIG_DB
  CHECK(sw.file("config_db.json").find("DSCP_TO_TC_MAP") != std::string::npos);
  CHECK(sw.file("saved.json").find("DSCP_TO_TC_MAP") == std::string::npos);  // not saved before verify
  CHECK(sw.run(steps.rollback) == "");
  CHECK(sw.mtu("Ethernet0") == 9100);
  CHECK(sw.file("config_db.json") == factory);
  CHECK(sw.change().text == c.text);
  CHECK_FALSE(std::filesystem::exists(sw.state.path / "timers" / "fabricctl-20261203T120000-a1b2c3.json"));
}

TEST_CASE(
    "sonic transaction: unconfirmed, the switch's timer reverts by itself; confirmed, the change stays and is saved") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(2));
  CHECK(sw.run(steps.stage) == "");
  CHECK(sw.change().empty());
  wait_s(3.5);  // nobody confirms: fabricctl was killed
  CHECK(sw.change().text == c.text);
  CHECK(sw.file("config_db.json").find("DSCP_TO_TC_MAP") == std::string::npos);  // the maps went back too
  // A confirm that comes too late fails: the timer has fired and is gone.
  CHECK(sw.run(steps.confirm).find("disarm the revert timer: exited with status 5") == 0);
  CHECK(sw.run(steps.rollback) == "");

  const TransactionSteps again = sw.applier.steps(sw.device, c, id_with_timer(4));
  const auto staged_at = std::chrono::steady_clock::now();
  CHECK(sw.run(again.stage) == "");
  const auto seen = adapter(Platform::sonic).collector.observe("leaf1", sw.collect());
  REQUIRE_MESSAGE(seen, seen.error());
  REQUIRE(seen->ports.size() == 2);
  for (const PortObserved& p : seen->ports) {
    CHECK(p.mtu == 9100);
    CHECK(p.lossless == sw.device.qos.lossless);
    CHECK(p.dscp_to_priority == sw.device.qos.dscp_to_priority);
  }
  CHECK(sw.run(again.confirm) == "");
  std::this_thread::sleep_until(staged_at + std::chrono::milliseconds(4500));  // past the disarmed deadline
  CHECK(sw.change().empty());
  CHECK(sw.file("saved.json").find("DSCP_TO_TC_MAP") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(sw.state.path / "checkpoints" / "fabricctl-20261203T120000-a1b2c3.cp.json"));
}

TEST_CASE("sonic transaction: a failing step is named; rollback after a partial stage leaves the switch as it was") {
  Switch sw;
  if (!sw.up()) return;
  const std::string factory = sw.file("config_db.json");
  const NativeChange c = sw.change();
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(60));
  test::spit(
      sw.state.path / "answers.json",
      R"({"sudo systemd-run*": {"stderr": "Failed to start transient timer unit: Access denied\n", "exit": 1}})");
  CHECK(sw.run(steps.stage) ==
        "arm the revert timer for 60s: exited with status 1: Failed to start transient timer unit: Access denied");
  CHECK(sw.run(steps.rollback) == "");  // no timer to stop, nothing applied: nothing to undo
  CHECK(sw.file("config_db.json") == factory);
  std::filesystem::remove(sw.state.path / "answers.json");

  // The whole patch through apply-patch, the maps included, is what GCU refuses: the split is needed.
  RemoteStep whole{"apply the patch", "sudo config apply-patch /dev/stdin", c.payload};
  const std::string why = sw.run({whole});
  CHECK(why.find("apply the patch: exited with status 2: Failed to apply patch due to: Modification of ") == 0);
  // A value out of GCU's YANG range is refused, whole: nothing of the patch is applied.
  RemoteStep bad{"apply the patch", "sudo config apply-patch /dev/stdin",
                 R"([{"op": "replace", "path": "/PORT/Ethernet0/mtu", "value": "99999"}])"};
  CHECK(sw.run({bad}).find("68..9216") != std::string::npos);
  CHECK(sw.file("config_db.json") == factory);
}
