// The NVUE write side, pure: the lines of commands.nvue, the change from what collect read (full on a
// factory-default switch, empty on one that holds the rendered configuration, one line for one setting
// off, the same end state as the whole file from any earlier intent), the transaction's shape and how
// its outputs are judged.
#include <doctest/doctest.h>

#include "platform/nvue/commands.h"
#include "platform/nvue/test_support.h"
#include "platform/platform.h"
#include "util/text.h"

using namespace fabricctl;
using nlohmann::ordered_json;

namespace {

/// The nv lines of `commands` (comments and blank lines left out).
std::vector<std::string> nv_lines(const std::string& commands) {
  std::vector<std::string> out;
  for (const std::string& l : test::lines_of(commands))
    if (!l.empty() && l[0] != '#') out.push_back(l);
  return out;
}

/// config.json as the collector keeps it for a switch whose applied tree is `tree`.
RawOutputs raw_of(const ordered_json& tree) {
  ordered_json doc = ordered_json::array();
  doc.push_back({{"header", {{"model", "SN5600"}, {"rev-id", 1.0}}}});
  doc.push_back({{"set", tree}});
  const Collector c = adapter(Platform::nvue).collector;
  return {{"config.json", c.commands.front().keep(doc.dump())}};
}

ordered_json applied_tree_of(const std::string& commands) {
  return nvue::testing::applied(ordered_json::object(), commands);
}

DeviceDesired variant(size_t i) {
  DeviceDesired d = test::example_switch(Platform::nvue, {"swp1", "swp2", "swp10"});
  test::intent_variants().at(i).second(d);
  return d;
}

NativeChange change_of(const DeviceDesired& d, const RawOutputs& raw) {
  auto c = adapter(Platform::nvue).applier.change(d, raw);
  REQUIRE_MESSAGE(c, c.error());
  return *c;
}

std::string change_of_error(const DeviceDesired& d, const RawOutputs& raw) {
  auto c = adapter(Platform::nvue).applier.change(d, raw);
  REQUIRE_FALSE(c);
  return c.error();
}

/// The stage steps of `ports` lines `nv set interface swpN link mtu 9100`, N from 1.
TransactionSteps mtu_stage(int ports) {
  NativeChange c;
  for (int port = 1; port <= ports; ++port)
    c.text += "nv set interface swp" + std::to_string(port) + " link mtu 9100\n";
  c.payload = c.text;
  TransactionId id;
  id.name = "fabricctl-20261203T114500-abc123";
  return adapter(Platform::nvue).applier.steps(variant(0), c, id);
}

}  // namespace

TEST_CASE("nvue apply: command_lines are the nv lines of the rendered commands.nvue, for every intent") {
  for (size_t i = 0; i < test::intent_variants().size(); ++i) {
    CAPTURE(test::intent_variants()[i].first);
    const DeviceDesired d = variant(i);
    CHECK(join(nvue::command_lines(d), "\n") == join(nv_lines(nvue::testing::commands_of(d)), "\n"));
  }
}

TEST_CASE("nvue apply: a factory-default switch gets every set line, and no unset of what it lacks") {
  for (size_t i = 0; i < test::intent_variants().size(); ++i) {
    CAPTURE(test::intent_variants()[i].first);
    const DeviceDesired d = variant(i);
    const NativeChange c = change_of(d, raw_of(ordered_json::object()));
    std::string sets;
    for (const std::string& l : nvue::command_lines(d))
      if (l.rfind("nv set ", 0) == 0) sets += l + "\n";
    CHECK(c.text == sets);
    CHECK(c.payload == c.text);
    CHECK(c.base == "{}\n");
  }
}

TEST_CASE("nvue apply: a switch that holds the rendered configuration has nothing to change") {
  for (size_t i = 0; i < test::intent_variants().size(); ++i) {
    CAPTURE(test::intent_variants()[i].first);
    const DeviceDesired d = variant(i);
    const NativeChange c = change_of(d, raw_of(applied_tree_of(nvue::testing::commands_of(d))));
    CHECK(c.empty());
    CHECK(c.text.empty());
    CHECK(c.base.find("\"swp10\"") != std::string::npos);
  }
}

