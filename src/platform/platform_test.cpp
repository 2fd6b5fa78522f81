// The steps of adding a platform (docs/ARCHITECTURE.md, "Adding a platform"), each checked: a platform
// with a forgotten step fails here, naming the step.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "fixtures.h"
#include "platform/platform.h"

using namespace fabricctl;
using fabricctl::test::example_host;
using fabricctl::test::example_switch;
namespace fs = std::filesystem;

namespace {

const fs::path kSource = FABRICCTL_SOURCE_DIR;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, concatenated.
std::string all_text(const fs::path& dir, std::string_view suffix) {
  std::string out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().string().ends_with(suffix)) out += slurp(e.path());
  return out;
}

DeviceDesired example(Platform p) {
  DeviceDesired d = adapter(p).traits.role == Role::host ? example_host() : example_switch(p, {"Ethernet0"});
  d.platform = p;
  return d;
}

}  // namespace

TEST_CASE("platform steps: one names row and one adapter row per enumerator") {
  REQUIRE(platforms().size() == kPlatformNames.size());
  for (size_t i = 0; i < kPlatformNames.size(); ++i) {
    const PlatformName& n = kPlatformNames[i];
    CAPTURE(n.name);
    CHECK(platforms()[i].platform() == n.id);
    CHECK(find_platform(n.name) == &adapter(n.id));
    CHECK(platform_label(n.id).size() > 0);
    CHECK(static_cast<bool>(adapter(n.id).fix));
  }
  CHECK(find_platform("Sonic") == nullptr);  // exact spelling only
  CHECK(std::string(platform_choices()) == "sonic, eos, nvue, linux, nxos or junos");
}

TEST_CASE("platform steps: a folder with context, fix and their tests; templates for every artifact") {
  for (const PlatformAdapter& a : platforms()) {
    const std::string name(a.name());
    CAPTURE(name);
    const fs::path dir = kSource / "src/platform" / name;
    CHECK_MESSAGE(fs::exists(dir / "fix.cpp"), "step: src/platform/<name>/fix.cpp");
    CHECK_MESSAGE(fs::exists(dir / "fix_test.cpp"), "step: src/platform/<name>/fix_test.cpp");
    CHECK_MESSAGE(fs::exists(dir / "fidelity_test.cpp"),
                  "step: src/platform/<name>/fidelity_test.cpp reads the artifacts as the device would");
    CHECK_MESSAGE(!a.artifacts.empty(), "step: the adapter row lists its artifacts");
    bool templated = false;
    for (const ArtifactSpec& art : a.artifacts) templated = templated || !art.data;
    // A template artifact renders from the adapter's context (context.cpp); data artifacts are built
    // as JSON values and need neither.
    CHECK_MESSAGE(templated == static_cast<bool>(a.context), "step: a context builder exactly when templates need it");
    if (templated) {
      CHECK_MESSAGE(fs::exists(dir / "context.cpp"), "step: src/platform/<name>/context.cpp");
      CHECK_MESSAGE(fs::exists(dir / "context_test.cpp"), "step: src/platform/<name>/context_test.cpp");
    }
  }
}

TEST_CASE("platform steps: every setting of its role has a fix that can be pasted") {
  const Setting host_settings[] = {Setting::mtu,       Setting::speed,        Setting::link_up, Setting::trust,
                                   Setting::dscp_map,  Setting::pfc,          Setting::ets,     Setting::dcqcn,
                                   Setting::cnp,       Setting::dcqcn_params, Setting::cabling, Setting::rdma_gid,
                                   Setting::rdma_port, Setting::roce_tos,     Setting::nccl_tc, Setting::nccl_gid};
  const Setting switch_settings[] = {Setting::mtu,      Setting::speed,  Setting::link_up, Setting::trust,
                                     Setting::dscp_map, Setting::pfc,    Setting::ets,     Setting::ecn,
                                     Setting::watchdog, Setting::cabling};
  for (const PlatformAdapter& a : platforms()) {
    CAPTURE(a.name());
    DeviceDesired d = example(a.platform());
    REQUIRE(!d.ports.empty());
    d.qos.dcqcn.rp = {{"rpg_ai_rate", 10}};  // a fix of DCQCN parameters names those the profile sets
    auto check = [&](Setting s) {
      const std::string text = fix_text(Fix{s, &d, &d.ports.front(), {}});
      CAPTURE(static_cast<int>(s));
      CHECK_MESSAGE(!text.empty(), "step: platform/<name>/fix.cpp phrases every setting of its role");
      // Per-port on every platform (QoS maps are device-wide on some): the fix names the port.
      if (s == Setting::mtu || s == Setting::link_up) CHECK(text.find(d.ports.front().name) != std::string::npos);
    };
    if (a.traits.role == Role::host)
      for (Setting s : host_settings) check(s);
    else
      for (Setting s : switch_settings) check(s);
  }
}

TEST_CASE("platform steps: an example device, golden files and docs") {
  const std::string inventories = all_text(kSource / "inventory", ".yaml");
  const std::string docs =
      slurp(kSource / "docs/cli.md") + slurp(kSource / "docs/profiles.md") + slurp(kSource / "docs/inventory.md");
  for (const PlatformAdapter& a : platforms()) {
    const std::string name(a.name());
    CAPTURE(name);
    CHECK_MESSAGE(inventories.find("platform: " + name) != std::string::npos,
                  "step: a device of the platform in an example inventory (and its golden files)");
    CHECK_MESSAGE(docs.find(name) != std::string::npos, "step: docs (cli.md, profiles.md, inventory.md)");
    bool golden = false;
    for (const auto& e : fs::recursive_directory_iterator(kSource / "tests/golden"))
      for (const ArtifactSpec& art : a.artifacts)
        golden = golden || (e.is_regular_file() && e.path().filename() == std::string(art.file));
    CHECK_MESSAGE(golden, "step: UPDATE=1 tests/cli/render_golden.sh records its golden files");
  }
}

