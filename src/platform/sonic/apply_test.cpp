// The SONiC write side, pure: the patch from what collect read (full on a factory-default switch,
// empty on one that holds the rendered configuration, one operation for one setting off, an error on
// garbage), how the transaction splits it (the maps GCU refuses by `config load`, the rest by
// `config apply-patch`), the steps' shape and how their outputs are judged.
#include <doctest/doctest.h>

#include "platform/platform.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/config_db_patch.h"
#include "platform/sonic/default_config_db.h"
#include "platform/sonic/test_support.h"

using namespace fabricctl;
using nlohmann::ordered_json;

namespace {

/// runningconfiguration.json as the collector keeps it for a switch whose CONFIG_DB is `db`.
RawOutputs raw_of(const ordered_json& db) {
  const Collector c = adapter(Platform::sonic).collector;
  return {{"runningconfiguration.json", c.commands.front().keep(db.dump())}};
}

/// What tests/lab/emulators/sonic.py --factory holds: PORT at the preset's MTU, no QoS tables; and a
/// secret, which must not matter.
ordered_json factory_db() {
  return ordered_json::parse(R"({
    "DEVICE_METADATA": {"localhost": {"hostname": "sonic", "buffer_model": "traditional"}},
    "TACPLUS_SERVER": {"10.0.0.9": {"passkey": "s3cret"}},
    "PORT": {"Ethernet0": {"admin_status": "up", "mtu": "9100", "speed": "400000"},
             "Ethernet8": {"admin_status": "up", "mtu": "9100", "speed": "400000"}}})");
}

NativeChange change_of(const DeviceDesired& d, const ordered_json& db) {
  auto c = adapter(Platform::sonic).applier.change(d, raw_of(db));
  REQUIRE_MESSAGE(c, c.error());
  return *c;
}

TransactionId id_of(int seconds) {
  TransactionId id;
  id.name = "fabricctl-20261203T120000-a1b2c3";
  id.confirm_timeout_s = seconds;
  return id;
}

const RemoteStep* step(const std::vector<RemoteStep>& steps, std::string_view command_start) {
  for (const RemoteStep& s : steps)
    if (s.command.rfind(command_start, 0) == 0) return &s;
  return nullptr;
}

/// CONFIG_DB after the stage steps' `config load` and `config apply-patch`, as SONiC applies them.
ordered_json staged(ordered_json db, const TransactionSteps& s) {
  if (const RemoteStep* load = step(s.stage, "sudo config load -y /dev/stdin"))
    db = sonic::testing::load_config(db, ordered_json::parse(load->input));
  if (const RemoteStep* patch = step(s.stage, "sudo config apply-patch /dev/stdin"))
    db = sonic::testing::applied(db, ordered_json::parse(patch->input));
  return db;
}

}  // namespace

TEST_CASE("sonic apply: a factory-default switch gets the whole slice, the maps by config load; then nothing") {
  const DeviceDesired d = sonic::testing::fixture();
  const NativeChange c = change_of(d, factory_db());
  REQUIRE_FALSE(c.empty());
  CHECK(c.payload == c.text);
  CHECK(c.base.find("s3cret") == std::string::npos);
  const TransactionSteps s = adapter(Platform::sonic).applier.steps(d, c, id_of(300));
  const RemoteStep* load = step(s.stage, "sudo config load -y /dev/stdin");
  const RemoteStep* patch = step(s.stage, "sudo config apply-patch /dev/stdin");
  REQUIRE(load != nullptr);
  REQUIRE(patch != nullptr);
  // The tables GCU refuses never reach apply-patch; they are the load file's, whole.
  for (const char* t : {"DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP", "TC_TO_PRIORITY_GROUP_MAP"}) {
    CAPTURE(t);
    CHECK(patch->input.find(std::string("\"/") + t) == std::string::npos);
    CHECK(ordered_json::parse(load->input)[t]["ROCE"].size() == (std::string(t) == "DSCP_TO_TC_MAP" ? 64U : 8U));
  }
  // The maps as they were, for the revert: the switch had none.
  const RemoteStep* before = step(s.stage, "sudo tee ");
  REQUIRE(before != nullptr);
  CHECK(ordered_json::parse(before->input)["DSCP_TO_TC_MAP"]["ROCE"].is_null());

  const ordered_json after = staged(factory_db(), s);
  sonic::testing::check_holds(after, sonic::config_db(d));
  CHECK(change_of(d, after).empty());  // a second apply changes nothing
}

