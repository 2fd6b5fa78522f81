// SONiC write side: the RFC 6902 patch from the running CONFIG_DB to fabricctl's slice
// (config_db_patch.h), and SONiC's transaction around it (docs/transactions-sonic.md). SONiC has no
// commit-confirm (switch-nos.md "Transactions"), so fabricctl builds one from GCU's checkpoint and
// rollback and a transient systemd timer on the switch:
//
//   stage     sudo systemd-run --on-active=Ns --timer-property=RemainAfterElapse=no --unit=NAME
//                  sh -c 'config load -y R; config rollback NAME && config load -y C && config
//                  delete-checkpoint NAME'              the revert timer, on the switch; unloaded once
//                                                         it has fired, so a late confirm fails
//             sudo systemctl list-units ... 'fabricctl-*' the lock: only this transaction's timer armed
//             sudo tee /tmp/NAME.restore.json             entries and fields config load changes, as they were
//             sudo tee /tmp/NAME.created.json             entries config load creates, as nulls
//             sudo cp -p /etc/sonic/config_db.json /tmp/NAME.startup.json   startup, for rollback
//             sudo config load -y /dev/stdin              create what GCU may refuse, before the checkpoint
//             sudo config checkpoint NAME                 the running CONFIG_DB to go back to
//             sudo config load -y /dev/stdin              change what GCU may refuse
//             sudo config apply-patch /dev/stdin          the rest of the patch
//             sudo config load -y /dev/stdin              delete what GCU may refuse, now unreferenced
//   confirm   sudo systemctl stop NAME.timer              disarm (fails if it already fired)
//             sudo config save -y                         startup = running, only after verify
//             sudo config delete-checkpoint NAME; sudo rm -f the two files
//   rollback  the timer stopped, the changed entries loaded back, config rollback NAME, the created
//             entries deleted, the checkpoint and files removed; each step harmless when stage did not
//             get that far.
//   check     sudo systemctl list-units ... 'fabricctl-*' no fabricctl revert timer armed (in flight)
//             sudo config apply-patch -d /dev/stdin       the updater's dry run of the patch (plan, and
//                                                         before stage), when nothing it refers to is
//                                                         created by config load first
//
// Why the maps go by `config load`: GCU refuses DSCP_TO_TC_MAP, TC_TO_QUEUE_MAP and
// TC_TO_PRIORITY_GROUP_MAP on some platforms ("blocked" in gcu_field_operation_validators.conf.json,
// sonic-utilities PR #4219; Patch Sorter failures), and its rollback is a `config replace` through
// the same validators (generic_updater.py ConfigReplacer -> PatchApplier.apply ->
// validate_field_operation), so the maps are also put back by `config load` before `config rollback`.
// `config load` (sonic-cfggen --write-to-db) merges field by field: an entry given as null is deleted,
// a field is never deleted. fabricctl writes each map entry whole, with every key of its domain (64
// DSCPs, 8 TCs), so no stale field can stay; a map field the patch would have to remove is an error.
//
// Sources (sonic-net/sonic-utilities config/main.py @6a99e07e): `config checkpoint|rollback|
// delete-checkpoint <name>`, `config apply-patch <patch-file-path>` (read with open(): /dev/stdin
// works), `config load [-y] <filename>` (prints "The config_db file ... doesn't exist" and exits 0
// when the file is missing), `config save [-y]`; errors through click's ctx.fail: "Error: ..." on
// stderr, exit status 2; generic_updater.py: "Checkpoint 'NAME' does not exist". systemd-run(1):
// `--on-active=`, `--timer-property=`, `--unit=` makes NAME.timer and NAME.service;
// systemd.timer(5): RemainAfterElapse=no unloads an elapsed timer once its service finished;
// `systemctl stop NAME.timer` of a unit not loaded fails ("Unit NAME.timer not loaded.", status 5).
#include <algorithm>
#include <array>
#include <set>
#include <utility>

#include "platform/cli_text.h"
#include "platform/json_object.h"
#include "platform/json_patch.h"
#include "platform/platform.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/config_db_patch.h"
#include "platform/sonic/config_db_reader.h"
#include "platform/sonic/image.h"
#include "util/escape.h"
#include "util/text.h"

