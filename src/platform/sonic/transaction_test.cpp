// The SONiC transaction against its real consumer: SshSession to a real sshd whose ForceCommand is the
// SONiC emulator (tests/lab/emulators/sonic.py) in front of a factory-default switch: its SKU's QoS and
// buffer tables as SONiC's templates render them for ports with neighbours (sonic_factory.py), checked
// by GCU's validators and, with shared/ beside the repository, by SONiC's YANG models. Stage, collect
// with the collector's own commands, then confirm, roll back, or let the switch's systemd timer revert.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>

#include "emulated_switch.h"
#include "fixtures.h"
#include "platform/platform.h"
#include "shared_dir.h"
#include "temp_dir.h"
#include "transport/ssh_session.h"
#include "util/subprocess.h"

using namespace fabricctl;

namespace {

/// A factory-default SONiC switch with ports Ethernet0 and Ethernet8, both with a neighbour (so the
/// factory binds them to its AZURE maps, lossless on 3,4), behind sshd; the session to it.
struct Switch : test::EmulatedSwitch {
  Switch()
      : EmulatedSwitch(Platform::sonic, "sonic.py", {"Ethernet0", "Ethernet8"},
                       R"({"Ethernet0": {"speed": "400G", "oper": "up", "lldp": ["host1", "ens1f0np0"]},
                           "Ethernet8": {"speed": "400G", "lldp": ["host2", "ens1f0np0"]}})") {}
};

/// Whether a CONFIG_DB file holds fabricctl's maps (named ROCE; the factory's are AZURE).
bool has_roce_maps(const std::string& db) { return db.find(R"("ROCE": {)") != std::string::npos; }

using test::id_with_timer;

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
  CHECK(has_roce_maps(sw.file("config_db.json")));
  CHECK_FALSE(has_roce_maps(sw.file("saved.json")));  // not saved before verify
  CHECK(sw.run(steps.rollback) == "");
  CHECK(sw.mtu("Ethernet0") == 9100);
  CHECK(sw.file("config_db.json") == factory);
  CHECK(sw.change().text == c.text);
  CHECK_FALSE(std::filesystem::exists(sw.state() / "timers" / "fabricctl-20261203T120000-a1b2c3.json"));
}

TEST_CASE(
    "sonic transaction: unconfirmed, the switch's timer reverts by itself; confirmed, the change stays and is saved") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(300));
  CHECK(sw.run(steps.stage) == "");
  CHECK(sw.change().empty());
  CHECK(sw.timer_armed());
  sw.fire_timers();  // nobody confirms: fabricctl was killed, the window passed
  CHECK(sw.change().text == c.text);
  CHECK_FALSE(has_roce_maps(sw.file("config_db.json")));  // the maps went back too
  // A confirm that comes too late fails: the timer has fired and is gone.
  CHECK(sw.run(steps.confirm).find("disarm the revert timer: exited with status 5") == 0);
  CHECK(sw.run(steps.rollback) == "");

  const TransactionSteps again = sw.applier.steps(sw.device, c, id_with_timer(300));
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
  CHECK_FALSE(sw.timer_armed());
  sw.fire_timers();  // the window passes: nothing is left to revert
  CHECK(sw.change().empty());
  CHECK(has_roce_maps(sw.file("saved.json")));
  CHECK_FALSE(std::filesystem::exists(sw.state() / "checkpoints" / "fabricctl-20261203T120000-a1b2c3.cp.json"));
}

