// Building large JSON objects in order. nlohmann's ordered_json keeps members in a vector and finds a
// key by scanning it, so `obj[key] = v` costs the object's size: a spine with 3,200 ports has ~20,000
// QUEUE entries, and inserting them one by one was quadratic (seconds per device).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace fabricctl {

/// Appends member `key` to the object `obj` without looking for an existing one: the caller
/// guarantees keys are unique (one per port, say). `obj` must be an object.
inline void append_member(nlohmann::ordered_json& obj, std::string key, nlohmann::ordered_json value) {
  using Members = nlohmann::ordered_json::object_t::Container;  // the vector ordered_map extends
  static_cast<Members&>(obj.get_ref<nlohmann::ordered_json::object_t&>())
      .emplace_back(std::move(key), std::move(value));
}

/// The members of `obj` by key, for lookups in constant time; empty when `obj` is not an object. The
/// views point into `obj`, which must outlive the index and stay unchanged.
inline std::unordered_map<std::string_view, const nlohmann::ordered_json*> member_index(
    const nlohmann::ordered_json& obj) {
  std::unordered_map<std::string_view, const nlohmann::ordered_json*> index;
  if (!obj.is_object()) return index;
  index.reserve(obj.size());
  for (const auto& [key, value] : obj.get_ref<const nlohmann::ordered_json::object_t&>()) index.emplace(key, &value);
  return index;
}

}  // namespace fabricctl