namespace fabricctl {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kRunningConfig = "runningconfiguration.json";
constexpr std::string_view kVersion = "version.txt";

/// The tables changed with `config load` instead of `config apply-patch`. The QoS maps: GCU's Patch
/// Sorter fails on them on some platforms (sonic-utilities PR #4219 lists them "blocked"). WRED_PROFILE
/// and PFC_WD: GCU's field validators refuse the first apply's entries on most releases in the field
/// (docs/sonic-gcu.md): WRED_PROFILE entries on 202205 to 202505 (only a replace of the green
/// thresholds passes), PFC_WD on every HWSKU the validators' lists do not name, and both on an image
/// older than the ASIC's threshold. `config rollback` goes through the same validators, so these
/// tables are also put back by `config load`. They go by `config load` on every release, whatever the
/// image: that path has no validator to refuse it, and one path is one revert to prove. The plan names
/// the image (`show version`) and what its branch's WRED_PROFILE validator does (notes()).
constexpr std::array<std::string_view, 5> kLoadedTables = {"DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP",
                                                           "TC_TO_PRIORITY_GROUP_MAP", "WRED_PROFILE", "PFC_WD"};

bool loaded_table(std::string_view table) {
  return std::find(kLoadedTables.begin(), kLoadedTables.end(), table) != kLoadedTables.end();
}

Expected<ordered_json> running_config(const RawOutputs& raw) {
  const auto it = raw.find(kRunningConfig);
  if (it == raw.end()) return unexpected("no " + std::string(kRunningConfig) + " was collected");
  ordered_json doc = ordered_json::parse(it->second, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return unexpected("show runningconfiguration all: not a CONFIG_DB JSON object");
  for (const auto& [key, value] : doc.items())
    if (sonic::namespace_name(key)) return unexpected(std::string(sonic::kMultiAsic));
  return doc;
}

/// The tables the patch can touch, as the switch holds them: the plan's base.
ordered_json owned_tables(const ordered_json& running) {
  ordered_json out = ordered_json::object();
  for (const std::string_view t : sonic::patched_tables())
    if (const auto it = running.find(std::string(t)); it != running.end()) out[std::string(t)] = *it;
  return out;
}

/// The patch split for the switch. The entries of the loaded tables go by `config load`, which merges
/// field by field (an entry given as null is deleted, a field never is), in the order SONiC's
/// references (YANG leafrefs: PORT_QOS_MAP and QUEUE name maps and WRED profiles) allow, and so that
/// `config rollback` never has to touch them:
/// - `create`: entries the switch lacks, and fields an entry lacks: loaded before the checkpoint, so
///   the rollback leaves them; deleted (`created`) only after the rollback has re-bound the ports;
/// - `change`: fields the switch holds with another value: loaded after the checkpoint, put back
///   (`restore`) before the rollback;
/// - `remove`: entries fabricctl deletes: loaded after apply-patch has un-bound them, put back
///   (`restore`) before the rollback re-binds them;
/// - `patch`: the other operations, for `config apply-patch`.
struct Split {
  ordered_json create = ordered_json::object();
  ordered_json change = ordered_json::object();
  ordered_json remove = ordered_json::object();
  ordered_json restore = ordered_json::object();
  ordered_json created = ordered_json::object();
  ordered_json patch = ordered_json::array();
};

const ordered_json* member(const ordered_json& doc, const std::string& table, const std::string& key) {
  const auto t = doc.find(table);
  if (t == doc.end() || !t->is_object()) return nullptr;
  const auto e = t->find(key);
  return e == t->end() || e->is_null() ? nullptr : &*e;
}

/// Splits one entry of a loaded table that the patch touches into `s`.
Expected<void> split_entry(const std::string& table, const std::string& key, const ordered_json* want,
                           const ordered_json* had, Split& s) {
  if (want == nullptr && had == nullptr) return {};
  if (want == nullptr) {
    s.remove[table][key] = nullptr;
    s.restore[table][key] = *had;
    return {};
  }
  if (had == nullptr || !had->is_object() || !want->is_object()) {
    s.create[table][key] = *want;
    s.created[table][key] = nullptr;
    return {};
  }
  // An entry replaced whole loses the fields desired lacks: `config load` cannot do that.
  if (!sonic::owns_fields_only(table, key))
    for (const auto& field : had->items())
      if (!want->contains(field.key()))
        return unexpected("the patch replaces /" + terminal_line(table) + "/" + terminal_line(key) + ", whose field " +
                          terminal_line(field.key()) + " `config load` cannot remove");
  for (const auto& [field, value] : want->items()) {
    const auto old = had->find(field);
    if (old == had->end()) {
      s.create[table][key][field] = value;
    } else if (*old != value) {
      s.change[table][key][field] = value;
      s.restore[table][key][field] = *old;
    }
  }
  return {};
}

Expected<Split> split(const ordered_json& patch, const ordered_json& desired, const ordered_json& base) {
  Split s;
  std::set<std::pair<std::string, std::string>> done;  // (table, key): one entry, several operations
  for (const ordered_json& op : patch) {
    const std::vector<std::string> tokens = json_pointer_tokens(op.value("path", std::string()));
    if (tokens.empty() || !loaded_table(tokens[0])) {
      s.patch.push_back(op);
      continue;
    }
    const std::string& table = tokens[0];
    std::vector<std::string> keys;
    if (tokens.size() == 1) {  // the whole table: the switch has none of it
      const auto value = op.find("value");
      if (value != op.end() && value->is_object())
        for (const auto& [key, entry] : value->items()) keys.push_back(key);
    } else {
      if (tokens.size() > 2 && op.value("op", "") == "remove")
        return unexpected("the patch removes " + terminal_line(op.value("path", "")) +
                          ", a field `config load` cannot remove");
      keys.push_back(tokens[1]);
    }
    for (const std::string& key : keys) {
      if (!done.emplace(table, key).second) continue;
      if (auto e = split_entry(table, key, member(desired, table, key), member(base, table, key), s); !e)
        return unexpected(e.error());
    }
  }
  return s;
}

/// The tables of `entries` (a config load file) or of `patch` operations, in order, once each.
void add_tables(const ordered_json& entries, std::vector<std::string>& tables) {
  const auto add = [&](const std::string& t) {
    if (std::find(tables.begin(), tables.end(), t) == tables.end()) tables.push_back(t);
  };
  if (entries.is_object())
    for (const auto& [table, _] : entries.items()) add(table);
  else
    for (const ordered_json& op : entries) {
      const std::vector<std::string> tokens = json_pointer_tokens(op.value("path", std::string()));
      if (!tokens.empty()) add(tokens[0]);
    }
}

/// What GCU's WRED_PROFILE validator does on the image's branch (docs/sonic-gcu.md): "" when the
/// branch is unknown.
std::string wred_rule(std::string_view branch) {
  if (branch == "202211" || branch == "master" || branch >= "202511")
    return branch.empty() ? "" : "GCU has no WRED_PROFILE validator on " + std::string(branch);
  if (branch == "202205" || (branch >= "202305" && branch <= "202505"))
    return "GCU refuses WRED_PROFILE entries on " + std::string(branch) + " (only green thresholds may be replaced)";
  return {};
}

/// The plan's notes on a SONiC change: the image, which tables go by which command, and whether the
/// updater's dry run can judge the patch.
std::vector<std::string> notes(const RawOutputs& raw, const Split& s) {
  std::vector<std::string> out;
  if (const auto v = raw.find(kVersion); v != raw.end()) {
    const auto image = sonic::parse_show_version(v->second);
    if (image) {
      out.push_back("image: " + sonic::describe(*image));
      if (std::string rule = wred_rule(image->branch); !rule.empty()) out.push_back(std::move(rule));
    } else {
      out.push_back("image: unknown (" + image.error() + ")");
    }
  }
  std::vector<std::string> loaded, patched;
  for (const ordered_json* part : {&s.create, &s.change, &s.remove}) add_tables(*part, loaded);
  add_tables(s.patch, patched);
  if (!loaded.empty())
    out.push_back("config load, on every release (GCU's validators refuse some of it on most): " + join(loaded, ", "));
  if (!patched.empty()) out.push_back("config apply-patch: " + join(patched, ", "));
  if (!patched.empty() && !s.create.empty())
    out.emplace_back(
        "no dry run: the patch refers to entries stage creates by config load first, which "
        "`config apply-patch -d` cannot see");
  return out;
}

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  auto running = running_config(raw);
  if (!running) return unexpected(running.error());
  const ordered_json base = owned_tables(*running);
  const ordered_json desired = sonic::config_db(device);
  const ordered_json patch = sonic::config_db_patch(base, desired);
  auto s = split(patch, desired, base);
  if (!s) return unexpected(s.error());
  NativeChange c;
  if (!patch.empty()) {
    c.text = c.payload = sonic::dump_config_db(patch);
    c.notes = notes(raw, *s);
  }
  // Keys sorted (nlohmann::json), so that the order SONiC prints in does not count.
  c.base = nlohmann::json(base).dump(4) + "\n";
  return c;
}

/// The parts of a change as stage sends them. A payload that does not split goes to apply-patch whole:
/// GCU then judges it.
Split parts(const DeviceDesired& device, const NativeChange& change) {
  const ordered_json patch = ordered_json::parse(change.payload, nullptr, false);
  const ordered_json base = ordered_json::parse(change.base, nullptr, false);
  if (patch.is_array() && base.is_object())
    if (auto s = split(patch, sonic::config_db(device), base)) return std::move(*s);
  Split whole;
  if (patch.is_array()) whole.patch = patch;
  return whole;
}

/// The updater's dry run of what stage gives `config apply-patch` (GCU's validators and YANG, nothing
/// written), when nothing that patch refers to is created first by `config load`.
constexpr std::string_view kTimersInFlight = "read the revert timers (no fabricctl transaction in flight)";
/// The fabricctl revert timers armed on the switch: read by the check (none) and by stage's lock (its own).
constexpr std::string_view kListTimers =
    "sudo systemctl list-units --type=timer --all --plain --no-legend 'fabricctl-*'";
/// Stage's lock, right after its timer is armed: that timer is the only one.
constexpr std::string_view kOnlyThisInFlight = "lock the switch: this transaction's revert timer is the only one armed";

/// First, with or without a change: no fabricctl revert timer may be armed. One that is belongs to a
/// transaction between stage and confirm (a killed apply's): the switch holds its change until the timer
/// rolls it back, so "nothing to change" would be wrong, and a second transaction would race it. Then the
/// config updater's dry run of the patch, where it can judge it.
std::vector<RemoteStep> check(const DeviceDesired& device, const NativeChange& change, const TransactionId&) {
  std::vector<RemoteStep> steps = {{std::string(kTimersInFlight), std::string(kListTimers), ""}};
  const Split p = parts(device, change);
  if (p.patch.empty() || !p.create.empty()) return steps;
  steps.push_back({"the config updater's dry run of the patch", "sudo config apply-patch -d /dev/stdin",
                   sonic::dump_config_db(p.patch)});
  return steps;
}

/// A transaction name as TransactionId promises it, checked again: it names files and units.
bool safe_name(const std::string& name) {
  constexpr std::string_view prefix = "fabricctl-";
  if (!name.starts_with(prefix) || name.size() == prefix.size() || name.size() > prefix.size() + 64) return false;
  return std::all_of(name.begin() + prefix.size(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == 'T' || c == '-'; });
}

/// What the revert loads before `config rollback` (entries and fields as they were) and after it (the
/// entries stage created, as nulls): files on the switch, so that its own timer can load them.
std::string restore_file(const std::string& name) { return "/tmp/" + name + ".restore.json"; }
std::string created_file(const std::string& name) { return "/tmp/" + name + ".created.json"; }
std::string startup_file(const std::string& name) { return "/tmp/" + name + ".startup.json"; }
constexpr std::string_view kStartup = "/etc/sonic/config_db.json";  // SONiC's startup configuration

// The `what` of the steps failure() judges by their role.
constexpr std::string_view kStopOnConfirm = "disarm the revert timer";
constexpr std::string_view kStopOnRollback = "stop the revert timer";
constexpr std::string_view kLoadBack = "load back the entries config load changed";
constexpr std::string_view kRollback = "roll CONFIG_DB back to the checkpoint";
constexpr std::string_view kDeleteCreated = "delete the entries config load created";
constexpr std::string_view kDeleteCheckpoint = "delete the checkpoint";
constexpr std::string_view kRestoreStartup = "restore the startup configuration kept at stage";
// After confirm's save, what is left to tidy cannot make the change wrong: a failure there leaves a
// checkpoint and files in /tmp, never a device whose running and startup configurations disagree.
constexpr std::string_view kTidyCheckpoint = "delete the checkpoint (the change is saved)";
constexpr std::string_view kTidyFiles = "remove the revert's files (the change is saved)";

TransactionSteps steps(const DeviceDesired& device, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty() || !safe_name(id.name)) return s;
  const Split p = parts(device, change);