TEST_CASE("sonic transaction: 202305 to 202505 on a HWSKU GCU's validators do not list: the first apply converges") {
  // GCU's field validators (tests/lab/emulators/sonic_gcu.py) refuse WRED_PROFILE entries on these
  // releases and PFC_WD on an unlisted HWSKU, in apply-patch and in rollback alike.
  for (const char* build : {"20230531.22", "202311.4-1a2b3c4d", "202411.9-5e6f7a8b", "202505.2-9c0d1e2f"}) {
    CAPTURE(build);
    Switch sw;
    if (!sw.up()) return;
    test::spit(sw.state() / "version.json",
               std::string(R"({"build_version": ")") + build + R"(", "asic_type": "broadcom"})");
    nlohmann::json db = nlohmann::json::parse(sw.file("config_db.json"));
    db["DEVICE_METADATA"]["localhost"]["hwsku"] = "Accton-AS9726-32D";
    test::spit(sw.state() / "config_db.json", db.dump(4));
    const std::string factory = sw.file("config_db.json");
    const NativeChange c = sw.change();

    // What fabricctl sent before: only the maps by config load, the rest through apply-patch. Refused.
    nlohmann::json rest = nlohmann::json::array();
    for (const auto& op : nlohmann::json::parse(c.payload))
      if (op["path"].get<std::string>().find("_MAP/") == std::string::npos) rest.push_back(op);
    const std::string old_path = sw.run({{"apply the patch", "sudo config apply-patch /dev/stdin", rest.dump()}});
    CHECK(old_path.find("table is illegal- validating function") != std::string::npos);
    CHECK(sw.file("config_db.json") == factory);

    const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(300));
    CHECK(sw.run(steps.stage) == "");
    CHECK(sw.change().empty());  // converged
    CHECK(sw.run(steps.rollback) == "");
    CHECK(sw.file("config_db.json") == factory);
    CHECK(sw.run(steps.stage) == "");
    sw.fire_timers();  // and the switch's own timer puts it back the same way
    CHECK(sw.file("config_db.json") == factory);
    CHECK(sw.run(steps.rollback) == "");  // after the timer: nothing left to undo
  }
}

TEST_CASE("sonic transaction: a failing step is named; rollback after a partial stage leaves the switch as it was") {
  Switch sw;
  if (!sw.up()) return;
  const std::string factory = sw.file("config_db.json");
  const NativeChange c = sw.change();
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(60));
  test::spit(
      sw.state() / "answers.json",
      R"({"sudo systemd-run*": {"stderr": "Failed to start transient timer unit: Access denied\n", "exit": 1}})");
  CHECK(sw.run(steps.stage) ==
        "arm the revert timer for 60s: exited with status 1: Failed to start transient timer unit: Access denied");
  CHECK(sw.run(steps.rollback) == "");  // no timer to stop, nothing applied: nothing to undo
  CHECK(sw.file("config_db.json") == factory);
  std::filesystem::remove(sw.state() / "answers.json");

  // The whole patch through apply-patch, the maps included, is what GCU refuses: the split is needed.
  RemoteStep whole{"apply the patch", "sudo config apply-patch /dev/stdin", c.payload};
  const std::string why = sw.run({whole});
  CHECK(why.find("apply the patch: exited with status 2: Error: Modification of ") == 0);
  // A value out of GCU's YANG range is refused, whole: nothing of the patch is applied.
  RemoteStep bad{"apply the patch", "sudo config apply-patch /dev/stdin",
                 R"([{"op": "replace", "path": "/PORT/Ethernet0/mtu", "value": "99999"}])"};
  CHECK(sw.run({bad}).find("68..9216") != std::string::npos);
  CHECK(sw.file("config_db.json") == factory);
}

TEST_CASE(
    "sonic transaction: running and startup never disagree: save is confirm's last failure, rollback restores startup") {
  Switch sw;
  if (!sw.up()) return;
  const TransactionSteps steps = sw.applier.steps(sw.device, sw.change(), id_with_timer(60));
  REQUIRE(sw.run(steps.stage) == "");
  // A tidy step that fails after the save is no failure of the confirm: the change is running and saved.
  test::spit(sw.state() / "answers.json",
             R"({"sudo config delete-checkpoint*": {"stderr": "Error: checkpoint is busy\n", "exit": 1}})");
  CHECK(sw.run(steps.confirm) == "");
  CHECK(has_roce_maps(sw.file("config_db.json")));
  CHECK(has_roce_maps(sw.file("saved.json")));
  std::filesystem::remove(sw.state() / "answers.json");

  // A second switch: the save ran, then the run failed (as a confirm whose save reported an error after
  // writing): the rollback puts back running and startup both.
  Switch other;
  if (!other.up()) return;
  const std::string factory = other.file("config_db.json"), saved = other.file("saved.json");
  const TransactionSteps s2 = other.applier.steps(other.device, other.change(), id_with_timer(60));
  REQUIRE(other.run(s2.stage) == "");
  REQUIRE(other.run({s2.confirm[0], s2.confirm[1]}) == "");
  CHECK(has_roce_maps(other.file("saved.json")));
  CHECK(other.run(s2.rollback) == "");
  CHECK(other.file("config_db.json") == factory);
  CHECK(other.file("saved.json") == saved);
  CHECK_FALSE(has_roce_maps(other.file("saved.json")));
}

