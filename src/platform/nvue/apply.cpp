// NVUE write side: the `nv set` / `nv unset` lines of commands.nvue that the applied configuration does
// not hold yet (nvue/commands.h), and NVUE's own transaction around them (docs/transactions-nvue.md):
//
//   stage     nv config detach                       a pending revision of our own: whatever another
//                                                    session left pending is kept aside, not applied
//             nv set ... && echo fabricctl-staged 1 && nv unset ... && ...
//                                                    the lines, one SSH command per batch of up to 16 KiB
//                                                    (bash stops at the first NVUE refuses), into the
//                                                    pending revision; the marks after each line name
//                                                    the one NVUE refused
//             nv config revision -o json             the lock, right before the apply: no revision in
//                                                    flight (nvue/revisions.h; also plan's check)
//             nv config apply --confirm <M>m --assume-yes -m <id>
//                                                    running, NVUE's revert timer armed for M minutes
//   confirm   nv config apply --confirm-yes          keep it: the timer stops (UNCONFIRMED form)
//             nv config save                         startup.yaml = the applied configuration
//   rollback  nv config detach                       drop what was staged and not applied
//             nv config revision -o json             the trial awaiting confirmation, if any, is ours
//                                                    (its -m message): never reject another apply's
//             nv config apply --confirm-no           revert the trial apply now (UNCONFIRMED form)
//   release   nv config detach                       a stage that failed before its apply: the pending
//                                                    revision dropped, no trial rejected
//
// Sources. NVIDIA (CumulusNetworks/docs, content/cumulus-linux-514/System-Configuration/
// NVIDIA-User-Experience-NVUE/NVUE-CLI.md and content/nvue-reference/Config-Commands.md): `nv config
// apply --confirm [<time>]` rolls back by itself unless confirmed (default ten minutes; "--confirm 60m"
// in NVUE-CLI.md), `--confirm-status`, `--assume-yes`, `-m <message>`, `nv config detach` (the pending
// changes since the last apply are set aside), `nv config save` (writes /etc/nvue.d/startup.yaml; apply
// auto-saves since 5.9), errors printed as "Error: ..." lines. The confirm time is given in minutes, the
// documented unit (`--confirm 60m`; a bare number is minutes, Config-Commands.md): the confirm timeout's
// seconds are rounded up to whole minutes, so NVUE may wait up to 59 s longer than asked before it
// reverts. UNCONFIRMED in NVIDIA's pages (only third-party guides use them; each step that rests on one
// says so in its description, which the plan shows): the confirmation `--confirm-yes` and the rejection
// `--confirm-no`. NVIDIA documents that a trial must be confirmed, not the command that confirms it.
#include <algorithm>
#include <cstdint>
#include <sstream>

#include "platform/nvue/commands.h"
#include "platform/nvue/release.h"
#include "platform/nvue/revisions.h"
#include "platform/platform.h"
#include "util/escape.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl {
namespace {

constexpr std::string_view kConfig = "config.json";

/// The most bytes of `nv set`/`nv unset` commands one stage batch sends: far below what an SSH exec
/// request and bash take, so that no switch's command line limit is reached.
constexpr size_t kStageBatchBytes = size_t{16} << 10;

/// What a stage batch prints after each line that NVUE took: "fabricctl-staged <k>", k from 1. The
/// last of them names the line before the one refused (bash's builtin echo: no process, no NVUE).
constexpr std::string_view kStagedMark = "fabricctl-staged";

std::vector<std::string> split_words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// What a word of a line may be: NVUE keywords, numbers, comma lists, port names (util/names.h rule); a DSCP list is
/// up to 64 numbers.
bool safe_word(const std::string& w) { return plain_word(w, "._,:/-", 512); }

Expected<NativeChange> change(const DeviceDesired& device, const RawOutputs& raw) {
  const auto it = raw.find(kConfig);
  if (it == raw.end()) return unexpected(std::string("no ") + std::string(kConfig) + " was collected");
  // The rendered lines speak the syntax of the release the inventory states: a switch that runs the
  // other generation would refuse them at stage; say so now, naming the key to change.
  const auto stated = nvue::inventory_release(device.hardware.nos_release);
  if (!stated) return unexpected("nvue.release: " + stated.error());
  const auto reported = nvue::config_release(it->second);
  if (!reported) return unexpected(reported.error());
  if (*reported)
    if (std::string why = nvue::release_mismatch(*stated, !device.hardware.nos_release.empty(), **reported);
        !why.empty())
      return unexpected(why);
  auto tree = nvue::applied_tree(it->second);
  if (!tree) return unexpected(tree.error());
  auto lines = nvue::unsatisfied(*tree, nvue::command_lines(device));
  if (!lines) return unexpected(lines.error());
  for (const std::string& line : *lines)
    for (const std::string& w : split_words(line))
      if (!safe_word(w)) return unexpected("a word that cannot be sent to NVUE: " + terminal_line(w.substr(0, 64)));
  NativeChange c;
  for (const std::string& line : *lines) c.text += line + "\n";
  c.payload = c.text;
  // The applied tree as collect kept it (QoS, and each interface's type, MTU and QoS), keys sorted.
  c.base = nlohmann::json(*tree).dump(2) + "\n";
  return c;
}

/// One line as an SSH command: `nv set`/`nv unset` and every word of the path single-quoted (Cumulus
/// runs it in the login shell, bash).
std::string nv_command(const std::string& line) {
  const std::vector<std::string> words = split_words(line);
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i == 0 ? "" : " ") + (i < 2 ? words[i] : shell_quote(words[i]));
  return out;
}