TEST_CASE("nvue apply: from any intent to any other, the change leaves what the whole file leaves") {
  const size_t n = test::intent_variants().size();
  // Each variant rendered and applied once: the pairs below reuse them (n + 1 by n of them).
  std::vector<DeviceDesired> intent;
  std::vector<std::string> all;
  std::vector<ordered_json> tree;
  for (size_t i = 0; i < n; ++i) {
    intent.push_back(variant(i));
    all.push_back(nvue::testing::commands_of(intent.back()));
    tree.push_back(applied_tree_of(all.back()));
  }
  tree.push_back(ordered_json::object());  // [n]: a factory-default switch
  for (size_t from = 0; from <= n; ++from)
    for (size_t to = 0; to < n; ++to) {
      CAPTURE(from < n ? test::intent_variants()[from].first : "factory default");
      CAPTURE(test::intent_variants()[to].first);
      const ordered_json& before = tree[from];
      const NativeChange c = change_of(intent[to], raw_of(before));
      const ordered_json after = nvue::testing::applied(before, c.text);
      CHECK(nlohmann::json(after) == nlohmann::json(nvue::testing::applied(before, all[to])));
      // And a second apply changes nothing.
      CHECK(change_of(intent[to], raw_of(after)).empty());
      if (from == to) CHECK(c.empty());
    }
}

TEST_CASE("nvue apply: a word NVUE's shell could read as more than a word is never sent") {
  // The model refuses such names long before; the applier refuses them again.
  for (const std::string port : {"swp1;reboot", "swp1|sh", "swp1$(reboot)", "-swp1"}) {
    CAPTURE(port);
    auto c = adapter(Platform::nvue)
                 .applier.change(test::example_switch(Platform::nvue, {port}), raw_of(ordered_json::object()));
    REQUIRE_FALSE(c);
    CHECK(c.error().starts_with("a word that cannot be sent to NVUE: "));
    CHECK(c.error().find(port) != std::string::npos);
  }
}

TEST_CASE("nvue apply: one setting off is one line; a comma list narrows to the members that differ") {
  const DeviceDesired d = variant(0);
  ordered_json tree = applied_tree_of(nvue::testing::commands_of(d));
  tree["interface"]["swp10"]["link"]["mtu"] = 9216;
  CHECK(change_of(d, raw_of(tree)).text == "nv set interface swp10 link mtu 9100\n");
  tree = applied_tree_of(nvue::testing::commands_of(d));
  tree["interface"]["swp2"]["qos"].erase("pfc-watchdog");
  CHECK(change_of(d, raw_of(tree)).text == "nv set interface swp2 qos pfc-watchdog state enable\n");
  tree["interface"]["swp2"]["qos"]["pfc-watchdog"]["state"] = "disable";
  CHECK(change_of(d, raw_of(tree)).text == "nv set interface swp2 qos pfc-watchdog state enable\n");

  // An explicit profile's unset of the lossy PFC priorities: only the priority the switch has.
  const DeviceDesired two = variant(4);
  tree = applied_tree_of(nvue::testing::commands_of(two));
  tree["qos"]["pfc"]["default-global"]["switch-priority"]["6"] = ordered_json::object();
  CHECK(change_of(two, raw_of(tree)).text == "nv unset qos pfc default-global switch-priority 6\n");
  // `nv unset ... traffic-class 1,2,...` followed by `ecn disable`: not sent while the classes hold
  // only that; sent, with the sets after it, when a class holds more.
  tree = applied_tree_of(nvue::testing::commands_of(two));
  tree["qos"]["congestion-control"]["default-global"]["traffic-class"]["5"]["min-threshold"] = 1000;
  CHECK(change_of(two, raw_of(tree)).text ==
        "nv unset qos congestion-control default-global traffic-class 5\n"
        "nv set qos congestion-control default-global traffic-class 5 ecn disable\n");
}

