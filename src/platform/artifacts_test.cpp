// The platform table's artifacts: each is a template that exists under templates/<platform>/, or data
// built by the adapter; and every shipped template is one the table uses, so a template that became
// data (or was renamed) cannot linger where a site would keep editing it.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>
#include <utility>

#include "fixtures.h"
#include "platform/platform.h"

using namespace fabricctl;
namespace fs = std::filesystem;

TEST_CASE("platform artifacts: templates exist, data builders are set, no template is left unused") {
  const fs::path templates = fs::path(FABRICCTL_SOURCE_DIR) / "templates";
  std::set<fs::path> used;
  for (const PlatformAdapter& a : platforms()) {
    CAPTURE(std::string(a.name()));
    REQUIRE_FALSE(a.artifacts.empty());
    std::set<std::string> files;
    bool any_template = false;
    bool any_data = false;
    for (const ArtifactSpec& spec : a.artifacts) {
      CAPTURE(std::string(spec.file));
      CHECK(files.insert(std::string(spec.file)).second);  // one artifact per file name
      // Exactly one of template and data.
      CHECK(spec.template_name.empty() == static_cast<bool>(spec.data));
      any_data = any_data || spec.data;
      if (!spec.template_name.empty()) {
        any_template = true;
        const fs::path path = templates / std::string(a.name()) / std::string(spec.template_name);
        CHECK_MESSAGE(fs::is_regular_file(path), path.string());
        used.insert(path);
      }
    }
    // A context is needed exactly when a template is rendered; a document exactly when an artifact is data.
    CHECK(static_cast<bool>(a.context) == any_template);
    CHECK(static_cast<bool>(a.document) == any_data);
  }
  for (const auto& entry : fs::recursive_directory_iterator(templates)) {
    if (!entry.is_regular_file()) continue;
    CHECK_MESSAGE(used.count(entry.path()), "unused template " << entry.path().string());
  }
}

TEST_CASE("platform artifacts: data artifacts end in a newline and do not depend on the order of the ports") {
  int data_artifacts = 0;
  for (const PlatformAdapter& a : platforms()) {
    CAPTURE(std::string(a.name()));
    // Two ports: the example name and the next one ("Ethernet0", "Ethernet1").
    std::string second(a.traits.port_example);
    REQUIRE((!second.empty() && second.back() >= '0' && second.back() < '9'));
    second.back() = static_cast<char>(second.back() + 1);
    const DeviceDesired device = a.traits.role == Role::host
                                     ? test::example_host()
                                     : test::example_switch(a.platform(), {std::string(a.traits.port_example), second});
    REQUIRE(device.ports.size() == 2);
    DeviceDesired reversed = device;
    std::swap(reversed.ports[0], reversed.ports[1]);
    for (const ArtifactSpec& spec : a.artifacts) {
      if (!spec.data) continue;
      ++data_artifacts;
      CAPTURE(std::string(spec.file));
      const std::string text = spec.data(device, document_of(a, device));
      REQUIRE_FALSE(text.empty());
      CHECK(text.back() == '\n');
      // A switch's text is a function of its state, not of the order its ports come in. (A host's
      // nic-state.json keeps the order it is given, which resolve makes natural order: the golden
      // render of an inventory with its ports listed in reverse covers it, tests/cli/render_golden.sh.)
      if (a.traits.role != Role::host) CHECK(spec.data(reversed, document_of(a, reversed)) == text);
    }
  }
  CHECK(data_artifacts >= 3);  // config_db.json, config_db.patch.json, nic-state.json
}
