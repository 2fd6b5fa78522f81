// A strict reader for untrusted JSON documents (snapshots today; switch output and apply state
// next): size- and depth-limited parsing that rejects duplicate keys, then typed accessors that
// check every value and name the JSON path of the first problem, quoting the bad value:
//   ports.Ethernet0.mtu: "70000" is out of range 1-65535
//   ports.Ethernet0.mtuu: unknown key; did you mean "mtu"?
//
// Schema code reads a document with the accessors, which throw JsonError; read_json() runs such
// code and turns the first error into an Expected, so no exception crosses a module boundary.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "util/expected.h"

namespace fabricctl::jsonr {

/// Keys sorted, O(log n) lookup; duplicate keys are rejected while parsing, so none is lost.
using Json = nlohmann::json;

/// Limits on one untrusted document.
struct JsonLimits {
  size_t max_bytes = 16 * 1024 * 1024;  // text size, checked before parsing
  size_t max_depth = 16;                // nesting of objects and arrays
};

/// Parses `text` as one JSON document. Errors (one lowercase line): text over max_bytes; invalid
/// JSON "invalid JSON at line L, column C (byte offset O): <what the parser expected>" (the parser's
/// echo of the input is dropped: it can be long and hostile); nesting deeper than max_depth (with
/// the path); a duplicate key (with the path).
Expected<Json> parse_json(std::string_view text, const JsonLimits& limits);

/// The first problem found by the accessors below: "path: what" (just "what" at the top level).
struct JsonError {
  std::string message;
};

/// Paths: `child("ports", "Ethernet0")` is "ports.Ethernet0", `element("ets", 1)` is "ets[1]". A key
/// outside [A-Za-z0-9/._:-] (or empty, or longer than 63 bytes) is quoted, so a hostile key can
/// never inject text into a message.
std::string child(const std::string& path, std::string_view key);
std::string element(const std::string& path, size_t i);

/// Throws JsonError{"path: what"}.
[[noreturn]] void fail(const std::string& path, const std::string& what);

/// A value for a message: null, an object, an array, true, a string "x", a number "5".
std::string describe(const Json& v);

/// The member `key` of an object, or nullptr.
const Json* find(const Json& obj, std::string_view key);
/// The member `key`; fails with `path: missing required key "key"`.
const Json& required(const Json& obj, const std::string& path, std::string_view key);
/// Fails unless `v` is an object.
void expect_object(const Json& v, const std::string& path);
/// Fails unless `v` is an array of at most `max` entries (`what` names them: "N GIDs are more than ...").
void expect_array(const Json& v, const std::string& path, size_t max, std::string_view what);
/// Fails on the first key of `obj` not in `allowed`, with "did you mean" for a near miss and the
/// allowed list otherwise.
void check_keys(const Json& obj, const std::string& path, const std::vector<std::string_view>& allowed);
/// An integer in [lo, hi]; fails on other types, floats and values out of range.
int64_t integer(const Json& v, const std::string& path, int64_t lo, int64_t hi);
/// A non-negative integer of up to 64 bits (counters).
uint64_t unsigned_integer(const Json& v, const std::string& path);
/// A string.
const std::string& string_value(const Json& v, const std::string& path);
/// true or false.
bool bool_value(const Json& v, const std::string& path);
/// The index of the string value among `choices`; fails with the list of choices.
size_t choice(const Json& v, const std::string& path, const std::vector<std::string_view>& choices);

/// "invalid JSON: <what>" for an exception of the JSON library, control characters replaced.
std::string exception_message(const Json::exception& e);

/// Parses `text` and runs `read(const Json&)` on it: the value `read` returns, or the first error
/// (a parse error, or the JsonError `read` threw) as a message.
template <typename F>
auto read_json(std::string_view text, const JsonLimits& limits, F&& read)
    -> Expected<std::decay_t<std::invoke_result_t<F, const Json&>>> {
  auto doc = parse_json(text, limits);
  if (!doc) return unexpected(doc.error());
  try {
    return std::forward<F>(read)(*doc);
  } catch (const JsonError& e) {
    return unexpected(e.message);
  } catch (const Json::exception& e) {
    return unexpected(exception_message(e));
  }
}

}  // namespace fabricctl::jsonr