TEST_CASE("nvue apply: RoCE mode set as `nv set qos roce` (mode lossless by default) is not a difference") {
  const DeviceDesired d = variant(5);
  const std::string all = nvue::testing::commands_of(d);
  REQUIRE(all.find("nv set qos roce mode lossless") != std::string::npos);
  ordered_json tree = applied_tree_of(all);
  tree["qos"]["roce"].erase("mode");
  CHECK(change_of(d, raw_of(tree)).empty());
  tree["qos"]["roce"]["enable"] = "on";
  CHECK(change_of(d, raw_of(tree)).empty());
  // RoCE turned off is turned on again, in the inventory release's words; its mode is set back.
  tree["qos"]["roce"]["enable"] = "off";
  CHECK(change_of(d, raw_of(tree)).text == "nv set qos roce enable on\n");
  tree["qos"]["roce"]["mode"] = "lossless-single-ipool";
  CHECK(change_of(d, raw_of(tree)).text == "nv set qos roce mode lossless\nnv set qos roce enable on\n");
}

TEST_CASE("nvue apply: a 5.15 switch with RoCE `state disabled` gets `state enabled`, and only that") {
  DeviceDesired d = variant(5);
  d.hardware.nos_release = "5.15";
  const std::string all = nvue::testing::commands_of(d);
  REQUIRE(all.find("nv set qos roce state enabled\n") != std::string::npos);
  REQUIRE(all.find("enable on") == std::string::npos);
  ordered_json tree = applied_tree_of(all);
  CHECK(change_of(d, raw_of(tree)).empty());
  tree["qos"]["roce"]["state"] = "disabled";
  CHECK(change_of(d, raw_of(tree)).text == "nv set qos roce state enabled\n");
  // The same switch printed by 5.15 without --expand: range keys; nothing else differs.
  ordered_json ranged = applied_tree_of(all);
  ordered_json port = ranged["interface"]["swp1"];
  for (const char* p : {"swp1", "swp2", "swp10"}) ranged["interface"].erase(p);
  ranged["interface"]["swp1-2,swp10"] = port;
  CHECK(change_of(d, raw_of(ranged)).empty());
  ranged["interface"]["swp2"]["link"]["mtu"] = 1500;
  CHECK(change_of(d, raw_of(ranged)).text == "nv set interface swp2 link mtu 9100\n");
  ranged["interface"]["swp9-1"] = port;
  CHECK(change_of_error(d, raw_of(ranged)) == "nv config show: interface: range \"swp9-1\" runs backwards");
}

TEST_CASE("nvue apply: switching to RoCE mode unsets the explicit default-global settings in the same change") {
  const DeviceDesired explicit_profile = variant(0), roce = variant(5);
  const std::string all = nvue::testing::commands_of(roce);
  REQUIRE(all.find("nv set qos roce mode lossless") != std::string::npos);
  const NativeChange c = change_of(roce, raw_of(applied_tree_of(nvue::testing::commands_of(explicit_profile))));
  for (const char* unset :
       {"nv unset qos pfc default-global\n", "nv unset qos egress-queue-mapping default-global\n",
        "nv unset qos egress-scheduler default-global\n", "nv unset qos congestion-control default-global\n",
        "nv unset qos mapping default-global dscp\n"})
    CHECK_MESSAGE(c.text.find(unset) != std::string::npos, unset);
  CHECK(c.text.find("nv set qos roce mode lossless\n") != std::string::npos);
}

