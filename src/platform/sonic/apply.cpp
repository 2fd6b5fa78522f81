// SONiC write side: the RFC 6902 patch from the running CONFIG_DB to fabricctl's slice
// (config_db_patch.h), and SONiC's transaction around it (docs/transactions-sonic.md). SONiC has no
// commit-confirm (switch-nos.md "Transactions"), so fabricctl builds one from GCU's checkpoint and
// rollback and a transient systemd timer on the switch:
//
//   stage     sudo config checkpoint NAME                 the whole running CONFIG_DB, to go back to
//             sudo tee /tmp/NAME.maps.json                the QoS map entries as they were (stdin)
//             sudo systemd-run --on-active=Ns --timer-property=RemainAfterElapse=no --unit=NAME
//                  sh -c 'config load -y /tmp/NAME.maps.json && config rollback NAME'
//                                                         the revert timer, on the switch; unloaded once
//                                                         it has fired, so a late confirm fails
//             sudo config load -y /dev/stdin              the map tables GCU refuses (stdin)
//             sudo config apply-patch /dev/stdin          the rest of the patch (stdin)
//   confirm   sudo systemctl stop NAME.timer              disarm (fails if it already fired)
//             sudo config save -y                         startup = running, only after verify
//             sudo config delete-checkpoint NAME
//             sudo rm -f /tmp/NAME.maps.json
//   rollback  the timer stopped, the maps loaded back, config rollback NAME, the checkpoint and the
//             maps file deleted; each step harmless when stage did not get that far.
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
#include <utility>

#include "platform/json_object.h"
#include "platform/json_patch.h"
#include "platform/platform.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/config_db_patch.h"
#include "util/escape.h"

namespace fabricctl {
namespace {

using nlohmann::ordered_json;

constexpr std::string_view kRunningConfig = "runningconfiguration.json";

/// The tables GCU refuses on some platforms: changed with `config load` instead of `config apply-patch`.
constexpr std::array<std::string_view, 3> kLoadedTables = {"DSCP_TO_TC_MAP", "TC_TO_QUEUE_MAP",
                                                           "TC_TO_PRIORITY_GROUP_MAP"};

bool loaded_table(std::string_view table) {
  return std::find(kLoadedTables.begin(), kLoadedTables.end(), table) != kLoadedTables.end();
}

Expected<ordered_json> running_config(const RawOutputs& raw) {
  const auto it = raw.find(kRunningConfig);
  if (it == raw.end()) return unexpected("no " + std::string(kRunningConfig) + " was collected");
  ordered_json doc = ordered_json::parse(it->second, nullptr, false);
  if (doc.is_discarded() || !doc.is_object())
    return unexpected("show runningconfiguration all: not a CONFIG_DB JSON object");
  return doc;
}

/// The tables the patch can touch, as the switch holds them: the plan's base.
ordered_json owned_tables(const ordered_json& running) {
  ordered_json out = ordered_json::object();
  for (const std::string_view t : sonic::patched_tables())
    if (const auto it = running.find(std::string(t)); it != running.end()) out[std::string(t)] = *it;
  return out;
}

/// The patch split for the switch: the map entries it touches as a `config load` file (desired's
/// entry whole, or null to delete), the same entries as the switch held them (to load back on
/// revert), and the other operations for `config apply-patch`.
struct Split {
  ordered_json load = ordered_json::object();
  ordered_json before = ordered_json::object();
  ordered_json patch = ordered_json::array();
};

const ordered_json* member(const ordered_json& doc, const std::string& table, const std::string& key) {
  const auto t = doc.find(table);
  if (t == doc.end() || !t->is_object()) return nullptr;
  const auto e = t->find(key);
  return e == t->end() || e->is_null() ? nullptr : &*e;
}

Expected<Split> split(const ordered_json& patch, const ordered_json& desired, const ordered_json& base) {
  Split s;
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
    // An entry replaced whole loses the fields desired lacks: `config load` cannot do that.
    for (const std::string& key : keys) {
      const ordered_json* want = member(desired, table, key);
      const ordered_json* had = member(base, table, key);
      if (want == nullptr || had == nullptr || !had->is_object()) continue;
      for (const auto& field : had->items())
        if (!want->contains(field.key()))
          return unexpected("the patch replaces /" + terminal_line(table) + "/" + terminal_line(key) +
                            ", whose field " + terminal_line(field.key()) + " `config load` cannot remove");
    }
    for (const std::string& key : keys) {
      const ordered_json* want = member(desired, table, key);
      const ordered_json* had = member(base, table, key);
      s.load[table][key] = want != nullptr ? *want : ordered_json(nullptr);
      s.before[table][key] = had != nullptr ? *had : ordered_json(nullptr);
    }
  }
  return s;
}

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  auto running = running_config(raw);
  if (!running) return unexpected(running.error());
  const ordered_json base = owned_tables(*running);
  const ordered_json desired = sonic::config_db(device);
  const ordered_json patch = sonic::config_db_patch(base, desired);
  if (auto s = split(patch, desired, base); !s) return unexpected(s.error());
  NativeChange c;
  if (!patch.empty()) c.text = c.payload = sonic::dump_config_db(patch);
  // Keys sorted (nlohmann::json), so that the order SONiC prints in does not count.
  c.base = nlohmann::json(base).dump(4) + "\n";
  return c;
}