  const std::string name = shell_quote(id.name);
  const std::string restore = shell_quote(restore_file(id.name)), created = shell_quote(created_file(id.name)),
                    startup = shell_quote(startup_file(id.name));
  const std::string seconds = std::to_string(std::max(1, id.confirm_timeout_s)) + "s";
  // The timer's command is one sh -c word; the name and paths inside it are [a-z0-9T./-] only. The
  // rollback runs whether or not the load before it did; the created entries go only once it re-bound
  // the ports, and the checkpoint once all is back (a rollback by fabricctl after the timer fired then
  // finds none: nothing to undo).
  const std::string revert = "config load -y " + restore_file(id.name) + "; config rollback " + id.name +
                             " && config load -y " + created_file(id.name) + " && config delete-checkpoint " + id.name;
  const auto load = [&](const std::string& what, const ordered_json& entries) {
    if (!entries.empty()) s.stage.push_back({what, "sudo config load -y /dev/stdin", sonic::dump_config_db(entries)});
  };
  // The revert timer first, then the timers listed: the device's lock. A second transaction that passed
  // its check before this one armed finds two timers and stops before it has written anything; two that
  // arm together may both stop, never both go on. The revert finds no files until the steps after write
  // them (`config load` of a missing file changes nothing, and no checkpoint stops the chain).
  const RemoteStep arm{"arm the revert timer for " + seconds,
                       "sudo systemd-run --on-active=" + seconds +
                           " --timer-property=RemainAfterElapse=no --unit=" + name + " sh -c " + shell_quote(revert),
                       ""};
  s.arms = 0;
  s.stage.push_back(arm);
  s.stage.push_back({std::string(kOnlyThisInFlight), std::string(kListTimers), ""});
  s.stage.push_back(
      {"keep what config load changes, for the revert", "sudo tee " + restore, sonic::dump_config_db(p.restore)});
  s.stage.push_back(
      {"keep what config load creates, for the revert", "sudo tee " + created, sonic::dump_config_db(p.created)});
  s.stage.push_back({"keep the startup configuration, for a rollback after confirm's save",
                     "sudo cp -p " + std::string(kStartup) + " " + startup, ""});
  s.changes = s.stage.size();
  load("create the entries GCU refuses (config load), before the checkpoint", p.create);
  s.stage.push_back({"checkpoint the running CONFIG_DB", "sudo config checkpoint " + name, ""});
  load("change the entries GCU refuses (config load)", p.change);
  if (!p.patch.empty())
    s.stage.push_back({"apply the patch", "sudo config apply-patch /dev/stdin", sonic::dump_config_db(p.patch)});
  load("delete the entries GCU refuses (config load), now unreferenced", p.remove);