TEST_CASE("sonic apply: a switch holding the rendered config has no change; unrelated config does not move the base") {
  const DeviceDesired d = sonic::testing::fixture();
  const ordered_json rendered = sonic::testing::load_config(sonic::default_config_db(d), sonic::config_db(d));
  const NativeChange c = change_of(d, rendered);
  CHECK(c.empty());
  CHECK(c.payload.empty());
  CHECK(adapter(Platform::sonic).applier.steps(d, c, id_of(300)).stage.empty());
  ordered_json with_syslog = rendered;
  with_syslog["SYSLOG_SERVER"] = {{"10.0.0.5", ordered_json::object()}};
  CHECK(change_of(d, with_syslog).base == c.base);
  CHECK_FALSE(c.base.empty());
}

TEST_CASE("sonic apply: one setting off is one operation, through apply-patch or config load by its table") {
  const DeviceDesired d = sonic::testing::fixture();
  ordered_json db = sonic::testing::load_config(sonic::default_config_db(d), sonic::config_db(d));
  db["PORT"]["Ethernet8"]["mtu"] = "1500";
  const NativeChange mtu = change_of(d, db);
  CHECK(ordered_json::parse(mtu.text) ==
        ordered_json::parse(R"([{"op": "replace", "path": "/PORT/Ethernet8/mtu", "value": "9100"}])"));
  const TransactionSteps ms = adapter(Platform::sonic).applier.steps(d, mtu, id_of(300));
  CHECK(step(ms.stage, "sudo config load -y /dev/stdin") == nullptr);
  CHECK(step(ms.stage, "sudo config apply-patch /dev/stdin") != nullptr);

  db["PORT"]["Ethernet8"]["mtu"] = "9100";
  db["DSCP_TO_TC_MAP"]["ROCE"]["26"] = "1";
  const NativeChange map = change_of(d, db);
  // fabricctl's map entries are replaced whole (config_db_patch.h): one operation, the entry.
  const ordered_json ops = ordered_json::parse(map.text);
  REQUIRE(ops.size() == 1);
  CHECK(ops[0]["op"] == "replace");
  CHECK(ops[0]["path"] == "/DSCP_TO_TC_MAP/ROCE");
  const TransactionSteps s = adapter(Platform::sonic).applier.steps(d, map, id_of(300));
  CHECK(step(s.stage, "sudo config apply-patch /dev/stdin") == nullptr);
  const RemoteStep* load = step(s.stage, "sudo config load -y /dev/stdin");
  REQUIRE(load != nullptr);
  CHECK(ordered_json::parse(load->input)["DSCP_TO_TC_MAP"]["ROCE"]["26"] == "3");  // the entry whole
  CHECK(ordered_json::parse(step(s.stage, "sudo tee ")->input)["DSCP_TO_TC_MAP"]["ROCE"]["26"] == "1");
  CHECK(change_of(d, staged(db, s)).empty());

  // A map field the patch would remove cannot go by config load: refused, not half done.
  db["DSCP_TO_TC_MAP"]["ROCE"]["26"] = "3";
  db["DSCP_TO_TC_MAP"]["ROCE"]["64"] = "0";
  auto bad = adapter(Platform::sonic).applier.change(d, raw_of(db));
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == "the patch replaces /DSCP_TO_TC_MAP/ROCE, whose field 64 `config load` cannot remove");
}

TEST_CASE("sonic apply: garbage or a missing output is an error") {
  const DeviceDesired d = sonic::testing::fixture();
  const Applier a = adapter(Platform::sonic).applier;
  for (const char* text : {"", "not json", "[1, 2]", "\"PORT\""}) {
    CAPTURE(text);
    auto c = a.change(d, {{"runningconfiguration.json", text}});
    REQUIRE_FALSE(c);
    CHECK(c.error() == "show runningconfiguration all: not a CONFIG_DB JSON object");
  }
  auto none = a.change(d, {});
  REQUIRE_FALSE(none);
  CHECK(none.error() == "no runningconfiguration.json was collected");
  // A multi-ASIC switch's CONFIG_DB per namespace: refused, not read as tables named localhost and asic0.
  // The collector keeps only the namespaces' names (their tables may hold anything).
  const RawOutputs raw = raw_of(ordered_json::parse(
      R"({"localhost": {"PORT": {}, "TACACS_SERVER": {"x": {"passkey": "secret"}}}, "asic0": {"PORT": {}}})"));
  CHECK(raw.at("runningconfiguration.json").find("secret") == std::string::npos);
  const auto multi = a.change(d, raw);
  REQUIRE_FALSE(multi);
  CHECK(multi.error().starts_with("a multi-ASIC switch"));
  const auto seen = adapter(Platform::sonic)
                        .collector.observe("leaf1", {{"runningconfiguration.json", raw.at("runningconfiguration.json")},
                                                     {"interfaces-status.txt", ""},
                                                     {"lldp-table.txt", ""}});
  REQUIRE_FALSE(seen);
  CHECK(seen.error().find("a multi-ASIC switch") != std::string::npos);
  // Tables of the wrong shape do not crash the diff.
  CHECK(a.change(d, raw_of(ordered_json::parse(R"({"PORT": "x", "QUEUE": [1], "PFC_WD": {"GLOBAL": 3}})"))));
}

