#include "util/json_reader.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "util/diag.h"
#include "util/json_locate.h"
#include "util/spell.h"
#include "util/text.h"

namespace fabricctl::jsonr {
namespace {

std::string with_path(const std::string& path, const std::string& what) {
  return path.empty() ? what : path + ": " + what;
}

// Length first, then the bytes, without a memcmp call: keys are short and most differ in length
// or in their first bytes.
bool same_key(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

bool is_container(Value v) { return v.is_object() || v.is_array(); }

// Whether `a` and `b` are the same JSON value (JsonLimits::equal_duplicates words it). Recursion in
// step on both: no deeper than the shallower of the two, which the caller has checked.
bool same_value(Value a, Value b) {
  if (a.is_object() || a.is_array()) {
    if (a.is_object() != b.is_object() || a.is_array() != b.is_array() || a.size() != b.size()) return false;
    if (a.is_array()) {
      auto other = b.elements().begin();
      for (const Value x : a.elements())
        if (!same_value(x, *other++)) return false;
      return true;
    }
    auto other = b.members().begin();
    for (const Member m : a.members()) {
      const Member n = *other++;
      if (!same_key(m.key, n.key) || !same_value(m.value, n.value)) return false;
    }
    return true;
  }
  if (a.is_string()) return b.is_string() && a.string() == b.string();
  if (a.is_bool()) return b.is_bool() && a.boolean() == b.boolean();
  if (a.is_null()) return b.is_null();
  return b.is_number() && a.number_text() == b.number_text();
}

// The reader's rules with JsonLimits::equal_duplicates, on a document simdjson parsed: the first
// problem in document order (nesting deeper than max_depth, a key repeated with a different value),
// worded as locate_json_error() words its problems, into `error`; false when there is one. `depth`
// counts `v`, a container.
constexpr size_t kPairwiseKeys = 16;  // objects up to this size look up repeated keys linearly
bool equal_duplicates_only(Value v, const Path& path, size_t depth, size_t max_depth, std::string& error) {
  if (depth > max_depth) {
    error = with_path(path.str(), "nesting deeper than " + std::to_string(max_depth) + " levels");
    return false;
  }
  if (v.is_array()) {
    size_t i = 0;
    for (const Value x : v.elements()) {
      if (is_container(x) && !equal_duplicates_only(x, element(path, i), depth + 1, max_depth, error)) return false;
      ++i;
    }
    return true;
  }
  // The first member of each key so far: a list for small objects, a hash map for large ones (a hostile
  // object of many keys must not cost their square).
  const bool large = v.size() > kPairwiseKeys;
  std::vector<Member> small;
  std::unordered_map<std::string_view, Value> index;
  for (const Member m : v.members()) {
    std::optional<Value> first;
    if (large) {
      if (const auto [it, added] = index.try_emplace(m.key, m.value); !added) first = it->second;
    } else {
      for (const Member& s : small)
        if (same_key(s.key, m.key)) {
          first = s.value;
          break;
        }
      if (!first) small.push_back(m);
    }
    if (first) {
      // Equal to the first, which was checked: nothing more to check in it.
      if (same_value(*first, m.value)) continue;
      error = with_path(child(path, m.key).str(), "duplicate key with a different value");
      return false;
    }
    if (is_container(m.value) && !equal_duplicates_only(m.value, child(path, m.key), depth + 1, max_depth, error))
      return false;
  }
  return true;
}

}  // namespace

void fail(const Path& path, const std::string& what) { throw JsonError{with_path(path.str(), what)}; }

Expected<Document> parse_json(std::string_view text, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    return unexpected("text is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                      std::to_string(limits.max_bytes) + " bytes");
  Document doc;
  const simdjson::error_code code = doc.parse(text);
  if (code == simdjson::SUCCESS && doc.within_rules(limits.max_depth)) return doc;
  if (code == simdjson::SUCCESS && limits.equal_duplicates) {
    // within_rules() refuses every repeated key; this walk accepts those with equal values.
    std::string error;
    if (is_container(doc.root()) && !equal_duplicates_only(doc.root(), Path(), 1, limits.max_depth, error))
      return unexpected(std::move(error));
    return doc;
  }
  // The rare path: parse again, slowly, for the location of the first problem.
  std::string error = locate_json_error(text, limits.max_depth, !limits.equal_duplicates);
  if (error.empty()) {
    // nlohmann accepted what simdjson refused: no known case is left (integers beyond 64 bits and a
    // byte order mark are handled), but never let a refused document through.
    error = code != simdjson::SUCCESS
                ? "invalid JSON: " + std::string(simdjson::error_message(code))
                : "invalid JSON: duplicate key or nesting deeper than " + std::to_string(limits.max_depth) + " levels";
  }
  return unexpected(std::move(error));
}

std::string describe(Value v) {
  if (v.is_null()) return "null";
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  if (v.is_string()) return "a string " + quote(v.string());
  if (v.is_bool()) return v.boolean() ? "true" : "false";
  return "a number " + quote(v.number_text());
}

std::optional<Value> find(Value obj, std::string_view key) { return obj.find(key); }

Value required(Value obj, const Path& path, std::string_view key) {
  const std::optional<Value> v = obj.find(key);
  if (!v) fail(path, "missing required key " + quote(key));
  return *v;
}

void expect_object(Value v, const Path& path) {
  if (!v.is_object()) fail(path, "expected an object, got " + describe(v));
}

void expect_array(Value v, const Path& path, size_t max, std::string_view what) {
  if (!v.is_array()) fail(path, "expected an array, got " + describe(v));
  if (const size_t n = v.size(); n > max)
    fail(path, std::to_string(n) + " " + std::string(what) + " are more than the limit of " + std::to_string(max));
}

void check_keys(Value obj, const Path& path, const std::vector<std::string_view>& allowed) {
  // The smallest unknown key, not the first in the document: objects were std::maps before the move
  // to simdjson, so the message a document gets stays the same.
  std::optional<std::string_view> unknown;
  for (const auto& [k, v] : obj.members())
    if (std::find(allowed.begin(), allowed.end(), k) == allowed.end() && (!unknown || k < *unknown)) unknown = k;
  if (!unknown) return;
  const std::string k(*unknown);
  std::string msg = "unknown key";
  if (std::string hint = closest_match(k, allowed); !hint.empty()) {
    msg += "; did you mean " + quote(hint) + "?";
  } else {
    std::vector<std::string> names(allowed.begin(), allowed.end());
    msg += " (expected one of: " + join(names, ", ") + ")";
  }
  fail(child(path, k), msg);
}

void fields(Value obj, const Path& path, std::span<const std::string_view> keys, std::span<std::optional<Value>> out) {
  bool unknown = false;
  for (const auto& [k, v] : obj.members()) {
    const auto it = std::find_if(keys.begin(), keys.end(), [&k = k](std::string_view key) { return same_key(key, k); });
    if (it == keys.end()) unknown = true;
    else out[static_cast<size_t>(it - keys.begin())] = v;
  }
  // The message (and which unknown key it names) as check_keys words it.
  if (unknown) check_keys(obj, path, std::vector<std::string_view>(keys.begin(), keys.end()));
}

Value required(const std::optional<Value>& field, const Path& path, std::string_view key) {
  if (!field) fail(path, "missing required key " + quote(key));
  return *field;
}

int64_t integer(Value v, const Path& path, int64_t lo, int64_t hi) {
  if (!v.is_integer()) fail(path, "expected an integer, got " + describe(v));
  // An integer that does not fit int64_t is above INT64_MAX, so above any `hi`.
  const std::optional<int64_t> i = v.int64();
  if (!i || *i < lo || *i > hi)
    fail(path, quote(v.number_text()) + " is out of range " + std::to_string(lo) + "-" + std::to_string(hi));
  return *i;
}

uint64_t unsigned_integer(Value v, const Path& path) {
  if (!v.is_integer()) fail(path, "expected a non-negative integer, got " + describe(v));
  const std::optional<uint64_t> u = v.uint64();
  if (!u) fail(path, quote(v.number_text()) + " is negative; counters are non-negative integers");
  return *u;
}

std::string_view string_value(Value v, const Path& path) {
  if (!v.is_string()) fail(path, "expected a string, got " + describe(v));
  return v.string();
}

bool bool_value(Value v, const Path& path) {
  if (!v.is_bool()) fail(path, "expected true or false, got " + describe(v));
  return v.boolean();
}

size_t choice(Value v, const Path& path, std::span<const std::string_view> choices) {
  const std::string_view s = string_value(v, path);
  for (size_t i = 0; i < choices.size(); ++i)
    if (choices[i] == s) return i;
  std::vector<std::string> names;
  for (std::string_view c : choices) names.push_back(quote(c));
  fail(path, quote(s) + " is not one of " + join(names, ", "));
}

}  // namespace fabricctl::jsonr
