// Test-only helpers for the SONiC adapter: render the real templates from the source tree and apply
// an RFC 6902 patch the way `config apply-patch` would (the "add" subset fabricctl writes).
// Included by *_test.cpp only.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "platform/platform.h"
#include "render/template_set.h"

namespace fabricctl::sonic::test {

/// Renders one SONiC artifact (e.g. "config_db.json") of `device` through the adapter table and
/// templates/sonic/ of the source tree; fails the test on a template error.
inline std::string render_artifact(const DeviceDesired& device, std::string_view file) {
  const PlatformAdapter& a = adapter(Platform::sonic);
  for (const ArtifactSpec& spec : a.artifacts) {
    if (spec.file != file) continue;
    Diags diags;
    const auto path = std::filesystem::path(FABRICCTL_SOURCE_DIR) / "templates" / "sonic" / spec.template_name;
    const auto text = read_template(path, diags);
    REQUIRE_MESSAGE(text.has_value(), diags.str());
    const auto out = render_template(*text, a.context(device), std::string(spec.template_name), diags);
    REQUIRE_MESSAGE(out.has_value(), diags.str());
    return *out;
  }
  FAIL("no SONiC artifact named " << std::string(file));
  return {};
}

/// Parses rendered text as JSON, keeping key order; fails the test with the text on a syntax error.
inline nlohmann::ordered_json parse_ordered(const std::string& text) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(text, nullptr, false);
  REQUIRE_MESSAGE(!j.is_discarded(), "not valid JSON:\n" << text);
  return j;
}

/// Parses rendered text as JSON (keys sorted; for comparisons).
inline nlohmann::json parse(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_MESSAGE(!j.is_discarded(), "not valid JSON:\n" << text);
  return j;
}

/// Applies the "add" operations of an RFC 6902 patch to `doc`. As RFC 6902 requires, the parent of
/// each path must exist; an existing member is replaced. Anything else fails the test.
inline void apply_patch(nlohmann::json& doc, const nlohmann::json& patch) {
  REQUIRE(patch.is_array());
  for (const auto& op : patch) {
    REQUIRE(op.at("op") == "add");
    const auto path = op.at("path").get<std::string>();
    REQUIRE_MESSAGE(path.size() > 1, "path " << path);
    REQUIRE_MESSAGE(path[0] == '/', "path " << path);
    // nlohmann's json_pointer decodes ~0 and ~1 the RFC 6901 way.
    const nlohmann::json::json_pointer ptr(path);
    REQUIRE_MESSAGE(doc.contains(ptr.parent_pointer()), "parent of " << path << " does not exist");
    nlohmann::json& parent = doc.at(ptr.parent_pointer());
    REQUIRE_MESSAGE(parent.is_object(), "parent of " << path << " is not an object");
    parent[ptr.back()] = op.at("value");
  }
}

}  // namespace fabricctl::sonic::test