  const std::string timer = shell_quote(id.name + ".timer");
  // A whole window from now: the timer stopped (it fails if it has fired: the change is gone) and armed
  // again with the same revert.
  s.extend.push_back({"re-arm the revert timer: stop it (fails if it fired)", "sudo systemctl stop " + timer, ""});
  s.extend.push_back({"re-arm the revert timer: " + arm.what, arm.command, ""});
  const std::string remove_files = "sudo rm -f " + restore + " " + created + " " + startup;
  // The save is the last step that can fail: a confirm that fails rolls running back, and the rollback
  // puts back the startup configuration kept at stage, so that the two never disagree.
  s.confirm.push_back({std::string(kStopOnConfirm), "sudo systemctl stop " + timer, ""});
  s.confirm.push_back({"save the running CONFIG_DB as startup", "sudo config save -y", ""});
  s.confirm.push_back({std::string(kTidyCheckpoint), "sudo config delete-checkpoint " + name, ""});
  s.confirm.push_back({std::string(kTidyFiles), remove_files, ""});

  const RemoteStep stop{std::string(kStopOnRollback), "sudo systemctl stop " + timer, ""};
  const RemoteStep remove{"remove the revert's files", remove_files, ""};
  // Before the first change (the lock refused, a file not written): the timer stopped, the files gone;
  // CONFIG_DB, which another transaction may be changing, is not touched.
  s.release = {stop, remove};
  // The timer first: GCU has no lock, so it must not fire while fabricctl rolls back.
  s.rollback.push_back(stop);
  s.rollback.push_back({std::string(kLoadBack), "sudo config load -y " + restore, ""});
  s.rollback.push_back({std::string(kRollback), "sudo config rollback " + name, ""});
  s.rollback.push_back({std::string(kDeleteCreated), "sudo config load -y " + created, ""});
  s.rollback.push_back({std::string(kRestoreStartup), "sudo cp " + startup + " " + std::string(kStartup), ""});
  s.rollback.push_back({std::string(kDeleteCheckpoint), "sudo config delete-checkpoint " + name, ""});
  s.rollback.push_back(remove);
  return s;
}