TEST_CASE("nvue apply: device output that is not an NVUE configuration is an error, never a crash") {
  const DeviceDesired d = variant(0);
  const auto change = adapter(Platform::nvue).applier.change;
  for (const char* bad : {"", "not json", "[1, 2]", "\"text\"", "[{\"set\": 3}]", "{\"qos\": "})
    CHECK_FALSE(change(d, {{"config.json", bad}}));
  CHECK_FALSE(change(d, {}));
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "{\"a\":";
  deep += "1" + std::string(100, '}');
  CHECK_FALSE(change(d, {{"config.json", deep}}));
  // A tree whose values are of other types is read as not holding them: the lines are sent.
  const auto odd = change(d, {{"config.json", R"({"qos": "x", "interface": {"swp1": ["y"]}})"}});
  REQUIRE(odd);
  CHECK(odd->text.find("nv set interface swp1 link mtu 9100") != std::string::npos);
}

TEST_CASE("nvue apply: the transaction stages into the pending revision, arms the timer in apply, quotes values") {
  const DeviceDesired d = variant(0);
  const Applier a = adapter(Platform::nvue).applier;
  const NativeChange c = change_of(d, raw_of(ordered_json::object()));
  TransactionId id;
  id.name = "fabricctl-20261203T114500-abc123";
  id.confirm_timeout_s = 300;
  const TransactionSteps s = a.steps(d, c, id);
  // One batch: every line, quoted, as one `&&` list; then the lock, then the trial apply.
  REQUIRE(s.stage.size() == 4);
  CHECK(s.stage[2].command == "nv config revision -o json");
  CHECK(s.lock == 2);
  CHECK(s.stage.front().command == "nv config detach");
  const std::string& batch = s.stage[1].command;
  CHECK(batch.starts_with("nv set 'qos' 'mapping' 'default-global' 'trust' 'l3' && "));
  CHECK(s.stage[1].what == "stage `nv set qos mapping default-global trust l3` and the " +
                               std::to_string(nv_lines(c.text).size() - 1) + " lines after it");
  // After each line but the last, its mark: "fabricctl-staged <k>" names the lines NVUE took.
  size_t joined = 0;
  for (size_t at = batch.find(" && echo fabricctl-staged "); at != std::string::npos;
       at = batch.find(" && echo fabricctl-staged ", at + 4))
    ++joined;
  CHECK(joined + 1 == nv_lines(c.text).size());
  CHECK(batch.find(" && echo fabricctl-staged 1 && nv ") != std::string::npos);
  // Minutes, the unit NVIDIA documents (`--confirm 60m`): 300 s is 5m, and 301 s rounds up to 6m.
  CHECK(s.stage.back().command == "nv config apply --confirm '5m' --assume-yes -m 'fabricctl-20261203T114500-abc123'");
  CHECK(s.stage.back().what.find("5m") != std::string::npos);
  id.confirm_timeout_s = 301;
  CHECK(a.steps(d, c, id).stage.back().command.starts_with("nv config apply --confirm '6m' "));
  id.confirm_timeout_s = 300;
  bool mtu = false;
  for (const RemoteStep& st : s.stage)
    mtu = mtu || st.command.find("nv set 'interface' 'swp10' 'link' 'mtu' '9100'") != std::string::npos;
  CHECK(mtu);
  REQUIRE(s.confirm.size() == 2);
  CHECK(s.confirm[0].command == "nv config apply --confirm-yes");
  // The plan says which steps rest on a form NVIDIA does not document.
  CHECK(s.confirm[0].what.find("UNCONFIRMED: --confirm-yes") != std::string::npos);
  CHECK(s.rollback[2].what.find("UNCONFIRMED: --confirm-no") != std::string::npos);
  CHECK(s.confirm[1].command == "nv config save");
  // The rollback rejects a trial only when the one awaiting confirmation is its own (or none is).
  REQUIRE(s.rollback.size() == 3);
  CHECK(s.rollback[0].command == "nv config detach");
  CHECK(s.rollback[1].command == "nv config revision -o json");
  CHECK(s.rollback[2].command == "nv config apply --confirm-no");
  // The apply arms the timer and is the first step that changes the switch; a stage that fails before
  // it only drops the pending revision: rejecting a trial could reject another apply's.
  CHECK(s.arms == 3);
  CHECK(s.changes == 3);
  REQUIRE(s.release.size() == 1);
  CHECK(s.release[0].command == "nv config detach");
  for (const auto* list : {&s.stage, &s.confirm, &s.rollback, &s.release})
    for (const RemoteStep& st : *list) CHECK(st.input.empty());
  // Nothing to change: no transaction.
  const TransactionSteps none = a.steps(d, NativeChange{}, id);
  CHECK(none.stage.empty());
  CHECK(none.confirm.empty());
  CHECK(none.rollback.empty());
}

