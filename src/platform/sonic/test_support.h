// Test-only helpers for the SONiC adapter: the leaf its tests render, an artifact's text as `fabricctl
// render` writes it (through the platform table), parsed, and an RFC 6902 patch applied the way
// `config apply-patch` would.
// Included by *_test.cpp only.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "fixtures.h"
#include "platform/json_patch.h"
#include "platform/platform.h"

namespace fabricctl::sonic::testing {

/// The SONiC leaf the adapter's tests render: the example switch's intent on Ethernet0 and Ethernet8.
inline DeviceDesired fixture() { return fabricctl::test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet8"}); }

/// The text of one SONiC artifact (e.g. "config_db.json") of `device`, built through the adapter table.
inline std::string render_artifact(const DeviceDesired& device, std::string_view file) {
  for (const ArtifactSpec& spec : adapter(Platform::sonic).artifacts) {
    if (spec.file != file) continue;
    REQUIRE_MESSAGE(static_cast<bool>(spec.data), std::string(file) << " is not a data artifact");
    return spec.data(device, document_of(adapter(Platform::sonic), device));
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

/// Applies an RFC 6902 patch to `doc` with nlohmann's implementation (independent of the adapter's
/// diff). As RFC 6902 requires, the parent of an "add" must exist and the target of a "remove" or
/// "replace" must exist; anything else fails the test.
inline void apply_patch(nlohmann::json& doc, const nlohmann::json& patch) {
  REQUIRE(patch.is_array());
  try {
    doc = doc.patch(patch);
  } catch (const nlohmann::json::exception& e) {
    FAIL("patch does not apply: " << e.what());
  }
}

/// `config load FILE` on a switch whose CONFIG_DB is `db`: sonic-cfggen --write-to-db, whose
/// ConfigDBConnector.mod_config merges field by field. A table or an entry given as null is deleted
/// whole; every other entry's fields are set, and fields the file does not name survive (a field can
/// never be deleted this way). An entry left without fields is gone too: Redis holds no empty hash.
inline nlohmann::ordered_json load_config(nlohmann::ordered_json db, const nlohmann::ordered_json& file) {
  for (const auto& [table, entries] : file.items()) {
    if (entries.is_null()) {
      db.erase(table);
      continue;
    }
    for (const auto& [key, fields] : entries.items()) {
      if (fields.is_null()) {
        if (db.contains(table)) db[table].erase(key);
        continue;
      }
      nlohmann::ordered_json& entry = db[table][key];
      if (!entry.is_object()) entry = nlohmann::ordered_json::object();
      for (const auto& [field, value] : fields.items()) entry[field] = value;
    }
  }
  return db;
}

/// `doc` with the RFC 6902 `patch` applied by the project's own applier (platform/json_patch.h); fails the
/// test when it does not apply.
inline nlohmann::ordered_json applied(nlohmann::ordered_json doc, const nlohmann::ordered_json& patch) {
  const auto error = apply_json_patch(doc, patch);
  REQUIRE_MESSAGE(!error, *error << "\npatch: " << patch.dump(2));
  return doc;
}

/// base + patch holds desired: every entry of desired's entry tables equal, every field of PORT,
/// CABLE_LENGTH, PFC_WD|GLOBAL and PORT_QOS_MAP|global (entries shared with SONiC) equal, and every
/// entry desired gives as null absent.
inline void check_holds(const nlohmann::ordered_json& result, const nlohmann::ordered_json& desired) {
  // Named references, not structured bindings: doctest's CAPTURE is a lambda, and clang before 16
  // cannot capture a binding.
  for (const auto& table_item : desired.items())
    for (const auto& entry : table_item.value().items()) {
      const std::string& table = table_item.key();
      const std::string& key = entry.key();
      const nlohmann::ordered_json& value = entry.value();
      CAPTURE(table);
      CAPTURE(key);
      if (value.is_null()) {
        CHECK_FALSE((result.contains(table) && result[table].contains(key)));
        continue;
      }
      REQUIRE(result.contains(table));
      REQUIRE(result[table].contains(key));
      if (table == "PORT" || table == "CABLE_LENGTH" || (table == "PFC_WD" && key == "GLOBAL") ||
          (table == "PORT_QOS_MAP" && key == "global")) {
        for (const auto& [field, v] : value.items())
          CHECK(result[table][key].value(field, nlohmann::ordered_json()) == v);
      } else {
        CHECK(json_equal(result[table][key], value));
      }
    }
}

}  // namespace fabricctl::sonic::testing
