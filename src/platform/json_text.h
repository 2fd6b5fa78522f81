// JSON text of the documents adapters build, written straight into a string. nlohmann's serializer
// checks every character for escapes and goes through an output adapter per write; the documents
// here are nearly all ASCII names and integers, and a large fabric writes ~1 GB of them. Values
// that need escaping (or are not integers) go through nlohmann's serializer, so the text is the same.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace fabricctl {

/// Appends a scalar (or any value, compact) as JSON text: "name", 42, true, null.
void append_json_scalar(const nlohmann::ordered_json& j, std::string& out);

/// Appends `"key": ` (a member name and its separator).
void append_json_key(const std::string& key, std::string& out);

/// The text nlohmann's j.dump(indent) gives (members in document order, invalid UTF-8 replaced),
/// built faster.
std::string dump_indented(const nlohmann::ordered_json& j, int indent);

}  // namespace fabricctl