TEST_CASE("nvue apply: failure() reads the exit status and NVUE's Error: lines, cut to one printable line") {
  const auto failure = adapter(Platform::nvue).applier.failure;
  const RemoteStep step{"stage `nv set interface swp1 link mtu 99999`", "nv 'set' ...", ""};
  CHECK(failure(step, {0, "", ""}) == "");
  CHECK(failure(step, {0, "applied\n", ""}) == "");
  CHECK(failure(step, {1, "", "Error: Invalid value 99999: integer 552 - 9216\n"}) ==
        "stage `nv set interface swp1 link mtu 99999`: exited with status 1: Error: Invalid value 99999: integer "
        "552 - 9216");
  CHECK(failure(step, {0, "Warning: x\nError: Could not connect to nvued.\n", ""}) ==
        "stage `nv set interface swp1 link mtu 99999`: Error: Could not connect to nvued.");
  const std::string hostile = failure(step, {0, "Error: \x1b[31mred\x07" + std::string(500, 'x') + "\n", ""});
  CHECK(hostile.find('\x1b') == std::string::npos);
  CHECK(hostile.find('\x07') == std::string::npos);
  CHECK(hostile.size() < 300);
}

TEST_CASE("nvue apply: a batch NVUE refuses names the line, from the marks it printed (read strictly)") {
  const Applier a = adapter(Platform::nvue).applier;
  const RemoteStep batch = mtu_stage(4).stage[1];
  const std::string what = "stage `nv set interface swp1 link mtu 9100` and the 3 lines after it: ";
  CHECK(a.failure(batch, {1, "fabricctl-staged 1\nfabricctl-staged 2\n", "Error: no\n"}) ==
        what + "refused at `nv set interface swp3 link mtu 9100` (line 3 of 4): exited with status 1: Error: no");
  CHECK(a.failure(batch, {1, "", "Error: no\n"}) ==
        what + "refused at `nv set interface swp1 link mtu 9100` (line 1 of 4): exited with status 1: Error: no");
  // A device that prints marks out of order, or more than there are lines, names no line it did not reach.
  CHECK(a.failure(batch, {1, "fabricctl-staged 2\nfabricctl-staged 1\n", "Error: no\n"}).find("(line 2 of 4)") !=
        std::string::npos);
  CHECK(a.failure(batch, {1, "fabricctl-staged 1\nfabricctl-staged 2\nfabricctl-staged 3\nfabricctl-staged 4\n",
                          "Error: no\n"}) == what + "exited with status 1: Error: no");
  CHECK(a.failure(batch, {0, "fabricctl-staged 1\nfabricctl-staged 2\nfabricctl-staged 3\n", ""}).empty());
}