/// A transaction name as TransactionId promises it, checked again: it names files and units.
bool safe_name(const std::string& name) {
  constexpr std::string_view prefix = "fabricctl-";
  if (!name.starts_with(prefix) || name.size() == prefix.size() || name.size() > prefix.size() + 64) return false;
  return std::all_of(name.begin() + prefix.size(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == 'T' || c == '-'; });
}

std::string maps_file(const std::string& name) { return "/tmp/" + name + ".maps.json"; }

// The `what` of the steps failure() judges by their role.
constexpr std::string_view kStopOnConfirm = "disarm the revert timer";
constexpr std::string_view kStopOnRollback = "stop the revert timer";
constexpr std::string_view kLoadBack = "load the QoS maps back as they were";
constexpr std::string_view kRollback = "roll CONFIG_DB back to the checkpoint";
constexpr std::string_view kDeleteCheckpoint = "delete the checkpoint";

TransactionSteps steps(const DeviceDesired& device, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty() || !safe_name(id.name)) return s;
  const ordered_json patch = ordered_json::parse(change.payload, nullptr, false);
  const ordered_json base = ordered_json::parse(change.base, nullptr, false);
  auto parts = patch.is_array() && base.is_object() ? split(patch, sonic::config_db(device), base)
                                                    : Expected<Split>(unexpected(std::string("unreadable")));
  // A payload that does not split goes to apply-patch whole: GCU then judges it.
  Split whole;
  if (!parts) whole.patch = patch.is_array() ? patch : ordered_json::array();
  const Split& p = parts ? *parts : whole;

  const std::string name = shell_quote(id.name);
  const std::string maps = shell_quote(maps_file(id.name));
  const std::string seconds = std::to_string(std::max(1, id.confirm_timeout_s)) + "s";
  // The timer's command is one sh -c word; the name and path inside it are [a-z0-9T./-] only.
  const std::string revert = "config load -y " + maps_file(id.name) + " && config rollback " + id.name;
  s.stage.push_back({"checkpoint the running CONFIG_DB", "sudo config checkpoint " + name, ""});
  s.stage.push_back(
      {"keep the QoS maps as they are, for the revert", "sudo tee " + maps, sonic::dump_config_db(p.before)});
  s.stage.push_back({"arm the revert timer for " + seconds,
                     "sudo systemd-run --on-active=" + seconds +
                         " --timer-property=RemainAfterElapse=no --unit=" + name + " sh -c " + shell_quote(revert),
                     ""});
  if (!p.load.empty())
    s.stage.push_back({"load the QoS maps (config load: GCU refuses these tables)", "sudo config load -y /dev/stdin",
                       sonic::dump_config_db(p.load)});
  if (!p.patch.empty())
    s.stage.push_back({"apply the patch", "sudo config apply-patch /dev/stdin", sonic::dump_config_db(p.patch)});

  const std::string timer = shell_quote(id.name + ".timer");
  s.confirm.push_back({std::string(kStopOnConfirm), "sudo systemctl stop " + timer, ""});
  s.confirm.push_back({"save the running CONFIG_DB as startup", "sudo config save -y", ""});
  s.confirm.push_back({std::string(kDeleteCheckpoint), "sudo config delete-checkpoint " + name, ""});
  s.confirm.push_back({"remove the saved QoS maps", "sudo rm -f " + maps, ""});

  // The timer first: GCU has no lock, so it must not fire while fabricctl rolls back.
  s.rollback.push_back({std::string(kStopOnRollback), "sudo systemctl stop " + timer, ""});
  s.rollback.push_back({std::string(kLoadBack), "sudo config load -y " + maps, ""});
  s.rollback.push_back({std::string(kRollback), "sudo config rollback " + name, ""});
  s.rollback.push_back({std::string(kDeleteCheckpoint), "sudo config delete-checkpoint " + name, ""});
  s.rollback.push_back({"remove the saved QoS maps", "sudo rm -f " + maps, ""});
  return s;
}

bool contains(std::string_view text, std::string_view what) { return text.find(what) != std::string_view::npos; }

/// What a rollback step may meet after a partial stage, and is then nothing to undo: no timer was
/// armed, no maps file or checkpoint was written.
bool nothing_to_undo(const RemoteStep& step, const StepOutput& out) {
  const auto said = [&](std::string_view what) { return contains(out.err, what) || contains(out.out, what); };
  if (step.what == kStopOnRollback) return said("not loaded");
  if (step.what == kRollback || step.what == kDeleteCheckpoint) return said("does not exist");
  return false;
}

std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (nothing_to_undo(step, out)) return {};
  // click's errors end in an "Error: ..." line; GCU's say why in "Failed to ... due to: ...".
  if (std::string r = exit_status_failure(step, out, marked_line(out, {"Failed to apply patch due to:", "Error:"}));
      !r.empty())
    return r;
  // `config load` of a missing file says so and exits 0; on rollback that is nothing to load back.
  if (contains(out.out, "doesn't exist") && contains(step.command, "config load"))
    return step.what == kLoadBack ? "" : step.what + ": " + first_text_line(out.out);
  return {};
}

}  // namespace

Applier sonic_applier() {
  Applier a;
  a.change_file = "patch.json";
  a.transaction = "checkpoint, config load (maps) + apply-patch, systemd revert timer, save after verify";
  a.change = change;
  a.steps = steps;
  a.failure = failure;
  return a;
}

}  // namespace fabricctl