TEST_CASE("sonic apply: steps arm the switch's timer in stage, quote every value, save only on confirm") {
  const DeviceDesired d = sonic::testing::fixture();
  const NativeChange c = change_of(d, factory_db());
  TransactionSteps s = adapter(Platform::sonic).applier.steps(d, c, id_of(120));
  // A factory switch: every loaded entry is created, before the checkpoint; nothing is changed or removed.
  REQUIRE(s.stage.size() == 8);
  // The revert timer first, then the lock: that timer is the only one armed; only then the files.
  CHECK(s.arms == 0);
  CHECK(s.stage[0].command ==
        "sudo systemd-run --on-active=120s --timer-property=RemainAfterElapse=no "
        "--unit='fabricctl-20261203T120000-a1b2c3' sh -c 'config load -y "
        "/tmp/fabricctl-20261203T120000-a1b2c3.restore.json; config rollback fabricctl-20261203T120000-a1b2c3 && "
        "config load -y /tmp/fabricctl-20261203T120000-a1b2c3.created.json && config delete-checkpoint "
        "fabricctl-20261203T120000-a1b2c3'");
  CHECK(s.stage[1].command == "sudo systemctl list-units --type=timer --all --plain --no-legend 'fabricctl-*'");
  s.stage.erase(s.stage.begin(), s.stage.begin() + 2);
  CHECK(s.stage[0].command == "sudo tee '/tmp/fabricctl-20261203T120000-a1b2c3.restore.json'");
  CHECK(s.stage[0].input == "{}\n");
  CHECK(s.stage[1].command == "sudo tee '/tmp/fabricctl-20261203T120000-a1b2c3.created.json'");
  CHECK(s.stage[1].input.find("\"ROCE_LOSSLESS\": null") != std::string::npos);
  // The startup configuration, kept before anything changes: a rollback after confirm's save puts it back.
  CHECK(s.stage[2].command ==
        "sudo cp -p /etc/sonic/config_db.json '/tmp/fabricctl-20261203T120000-a1b2c3.startup.json'");
  CHECK(s.stage[3].command == "sudo config load -y /dev/stdin");
  for (const std::string_view t : {"DSCP_TO_TC_MAP", "WRED_PROFILE", "PFC_WD"})
    CHECK(s.stage[3].input.find(std::string(t)) != std::string::npos);
  CHECK(s.stage[4].command == "sudo config checkpoint 'fabricctl-20261203T120000-a1b2c3'");
  CHECK(s.stage[5].command == "sudo config apply-patch /dev/stdin");
  for (const std::string_view t : {"DSCP_TO_TC_MAP", "WRED_PROFILE", "PFC_WD"})
    CHECK(s.stage[5].input.find(std::string(t)) == std::string::npos);
  for (const RemoteStep& r : s.confirm)
    CHECK(r.command.find("config save") == (&r == &s.confirm[1] ? 5 : std::string::npos));
  CHECK(s.confirm[0].command == "sudo systemctl stop 'fabricctl-20261203T120000-a1b2c3.timer'");
  // The save is the last step that can fail: what follows it only tidies, and its failure is none.
  const Applier a = adapter(Platform::sonic).applier;
  REQUIRE(s.confirm.size() == 4);
  for (size_t i = 2; i < s.confirm.size(); ++i) CHECK(a.failure(s.confirm[i], {1, "", "Error: busy\n"}).empty());
  CHECK_FALSE(a.failure(s.confirm[1], {1, "", "Error: disk full\n"}).empty());
  CHECK(s.confirm[3].command.find("'/tmp/fabricctl-20261203T120000-a1b2c3.startup.json'") != std::string::npos);
  REQUIRE(s.rollback.size() == 7);
  CHECK(s.rollback[4].command ==
        "sudo cp '/tmp/fabricctl-20261203T120000-a1b2c3.startup.json' /etc/sonic/config_db.json");
  CHECK(a.failure(s.rollback[4], {1, "", "cp: cannot stat '/tmp/x.startup.json': No such file or directory\n"})
            .empty());                                   // a stage that stopped before the copy: nothing to restore
  CHECK(s.rollback[0].command == s.confirm[0].command);  // the timer first: GCU has no lock
  CHECK(s.rollback[1].command == "sudo config load -y '/tmp/fabricctl-20261203T120000-a1b2c3.restore.json'");
  CHECK(s.rollback[2].command == "sudo config rollback 'fabricctl-20261203T120000-a1b2c3'");
  CHECK(s.rollback[3].command == "sudo config load -y '/tmp/fabricctl-20261203T120000-a1b2c3.created.json'");
  // A name that is not fabricctl's form gets no steps at all.
  TransactionId bad = id_of(120);
  bad.name = "x; reboot";
  CHECK(adapter(Platform::sonic).applier.steps(d, c, bad).stage.empty());
}