TEST_CASE("nvue apply: a long change is staged in batches of at most 16 KiB, each an && list, in order") {
  const TransactionSteps s = mtu_stage(400);
  REQUIRE(s.stage.size() > 4);  // detach, two batches or more, the lock, apply
  // Every line once, in order, each batch's marks counting its own lines from 1.
  std::string sent, want;
  for (size_t i = 1; i < s.lock.value_or(0); ++i) {
    CHECK(s.stage[i].command.size() <= 16 * 1024);
    std::string batch = s.stage[i].command;
    for (int k = 1;; ++k) {
      const std::string mark = " && echo fabricctl-staged " + std::to_string(k) + " && ";
      const size_t at = batch.find(mark);
      if (at == std::string::npos) break;
      batch.replace(at, mark.size(), " && ");
    }
    CHECK(batch.find("fabricctl-staged") == std::string::npos);
    sent += (sent.empty() ? "" : " && ") + batch;
  }
  for (int port = 1; port <= 400; ++port)
    want += std::string(port == 1 ? "" : " && ") + "nv set 'interface' 'swp" + std::to_string(port) +
            "' 'link' 'mtu' '9100'";
  CHECK((sent == want));
  CHECK(s.stage[1].what.starts_with("stage `nv set interface swp1 link mtu 9100` and the "));
}

TEST_CASE("nvue apply: the revisions in flight refuse the check and the lock, and guard the rollback's rejection") {
  const DeviceDesired d = variant(0);
  const Applier a = adapter(Platform::nvue).applier;
  TransactionId id;
  id.name = "fabricctl-20261206T210000-abc123";
  const NativeChange c = change_of(d, raw_of(ordered_json::object()));
  const TransactionSteps s = a.steps(d, c, id);
  // Asked with or without a change: a trial in flight is never "nothing to change".
  const std::vector<RemoteStep> check = a.check(d, NativeChange{}, id);
  REQUIRE(check.size() == 1);
  REQUIRE(s.lock);
  const RemoteStep& lock = s.stage[*s.lock];
  const RemoteStep& guard = s.rollback[1];
  const std::string idle = R"({"1": {"state": "applied_and_saved", "message": "Config update by cumulus"},
                               "2": {"state": "pending", "message": ""}})";
  const std::string theirs = R"({"1": {"state": "applied_and_saved", "message": ""},
                                 "7": {"state": "confirm", "message": "fabricctl-20261206T205900-ffffff"}})";
  const std::string ours = R"({"7": {"state": "confirm", "message": "fabricctl-20261206T210000-abc123"}})";
  for (const RemoteStep* step : {&check.front(), &lock, &guard}) CHECK(a.failure(*step, {0, idle, ""}).empty());
  CHECK(a.failure(check.front(), {0, theirs, ""}) ==
        "a configuration apply is in flight on the switch: revision 7 (state confirm, message "
        "\"fabricctl-20261206T205900-ffffff\"); NVUE rolls a trial back when its confirm time ends unless it is "
        "confirmed (confirm or undo a fabricctl one with `fabricctl apply --resume|--undo RECORD`, or wait)");
  CHECK(a.failure(lock, {0, theirs, ""})
            .starts_with("another configuration apply is in flight on the switch: "
                         "revision 7 (state confirm, "));
  CHECK(a.failure(lock, {0, theirs, ""})
            .ends_with("nothing was applied, and this transaction's pending revision is dropped"));
  // An apply under way counts too.
  CHECK_FALSE(a.failure(lock, {0, R"({"3": {"state": "apply"}})", ""}).empty());
  // The guard lets only this transaction's trial be rejected.
  CHECK(a.failure(guard, {0, ours, ""}).empty());
  CHECK(a.failure(guard, {0, theirs, ""}).starts_with("not rejected: the trial awaiting confirmation is revision 7 "));
  CHECK(a.failure(guard, {0, R"({"7": {"state": "confirm"}})", ""}) ==
        "not rejected: the trial awaiting confirmation is revision 7 (state confirm), and NVUE does not say whose it "
        "is; NVUE rolls it back when its confirm time ends unless it is confirmed");
  // Unreadable is a refusal, never a go-ahead; a failing command is judged as any step.
  CHECK(a.failure(lock, {0, "[]", ""}) ==
        "lock the switch: no configuration revision in flight: nv config revision -o json: expected an object, got an "
        "array");
  CHECK(a.failure(lock, {1, "", "Error: no\n"}).ends_with("exited with status 1: Error: no"));
}
