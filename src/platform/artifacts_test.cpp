// The platform table's artifacts: each is a template that exists under templates/<platform>/, or data
// built by the adapter; and every shipped template is one the table uses, so a template that became
// data (or was renamed) cannot linger where a site would keep editing it.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <string>

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
    for (const ArtifactSpec& spec : a.artifacts) {
      CAPTURE(std::string(spec.file));
      CHECK(files.insert(std::string(spec.file)).second);  // one artifact per file name
      // Exactly one of template and data.
      CHECK(spec.template_name.empty() == static_cast<bool>(spec.data));
      if (!spec.template_name.empty()) {
        any_template = true;
        const fs::path path = templates / std::string(a.name()) / std::string(spec.template_name);
        CHECK_MESSAGE(fs::is_regular_file(path), path.string());
        used.insert(path);
      }
    }
    // A context is needed exactly when a template is rendered.
    CHECK(static_cast<bool>(a.context) == any_template);
  }
  for (const auto& entry : fs::recursive_directory_iterator(templates)) {
    if (!entry.is_regular_file()) continue;
    CHECK_MESSAGE(used.count(entry.path()), "unused template " << entry.path().string());
  }
}

TEST_CASE("platform artifacts: data artifacts are deterministic and end in a newline") {
  for (const PlatformAdapter& a : platforms()) {
    const DeviceDesired device = a.role == Role::host ? test::example_host()
                                                      : test::example_switch(a.platform, {std::string(a.port_example)});
    for (const ArtifactSpec& spec : a.artifacts) {
      if (!spec.data) continue;
      CAPTURE(std::string(spec.file));
      const std::string text = spec.data(device);
      REQUIRE_FALSE(text.empty());
      CHECK(text.back() == '\n');
      CHECK(spec.data(device) == text);
    }
  }
}