TEST_CASE("sonic apply: failure() reads GCU's and click's errors, and what rollback may meet after a partial stage") {
  const DeviceDesired d = sonic::testing::fixture();
  const Applier a = adapter(Platform::sonic).applier;
  const TransactionSteps s = a.steps(d, change_of(d, factory_db()), id_of(60));
  const RemoteStep& patch = s.stage[7];
  CHECK(a.failure(patch, {0, "Patch applied successfully.\n", ""}) == "");
  CHECK(a.failure(patch, {2, "",
                          "Failed to apply patch due to: Modification of DSCP_TO_TC_MAP table is illegal\n"
                          "Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH\n\nError: Modification ...\n"}) ==
        "apply the patch: exited with status 2: Failed to apply patch due to: Modification of DSCP_TO_TC_MAP table "
        "is illegal");
  // From 202405, GCU's reason is on its scope's line.
  CHECK(a.failure(patch, {2, "",
                          "Failed to apply patch due to: Failed to apply patch on the following scopes:\n"
                          "- localhost: Modification of PFC_WD table is illegal- validating function x returned False\n"
                          "Usage: config apply-patch [OPTIONS] PATCH_FILE_PATH\n\nError: Failed to apply patch on "
                          "the following scopes:\n- localhost: Modification ...\n"}) ==
        "apply the patch: exited with status 2: - localhost: Modification of PFC_WD table is illegal- validating "
        "function x returned False");
  const RemoteStep& load = s.stage[5];
  CHECK(a.failure(load, {0, "The config_db file /dev/stdin doesn't exist\n", ""}) ==
        "create the entries GCU refuses (config load), before the checkpoint: The config_db file /dev/stdin doesn't "
        "exist");
  // Stage's lock: this transaction's timer the only one listed; another armed, or none, stops it.
  const RemoteStep& lock = s.stage[1];
  const std::string ours = "fabricctl-20261203T120000-a1b2c3.timer loaded active waiting /bin/sh -c x\n";
  const std::string theirs = "fabricctl-20261203T115900-ffffff.timer loaded active waiting /bin/sh -c y\n";
  CHECK(a.failure(lock, {0, ours, ""}) == "");
  CHECK(a.failure(lock, {0, theirs + ours, ""}) ==
        "another fabricctl transaction is in flight on the switch (revert timers armed: "
        "fabricctl-20261203T115900-ffffff.timer, fabricctl-20261203T120000-a1b2c3.timer); nothing was changed, and "
        "this transaction's timer is stopped by its rollback");
  CHECK(a.failure(lock, {0, "", ""}).find("the timer armed by the step before is not listed") != std::string::npos);
  CHECK(a.failure(lock, {1, ours, "Failed to connect to bus\n"}).find("exited with status 1") != std::string::npos);
  // Rollback after only the checkpoint ran: no timer, no maps file; after nothing ran: no checkpoint.
  const std::string not_loaded = "Failed to stop x.timer: Unit x.timer not loaded.\n";
  CHECK(a.failure(s.rollback[0], {5, "", not_loaded}) == "");
  CHECK(a.failure(s.rollback[1], {0, "The config_db file /tmp/x doesn't exist\n", ""}) == "");
  CHECK(a.failure(s.rollback[3], {0, "The config_db file /tmp/x doesn't exist\n", ""}) == "");
  CHECK(a.failure(s.rollback[2], {2, "", "Failed to rollback config\nError: Checkpoint 'x' does not exist\n"}) == "");
  CHECK(a.failure(s.rollback[2], {2, "", "Failed to rollback config\nError: after applying patch ...\n"}) ==
        "roll CONFIG_DB back to the checkpoint: exited with status 2: Error: after applying patch ...");
  // On confirm, a timer that is gone has fired: the change was reverted, and confirm must say so.
  CHECK(a.failure(s.confirm[0], {5, "", not_loaded}) ==
        "disarm the revert timer: exited with status 5: Failed to stop x.timer: Unit x.timer not loaded.");
  CHECK(a.failure(s.confirm[0], {1, "", "\x1b[31mbad\x07\n"}).find('\x1b') == std::string::npos);
}

