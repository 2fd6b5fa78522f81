// A strict reader for untrusted JSON documents (snapshots today; switch output and apply state
// next): size- and depth-limited parsing that rejects duplicate keys, then typed accessors that
// check every value and name the JSON path of the first problem, quoting the bad value:
//   ports.Ethernet0.mtu: "70000" is out of range 1-65535
//   ports.Ethernet0.mtuu: unknown key; did you mean "mtu"?
//
// Schema code reads a document with the accessors, which throw JsonError; read_json() runs such
// code and turns the first error into an Expected, so no exception crosses a module boundary.
//
// Parsing is simdjson's (util/json_document.h), with the reader's own rules (depth, duplicate keys)
// checked on its tape; a document that fails either is parsed again by nlohmann's parser
// (util/json_locate.h) for a message that says where the first problem is.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/expected.h"
#include "util/json_document.h"
#include "util/json_path.h"

namespace fabricctl::jsonr {

/// Limits on one untrusted document.
struct JsonLimits {
  size_t max_bytes = size_t{16} * 1024 * 1024;  // text size, checked before parsing
  size_t max_depth = 16;                        // nesting of objects and arrays
  /// Opt-in: a key repeated in one object is accepted when its value equals the value of its first
  /// occurrence (Junos prints some elements twice in one object, docs/reference-junos.md section d);
  /// find() gives the first. A repeated key with a different value is still an error, "<path>: duplicate
  /// key with a different value". Equal: the same type, string, true/false/null or number text, arrays
  /// of equal entries, objects of the same keys in the same order with equal values.
  bool equal_duplicates = false;
};

/// Parses `text` as one JSON document. Errors (one lowercase line), the first in document order: text
/// over max_bytes (checked first); invalid JSON "invalid JSON at line L, column C (byte offset O):
/// <what the parser expected>" (the parser's echo of the input is dropped: it can be long and
/// hostile), including a NUL byte after the document; nesting deeper than max_depth (with the path);
/// a duplicate key (with the path); an integer beyond 64 bits (with the path). A leading byte order
/// mark is skipped. Objects keep their members in document order. With equal_duplicates, a repeated
/// key with a different value is the first problem in document order of a document that is valid
/// JSON; in one that is not, the syntax error is reported instead, wherever it is.
Expected<Document> parse_json(std::string_view text, const JsonLimits& limits);

/// The first problem found by the accessors below: "path: what" (just "what" at the top level).
struct JsonError {
  std::string message;
};

/// Throws JsonError{"path: what"}.
[[noreturn]] void fail(const Path& path, const std::string& what);

/// A value for a message: null, an object, an array, true, a string "x", a number "5".
std::string describe(Value v);

/// The member `key` of an object, or nothing (also when `obj` is not an object).
std::optional<Value> find(Value obj, std::string_view key);
/// The member `key`; fails with `path: missing required key "key"`.
Value required(Value obj, const Path& path, std::string_view key);
/// Fails unless `v` is an object.
void expect_object(Value v, const Path& path);
/// Fails unless `v` is an array of at most `max` entries (`what` names them: "N GIDs are more than ...").
void expect_array(Value v, const Path& path, size_t max, std::string_view what);
/// Fails on a key of `obj` not in `allowed`, with "did you mean" for a near miss and the allowed list
/// otherwise. With several, the first in sorted (byte) order is reported, whatever the document order.
void check_keys(Value obj, const Path& path, const std::vector<std::string_view>& allowed);
/// The members of `obj` named in `keys`, in the order of `keys` (nothing for a key it lacks), found
/// in one pass over the object; fails as check_keys() does on any other key. For a reader that
/// knows every key an object may have, instead of check_keys() and one find() per key:
///   const auto [tc, tsa] = fields(v, path, std::array<std::string_view, 2>{"tc", "tsa"});
template <size_t N>
std::array<std::optional<Value>, N> fields(Value obj, const Path& path, const std::array<std::string_view, N>& keys);
void fields(Value obj, const Path& path, std::span<const std::string_view> keys, std::span<std::optional<Value>> out);
/// The value fields() found for `key`; fails with `path: missing required key "key"` when there was none.
Value required(const std::optional<Value>& field, const Path& path, std::string_view key);
/// An integer in [lo, hi]; fails on other types, floats and values out of range.
int64_t integer(Value v, const Path& path, int64_t lo, int64_t hi);
/// A non-negative integer of up to 64 bits (counters).
uint64_t unsigned_integer(Value v, const Path& path);
/// A string: a view into the document, valid while it lives.
std::string_view string_value(Value v, const Path& path);
/// true or false.
bool bool_value(Value v, const Path& path);
/// The index of the string value among `choices`; fails with the list of choices.
size_t choice(Value v, const Path& path, std::span<const std::string_view> choices);
inline size_t choice(Value v, const Path& path, std::initializer_list<std::string_view> choices) {
  return choice(v, path, std::span(choices.begin(), choices.size()));
}

template <size_t N>
std::array<std::optional<Value>, N> fields(Value obj, const Path& path, const std::array<std::string_view, N>& keys) {
  std::array<std::optional<Value>, N> out;
  fields(obj, path, keys, out);
  return out;
}

/// Parses `text` and runs `read(Value root)` on it: the value `read` returns, or the first error
/// (a parse error, or the JsonError `read` threw) as a message.
template <typename F>
auto read_json(std::string_view text, const JsonLimits& limits, F&& read)
    -> Expected<std::decay_t<std::invoke_result_t<F, Value>>> {
  auto doc = parse_json(text, limits);
  if (!doc) return unexpected(doc.error());
  try {
    return std::forward<F>(read)(doc->root());
  } catch (const JsonError& e) {
    return unexpected(e.message);
  }
}

}  // namespace fabricctl::jsonr
