// RFC 6902 JSON patches computed as the difference between two documents, for configuration that is
// data (SONiC CONFIG_DB today; the host's NIC state later). Object members only: the documents the
// adapters diff hold arrays only as leaf values, compared whole.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

/// One RFC 6901 reference token: "~" -> "~0", "/" -> "~1", so that "Ethernet0|3" or "a/b" address
/// the member of that exact name.
std::string json_pointer_token(std::string_view name);

/// The reference tokens of a JSON pointer, unescaped: "/PORT/Ethernet0/mtu" -> PORT, Ethernet0, mtu;
/// "/A~1B" -> "A/B". Empty for "" (the whole document) and for a pointer that does not begin with "/".
std::vector<std::string> json_pointer_tokens(std::string_view pointer);

/// One RFC 6902 operation, its members in the order the RFC writes them: {"op", "path"} for "remove",
/// {"op", "path", "value"} for "add" and "replace".
nlohmann::ordered_json patch_op(std::string_view op, std::string path);
nlohmann::ordered_json patch_op(std::string_view op, std::string path, const nlohmann::ordered_json& value);

/// Equality as JSON means it (RFC 8259: an object is unordered): member order does not count, array
/// order does. ordered_json's own == compares member order too.
bool json_equal(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b);

/// Appends to `ops` (a JSON array) the RFC 6902 operations that turn `base` into `desired` at `path`
/// (a JSON pointer, "" for the root). Objects are compared member by member down to `depth` levels
/// below `path`; deeper values, and any value that is not an object on both sides, are compared
/// whole. A member only in `desired` becomes "add", only in `base` "remove", different "replace".
/// Deterministic: `desired`'s members in its order first, then removals in `base`'s order.
void append_json_diff(const nlohmann::ordered_json& base, const nlohmann::ordered_json& desired,
                      const std::string& path, int depth, nlohmann::ordered_json& ops);

/// The RFC 6902 patch from `base` to `desired` (see append_json_diff), as a JSON array.
nlohmann::ordered_json json_diff(const nlohmann::ordered_json& base, const nlohmann::ordered_json& desired, int depth);

/// Applies an RFC 6902 patch to `doc` as a whole or not at all. Returns the error ("path /X/Y: ...")
/// when an operation fails, e.g. an "add" whose parent is missing, a "remove" or "replace" of a
/// member that does not exist; `doc` is then unchanged. Uses nlohmann's implementation, which is
/// independent of json_diff, so tests that apply a computed patch check the diff against it.
std::optional<std::string> apply_json_patch(nlohmann::ordered_json& doc, const nlohmann::ordered_json& patch);

}  // namespace fabricctl