/// The check (plan, and apply before stage, with or without a change): no configuration revision in
/// flight. One that is awaits its confirmation (a killed apply's, or an operator's) or is being applied:
/// the switch holds that change until it is confirmed or NVUE rolls it back, so "nothing to change"
/// would be wrong, and a trial apply beside it would be refused, or rejected with it.
constexpr std::string_view kNoneInFlight = "read the configuration revisions (none in flight)";
/// Stage's lock, right before its apply (after every device of the step staged its lines): the same
/// reading, at the last moment.
constexpr std::string_view kLock = "lock the switch: no configuration revision in flight";
/// Rollback's guard before `--confirm-no`, which rejects whatever trial awaits confirmation: the one that
/// does is this transaction's (its -m message), or none does. Followed by the transaction's name.
constexpr std::string_view kOnlyOurs = "make sure the trial awaiting confirmation, if any, is ";

std::vector<RemoteStep> check(const DeviceDesired&, const NativeChange&, const TransactionId&) {
  return {{std::string(kNoneInFlight), std::string(nvue::kRevisionsCommand), ""}};
}

/// NVUE's confirm time in minutes, its documented unit: the timeout rounded up, at least one.
int64_t confirm_minutes(int timeout_s) { return std::max<int64_t>(1, (int64_t{timeout_s} + 59) / 60); }

TransactionSteps steps(const DeviceDesired&, const NativeChange& change, const TransactionId& id) {
  TransactionSteps s;
  if (change.empty()) return s;
  s.stage.push_back({"set aside what is pending from elsewhere", "nv config detach", ""});
  // The lines go in batches, each one SSH command that the login shell (bash) runs as an `&&` list: the
  // first line NVUE refuses stops the batch with its status and "Error:" line, as the line alone would
  // have. One SSH exec per batch rather than per line: a factory switch's stage is some 60 lines.
  std::vector<std::string> lines;
  for (const std::string& line : split_lines(change.payload))
    if (!line.empty()) lines.push_back(line);
  for (size_t first = 0; first < lines.size();) {
    std::string command = nv_command(lines[first]);
    size_t end = first + 1;
    auto mark = [&] { return " && echo " + std::string(kStagedMark) + " " + std::to_string(end - first) + " && "; };
    while (end < lines.size() && command.size() + mark().size() + nv_command(lines[end]).size() <= kStageBatchBytes) {
      command += mark() + nv_command(lines[end]);
      ++end;
    }
    const std::string what = end - first == 1 ? "stage `" + lines[first] + "`"
                                              : "stage `" + lines[first] + "` and the " +
                                                    std::to_string(end - first - 1) + " lines after it";
    s.stage.push_back({what, command, ""});
    first = end;
  }
  const std::string timer = std::to_string(confirm_minutes(id.confirm_timeout_s)) + "m";
  // The lines only stage into the pending revision: the trial apply is the first step that changes
  // what the switch runs, and a stage that fails before it drops the pending revision and no more. A
  // rejection there (`--confirm-no`) would revert whatever trial is pending, another apply's too.
  s.lock = s.stage.size();
  s.stage.push_back({std::string(kLock), std::string(nvue::kRevisionsCommand), ""});
  s.arms = s.stage.size();
  s.changes = s.stage.size();
  s.window_s = static_cast<int>(confirm_minutes(id.confirm_timeout_s) * 60);
  s.stage.push_back({"apply with NVUE's revert timer armed for " + timer,
                     "nv config apply --confirm " + shell_quote(timer) + " --assume-yes -m " + shell_quote(id.name),
                     ""});
  s.confirm.push_back(
      {"confirm the applied revision (stops the revert timer; UNCONFIRMED: --confirm-yes is not in "
       "NVIDIA's documentation)",
       "nv config apply --confirm-yes", ""});
  s.confirm.push_back({"save the applied configuration as startup", "nv config save", ""});
  s.release.push_back({"drop what was staged and not applied", "nv config detach", ""});
  s.rollback.push_back(s.release.front());
  s.rollback.push_back({std::string(kOnlyOurs) + id.name, std::string(nvue::kRevisionsCommand), ""});
  s.rollback.push_back({"revert the applied revision now (UNCONFIRMED: --confirm-no is not in NVIDIA's documentation)",
                        "nv config apply --confirm-no", ""});
  return s;
}

