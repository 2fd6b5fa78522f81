// Test support for the fidelity tests (platform/<p>/fidelity_test.cpp): the variants of a device every
// platform's artifacts are read under, each rendered through the same templates `fabricctl render`
// uses, and the golden renders of the shipped inventories.
#pragma once

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "render/template_set.h"

namespace fabricctl::test {

/// The intent variants a renderer must get right: the fixture, and each optional block off or doubled.
inline std::vector<std::pair<std::string, std::function<void(DeviceDesired&)>>> intent_variants() {
  return {
      {"roce-lossless", [](DeviceDesired&) {}},
      {"ECN and DCQCN off (roce-pfc-only)",
       [](DeviceDesired& d) {
         d.qos.ecn_enabled = false;
         d.qos.ecn.clear();
         d.qos.dcqcn.enabled = false;
       }},
      {"watchdog off", [](DeviceDesired& d) { d.qos.watchdog.enabled = false; }},
      {"no lossless priority", [](DeviceDesired& d) { d.qos.lossless.fill(false); }},
      {"two lossless priorities, a second ECN queue",
       [](DeviceDesired& d) {
         d.qos.lossless[4] = true;
         d.qos.priority_to_tc[4] = 4;
         d.qos.tc[4] = {true, false, 20};
         d.qos.tc[0].bandwidth_pct = 30;
         d.qos.ecn.push_back({4, 100000, 1000000, 5});
       }},
      {"best-effort ECN on TC0 (NVIDIA's RoCE defaults)",
       [](DeviceDesired& d) {
         d.qos.ecn = {{0, 150000, 1500000, 100}, {3, 150000, 1500000, 100}};
       }},
  };
}

/// Renders the template artifact `template_name` (e.g. "eos/session.cfg.mustache") of `device`.
inline std::string render_template_of(const std::string& template_name, const nlohmann::json& context) {
  Diags diags;
  auto text = read_template(std::string(FABRICCTL_SOURCE_DIR) + "/templates/" + template_name, diags);
  REQUIRE(text);
  auto out = render_template(*text, context, template_name, diags);
  REQUIRE_MESSAGE(out, diags.str());
  return *out;
}

/// Every golden file named `file` (tests/golden/<inventory>/<device>/<file>), with its path.
inline std::vector<std::pair<std::string, std::string>> golden_files(const std::string& file) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(std::string(FABRICCTL_SOURCE_DIR) + "/tests/golden"))
    if (e.is_regular_file() && e.path().filename() == file) {
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream s;
      s << in.rdbuf();
      out.emplace_back(e.path().string(), s.str());
    }
  REQUIRE_MESSAGE(!out.empty(), "no golden " << file);
  return out;
}

/// Checks every golden `file` with `problems` (what the device would reject, one line each).
inline void check_goldens(const std::string& file,
                          const std::function<std::vector<std::string>(const std::string&)>& problems) {
  for (const auto& golden : golden_files(file)) {
    const auto& [path, text] = golden;
    CAPTURE(golden.first);
    const std::vector<std::string> found = problems(text);
    CHECK_MESSAGE(found.empty(), (found.empty() ? "" : found.front()));
  }
}

/// `text` with the first `from` replaced by `to`; fails the test when `text` has no `from`.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

}  // namespace fabricctl::test