TEST_CASE("sonic apply: the collector keeps every table the patch can touch") {
  ordered_json db = ordered_json::object();
  for (const std::string_view t : sonic::patched_tables()) db[std::string(t)] = {{"k", {{"f", "v"}}}};
  const ordered_json kept = ordered_json::parse(adapter(Platform::sonic).collector.commands.front().keep(db.dump()));
  for (const std::string_view t : sonic::patched_tables()) {
    CAPTURE(std::string(t));
    CHECK(kept.contains(std::string(t)));
  }
}

TEST_CASE("sonic plan: the notes name the image and each part's command; the dry run only where it can judge") {
  const DeviceDesired d = sonic::testing::fixture();
  const Applier a = adapter(Platform::sonic).applier;
  // A first apply: config load creates the maps and WRED profiles the patch then binds, which the
  // updater's dry run (run against the running CONFIG_DB) cannot see, so there is none.
  RawOutputs raw = raw_of(factory_db());
  raw["version.txt"] = "SONiC Software Version: SONiC.202505.2-9c0d1e2f\nHwSKU: Force10-S6000\nASIC: broadcom\n";
  auto first = a.change(d, raw);
  REQUIRE(first);
  REQUIRE(first->notes.size() == 5);
  CHECK(first->notes[0] == "image: SONiC.202505.2-9c0d1e2f (202505), HwSKU Force10-S6000, ASIC broadcom");
  CHECK(first->notes[1] == "GCU refuses WRED_PROFILE entries on 202505 (only green thresholds may be replaced)");
  CHECK(first->notes[2].starts_with("config load, on every release (GCU's validators refuse some of it on most): "));
  CHECK(first->notes[2].find("WRED_PROFILE") != std::string::npos);
  CHECK(first->notes[2].find("PFC_WD") != std::string::npos);
  CHECK(first->notes[3].starts_with("config apply-patch: "));
  CHECK(first->notes[3].find("PORT_QOS_MAP") != std::string::npos);
  CHECK(first->notes[4].starts_with("no dry run: "));
  // No dry run; the revert timers are read all the same (a transaction in flight).
  REQUIRE(a.check(d, *first, {}).size() == 1);
  CHECK(a.check(d, *first, {})[0].command ==
        "sudo systemctl list-units --type=timer --all --plain --no-legend 'fabricctl-*'");

  // Only the MTU off: the whole change is the patch, and the dry run judges exactly it.
  ordered_json db = staged(factory_db(), a.steps(d, *first, id_of(60)));
  db["PORT"]["Ethernet0"]["mtu"] = "1500";
  raw = raw_of(db);
  raw["version.txt"] = "SONiC Software Version: SONiC.master.123-abcdef\nHwSKU: Force10-S6000\nASIC: broadcom\n";
  const NativeChange mtu = change_of(d, db);
  CHECK(mtu.notes == std::vector<std::string>{"config apply-patch: PORT"});  // no version.txt read: no image line
  const auto noted = a.change(d, raw);
  REQUIRE(noted);
  CHECK(noted->notes[1] == "GCU has no WRED_PROFILE validator on master");
  std::vector<RemoteStep> dry = a.check(d, mtu, {});
  REQUIRE(dry.size() == 2);
  dry.erase(dry.begin());  // the revert timers, read first
  CHECK(dry[0].command == "sudo config apply-patch -d /dev/stdin");
  CHECK(ordered_json::parse(dry[0].input) ==
        ordered_json::parse(step(a.steps(d, mtu, id_of(60)).stage, "sudo config apply-patch /dev/stdin")->input));

  // An image fabricctl cannot read is said so; the plan goes on.
  raw["version.txt"] = "SONiC Software Version: 4.2\n";
  CHECK(a.change(d, raw)->notes[0] ==
        "image: unknown (show version: software version \"4.2\" is not SONiC.<build version>)");
}