/// The line of a stage batch NVUE refused, as it reads in commands.nvue, and its place ("line 9 of
/// 11"); "" when `step` is no batch of several lines. The device's marks are read strictly (untrusted):
/// a mark that is not the next number ends the count.
std::string refused_line(const RemoteStep& step, std::string_view out) {
  const std::string separator = " && echo " + std::string(kStagedMark) + " ";
  if (step.command.find(separator) == std::string::npos) return {};
  std::vector<std::string> commands;  // the batch's nv commands, in order
  for (size_t at = 0;;) {
    const size_t next = step.command.find(separator, at);
    commands.push_back(step.command.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    const size_t after = step.command.find(" && ", next + separator.size());
    if (after == std::string::npos) break;
    at = after + 4;
  }
  size_t taken = 0;
  for (const std::string& line : split_lines(std::string(out)))
    if (line == std::string(kStagedMark) + " " + std::to_string(taken + 1)) ++taken;
  if (taken >= commands.size()) return {};
  std::string text = commands[taken];
  std::erase(text, '\'');  // every word was a safe word in single quotes (safe_word, nv_command)
  return "`" + text + "` (line " + std::to_string(taken + 1) + " of " + std::to_string(commands.size()) + ")";
}

/// NVUE prints its errors as lines that begin with "Error:" (NVUE-CLI.md); judged even with status 0.
/// A stage batch's failure names the line NVUE refused.
/// The judgment of a reading of the revisions (check, lock, rollback's guard); "" to go on.
std::string revisions_failure(const RemoteStep& step, const StepOutput& out) {
  const auto in_flight = nvue::revisions_in_flight(out.out);
  if (!in_flight) return step.what + ": nv config revision -o json: " + terminal_line(in_flight.error());
  if (step.what.starts_with(kOnlyOurs)) {
    const std::string ours = step.what.substr(kOnlyOurs.size());
    for (const nvue::InFlight& r : *in_flight)
      if (r.awaits_confirmation() && r.message != ours)
        return "not rejected: the trial awaiting confirmation is " + nvue::in_flight_text({r}) +
               (r.message.empty() ? ", and NVUE does not say whose it is" : ", not this transaction's") +
               "; NVUE rolls it back when its confirm time ends unless it is confirmed";
    return "";
  }
  if (in_flight->empty()) return "";
  if (step.what == kLock)
    return "another configuration apply is in flight on the switch: " + nvue::in_flight_text(*in_flight) +
           "; nothing was applied, and this transaction's pending revision is dropped";
  return "a configuration apply is in flight on the switch: " + nvue::in_flight_text(*in_flight) +
         "; NVUE rolls a trial back when its confirm time ends unless it is confirmed (confirm or undo a "
         "fabricctl one with `fabricctl apply --resume|--undo RECORD`, or wait)";
}

std::string failure(const RemoteStep& step, const StepOutput& out) {
  if (out.exit_status == 0 && step.command == nvue::kRevisionsCommand) return revisions_failure(step, out);
  std::string r = exit_status_failure(step, out);
  if (r.empty()) {
    const std::string error = marked_line(out, {"Error:"});
    if (error.empty()) return "";
    r = step.what + ": " + error;
  }
  if (const std::string line = refused_line(step, out.out); !line.empty() && r.starts_with(step.what))
    r.insert(step.what.size(), ": refused at " + line);
  return r;
}

}  // namespace

Applier nvue_applier() {
  Applier a;
  a.change_file = "commands.nvue";
  a.transaction = "nv set, lock (no revision in flight), nv config apply --confirm, confirm after verify";
  a.change = change;
  a.steps = steps;
  a.check = check;
  a.failure = failure;
  return a;
}

}  // namespace fabricctl