TEST_CASE("sonic transaction: the traditional model's template PG goes when it is no longer lossless, and comes back") {
  // The factory switch: its template made PGs 3-4 lossless (buffers_config.j2, qos_config.j2) and
  // buffermgrd wrote "<port>|3-4" (the emulator models buffermgr.cpp); the profile makes only 3
  // lossless. buffermgrd writes "Ethernet0|3" from the new pfc_enable but never deletes
  // "Ethernet0|3-4": fabricctl must, or PG 4 keeps its headroom and the two entries overlap on PG 3.
  Switch sw;
  if (!sw.up()) return;
  const std::string before = sw.file("config_db.json");
  CHECK(nlohmann::json::parse(before)["BUFFER_PG"]["Ethernet0|3-4"]["profile"] == "pg_lossless_400000_300m_profile");
  REQUIRE(sw.device.qos.lossless_priorities() == std::vector<int>{3});

  const NativeChange c = sw.change();
  const TransactionSteps steps = sw.applier.steps(sw.device, c, id_with_timer(300));
  CHECK(sw.run(steps.stage) == "");
  const nlohmann::json pgs = nlohmann::json::parse(sw.file("config_db.json"))["BUFFER_PG"];
  CHECK(pgs == nlohmann::json{{"Ethernet0|0", {{"profile", "ingress_lossy_profile"}}},
                              {"Ethernet0|3", {{"profile", "pg_lossless_400000_5m_profile"}}},
                              {"Ethernet8|0", {{"profile", "ingress_lossy_profile"}}},
                              {"Ethernet8|3", {{"profile", "pg_lossless_400000_5m_profile"}}}});
  CHECK(sw.change().empty());  // converged: a second apply sends nothing
  CHECK(sw.run(steps.rollback) == "");
  CHECK(sw.file("config_db.json") == before);  // the template's PG back, buffermgrd's "3" gone with the rollback
}

TEST_CASE("sonic transaction: the updater's dry run judges the patch and changes nothing") {
  Switch sw;
  if (!sw.up()) return;
  const TransactionSteps first = sw.applier.steps(sw.device, sw.change(), id_with_timer(300));
  REQUIRE(sw.run(first.stage) == "");
  REQUIRE(sw.run(first.confirm) == "");
  sw.device.ports[0].mtu = 9000;
  const NativeChange c = sw.change();
  const std::vector<RemoteStep> dry = sw.applier.check(sw.device, c, {});
  REQUIRE(dry.size() == 2);  // the revert timers (none armed), then the dry run
  const std::string before = sw.file("config_db.json");
  CHECK(sw.run(dry) == "");
  CHECK(sw.file("config_db.json") == before);
  CHECK(sw.mtu("Ethernet0") == 9100);
  // What the updater refuses, its dry run refuses the same way, and still writes nothing.
  NativeChange bad = c;
  bad.payload = R"([{"op": "replace", "path": "/PORT/Ethernet0/mtu", "value": "99999"}])";
  const std::string why = sw.run(sw.applier.check(sw.device, bad, {}));
  CHECK(why.find("the config updater's dry run of the patch: exited with status 2: ") == 0);
  CHECK(why.find("68..9216") != std::string::npos);
  CHECK(sw.file("config_db.json") == before);
}