bool contains(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

/// What a rollback step may meet after a partial stage, and is then nothing to undo: no timer was
/// armed, no maps file or checkpoint was written.
bool nothing_to_undo(const RemoteStep& step, const StepOutput& out) {
  const auto said = [&](std::string_view what) { return contains(out.err, what) || contains(out.out, what); };
  if (step.what == kStopOnRollback) return said("not loaded");
  if (step.what == kRollback || step.what == kDeleteCheckpoint) return said("does not exist");
  if (step.what == kRestoreStartup) return said("No such file or directory");  // stage stopped before the copy
  return false;
}

/// The fabricctl revert timers `systemctl list-units --plain --no-legend` lists: the first column of each
/// line (UNIT LOAD ACTIVE SUB DESCRIPTION, systemctl(1)) that is one of fabricctl's names.
std::vector<std::string> armed_timers(std::string_view listed) {
  std::vector<std::string> out;
  for (const std::string_view line : text_lines(listed)) {
    const std::vector<std::string_view> words = words_of(line);
    if (words.empty()) continue;
    const std::string unit(words.front());
    if (unit.ends_with(".timer") && safe_name(unit.substr(0, unit.size() - 6))) out.push_back(unit);
  }
  return out;
}

std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (nothing_to_undo(step, out)) return {};
  if (step.what == kTimersInFlight && out.exit_status == 0) {
    const std::vector<std::string> armed = armed_timers(out.out);
    if (armed.empty()) return {};
    return "a fabricctl revert timer is armed on the switch (" + join(armed, ", ") +
           "): that transaction is staged and not confirmed; the switch rolls its change back when the timer "
           "fires (confirm or undo it with `fabricctl apply --resume|--undo RECORD`, or wait)";
  }
  if (step.what == kOnlyThisInFlight && out.exit_status == 0) {
    const std::vector<std::string> armed = armed_timers(out.out);
    if (armed.size() == 1) return {};
    if (armed.empty()) return std::string(kOnlyThisInFlight) + ": the timer armed by the step before is not listed";
    return "another fabricctl transaction is in flight on the switch (revert timers armed: " + join(armed, ", ") +
           "); nothing was changed, and this transaction's timer is stopped by its rollback";
  }
  if (step.what == kTidyCheckpoint || step.what == kTidyFiles) return {};
  // click's errors end in an "Error: ..." line; GCU's say why in "Failed to ... due to: ...", and from
  // 202405 per scope ("- localhost: ...", the one scope of a single-ASIC switch).
  std::string why = marked_line(out, {"- localhost: "});
  if (why.empty()) why = marked_line(out, {"Failed to apply patch due to:", "Error:"});
  if (std::string r = exit_status_failure(step, out, why); !r.empty()) return r;
  // `config load` of a missing file says so and exits 0; on rollback that is nothing to load back.
  if (contains(out.out, "doesn't exist") && contains(step.command, "config load"))
    return step.what == kLoadBack || step.what == kDeleteCreated ? "" : step.what + ": " + first_text_line(out.out);
  return {};
}

}  // namespace

Applier sonic_applier() {
  Applier a;
  a.change_file = "patch.json";
  a.transaction =
      "config load (maps, WRED, watchdog) + checkpoint + apply-patch, systemd revert timer, save after verify";
  a.change = change;
  a.steps = steps;
  a.check = check;
  a.failure = failure;
  return a;
}

}  // namespace fabricctl