TEST_CASE("every platform has a collector: commands and a reader of their outputs") {
  for (const PlatformAdapter& a : platforms()) {
    CAPTURE(a.name());
    CHECK_FALSE(a.collector.commands.empty());
    const bool has_observe = a.collector.observe != nullptr;
    CHECK(has_observe);
  }
}

TEST_CASE("platform steps: an adapter row, a read side, a change side, a lab emulator, docs and schema") {
  const auto snapshot_schema = nlohmann::json::parse(slurp(kSource / "schemas/snapshot-v1.schema.json"));
  const nlohmann::json& names = snapshot_schema["properties"]["platform"]["enum"];
  REQUIRE(names.is_array());
  const std::string lab_platforms = slurp(kSource / "tests/lab/platforms.py");
  const std::string lab_traffic = slurp(kSource / "tests/lab/traffic.py");
  for (const PlatformAdapter& a : platforms()) {
    const std::string name(a.name());
    CAPTURE(name);
    const fs::path dir = kSource / "src/platform" / name;
    CHECK_MESSAGE(fs::exists(dir / "adapter.cpp"), "step: src/platform/<name>/adapter.cpp builds the row");
    CHECK_MESSAGE(&traits(a.platform()) == &a.traits, "step: the row's traits are what the model reads");
    CHECK_MESSAGE(find_traits(name) == &a.traits, "step: the traits are found by the inventory name");
    CHECK_MESSAGE((a.traits.mtu_min > 0 && a.traits.mtu_min < a.traits.mtu_max), "step: an MTU range");
    CHECK_MESSAGE(std::regex_match(std::string(a.traits.port_example), std::regex(std::string(a.traits.port_pattern))),
                  "step: the port example matches the port pattern");
    CHECK_MESSAGE(!a.traits.trust_modes.empty(), "step: the trust modes it renders");
    CHECK_MESSAGE(a.traits.inventory_keys.empty() == (a.traits.hardware == nullptr),
                  "step: inventory keys exactly with a reader of their values");
    CHECK_MESSAGE((fs::exists(dir / "collect.cpp") && fs::exists(dir / "collect_test.cpp")),
                  "step: src/platform/<name>/collect.cpp and its test");
    CHECK_MESSAGE((a.applier.change != nullptr && a.applier.steps != nullptr && !a.applier.transaction.empty()),
                  "step: src/platform/<name>/apply.cpp: the native change and its transaction");
    CHECK_MESSAGE((fs::exists(dir / "apply.cpp") && fs::exists(dir / "apply_test.cpp")),
                  "step: src/platform/<name>/apply.cpp and its test");
    CHECK_MESSAGE(fs::exists(kSource / "docs" / ("transactions-" + name + ".md")),
                  "step: docs/transactions-<name>.md: the transaction as an operator reads it");
    CHECK_MESSAGE(std::find(names.begin(), names.end(), name) != names.end(),
                  "step: the name in schemas/snapshot-v1.schema.json's platform enum");
    // A switch's NOS runs in the lab as an emulator (a host runs the real fabricctl there).
    if (a.traits.role == Role::switch_) {
      CHECK_MESSAGE(fs::exists(kSource / "tests/lab/emulators" / (name + ".py")),
                    "step: tests/lab/emulators/<name>.py, what the NOS accepts and refuses, with sources");
      CHECK_MESSAGE(lab_platforms.find("\"" + name + "\": (") != std::string::npos,
                    "step: its row in tests/lab/platforms.py (how the lab loads it)");
      // Health judges a switch by its counters: the collector reads them, the lab's traffic moves them.
      const std::vector<CollectCommand>& commands = a.collector.commands;
      CHECK_MESSAGE(std::any_of(commands.begin(), commands.end(), [](const CollectCommand& c) { return c.counter; }),
                    "step: the collector's counter commands (docs/counters-reference.md)");
      CHECK_MESSAGE(lab_traffic.find("spec[\"platform\"] == \"" + name + "\"") != std::string::npos,
                    "step: what it counts written by the lab's traffic model (tests/lab/traffic.py)");
    }
  }
  CHECK_MESSAGE(names.size() == platforms().size(), "the schema names no platform fabricctl does not have");
}

TEST_CASE("platform steps: tests name an unknown platform by the reserved name, which no platform takes") {
  CHECK(find_platform(kReservedPlatformName) == nullptr);
  CHECK_FALSE(parse_platform(kReservedPlatformName));
  for (const PlatformName& n : kPlatformNames) CHECK(n.name != kReservedPlatformName);
  for (const PlatformAlias& a : kPlatformAliases) CHECK(a.alias != kReservedPlatformName);
}

TEST_CASE("transaction: a step's failure says how the command ended, a missing exit status by name") {
  const RemoteStep step{"arm the revert timer", "x", ""};
  CHECK(exit_status_failure(step, {0, "out", "err"}).empty());
  CHECK(exit_status_failure(step, {5, "", "Unit x not loaded.\n"}) ==
        "arm the revert timer: exited with status 5: Unit x not loaded.");
  // -1: the channel closed with no exit status (a device whose SSH server sends none).
  CHECK(exit_status_failure(step, {-1, "partial\n", ""}) ==
        "arm the revert timer: ended without an exit status: partial");
  CHECK(ended_text(0) == "exited with status 0");
}