TEST_SUITE("external") {
  // GCU validates every state its patch sorter passes through against SONiC's YANG models, and a
  // switch's CONFIG_DB that names a map it no longer has is one its next apply-patch or rollback may
  // not get out of. So no step of a stage or a rollback may leave one: each state the switch passes
  // through is checked with SONiC's own models (shared/tools/sonic-yang-check), and so is the revert
  // order fabricctl used before (the maps it created deleted before the rollback re-bound the ports),
  // which must fail the same check.
  TEST_CASE("sonic transaction: every state a stage and a rollback pass through is valid for SONiC's YANG") {
    const std::filesystem::path checker = test::shared_path("tools/sonic-yang-check");
    if (!test::shared_available(checker)) return;
    Switch sw;
    if (!sw.up()) return;
    const auto invalid = [&] {  // "" when the running CONFIG_DB is valid, else the checker's verdict
      auto out = run_command({"/usr/bin/python3", checker.string(), (sw.state() / "config_db.json").string()});
      return out ? std::string() : out.error();
    };
    const auto each_valid = [&](const std::vector<RemoteStep>& steps) {
      for (const RemoteStep& s : steps) {
        CAPTURE(s.what);
        REQUIRE(sw.run({s}) == "");
        CHECK(invalid() == "");
      }
    };
    REQUIRE(invalid() == "");
    const TransactionSteps steps = sw.applier.steps(sw.device, sw.change(), id_with_timer(300));
    each_valid(steps.stage);
    each_valid(steps.rollback);
    CHECK_FALSE(has_roce_maps(sw.file("config_db.json")));

    // The old order: both loads before the rollback. Deleting the maps leaves the ports naming them.
    REQUIRE(sw.run(steps.stage) == "");
    std::vector<RemoteStep> old = steps.rollback;
    const auto by_what = [&](std::string_view what) {
      return std::find_if(old.begin(), old.end(), [&](const RemoteStep& s) { return s.what.find(what) == 0; });
    };
    std::iter_swap(by_what("roll CONFIG_DB back"), by_what("delete the entries config load created"));
    std::string first_invalid;  // the step after which the running CONFIG_DB was invalid
    for (const RemoteStep& s : old) {
      sw.run({s});
      if (!invalid().empty()) {
        first_invalid = s.what;
        break;
      }
    }
    CHECK(first_invalid == "delete the entries config load created");
  }
}

TEST_CASE("sonic transaction: the switch is locked: a second transaction that passed its check stops unchanged") {
  Switch sw;
  if (!sw.up()) return;
  const NativeChange c = sw.change();
  const TransactionSteps a = sw.applier.steps(sw.device, c, id_with_timer(60, "aaaaaa"));
  const TransactionSteps b = sw.applier.steps(sw.device, c, id_with_timer(60, "bbbbbb"));
  // Both checked while the switch was idle; A then staged before B.
  REQUIRE(sw.run(sw.applier.check(sw.device, c, {})) == "");
  REQUIRE(sw.run(a.stage) == "");
  const std::string staged = sw.file("config_db.json"), saved = sw.file("saved.json");
  CHECK(sw.run(b.stage) ==
        "another fabricctl transaction is in flight on the switch (revert timers armed: "
        "fabricctl-20261203T120000-aaaaaa.timer, fabricctl-20261203T120000-bbbbbb.timer); nothing was changed, "
        "and this transaction's timer is stopped by its rollback");
  CHECK_FALSE(std::filesystem::exists(sw.state() / "tmp" / "fabricctl-20261203T120000-bbbbbb.restore.json"));
  // B's release undoes only B: its timer stopped; A's change, its timer and its files stay.
  CHECK(b.changes == 5);
  CHECK(sw.run(b.release) == "");
  CHECK(sw.file("config_db.json") == staged);
  CHECK(sw.file("saved.json") == saved);
  CHECK(std::filesystem::exists(sw.state() / "timers" / "fabricctl-20261203T120000-aaaaaa.json"));
  CHECK_FALSE(std::filesystem::exists(sw.state() / "timers" / "fabricctl-20261203T120000-bbbbbb.json"));
  // A is not disturbed: it confirms, and the switch is free again.
  CHECK(sw.run(a.confirm) == "");
  CHECK(has_roce_maps(sw.file("saved.json")));
  CHECK(sw.run(sw.applier.check(sw.device, sw.change(), {})) == "");
}
