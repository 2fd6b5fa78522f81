// Strings stored once and named by a small index: a fabric's device and port names repeat millions of
// times in verify results (every check of every port), but there are few distinct ones.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fabricctl {

class Interner {
 public:
  /// The index of `s`, adding it the first time.
  uint32_t intern(std::string_view s) {
    const auto it = index_.find(std::string(s));
    if (it != index_.end()) return it->second;
    const auto id = static_cast<uint32_t>(strings_.size());
    strings_.emplace_back(s);
    index_.emplace(strings_.back(), id);
    return id;
  }
  [[nodiscard]] const std::string& operator[](uint32_t id) const { return strings_[id]; }
  [[nodiscard]] size_t size() const { return strings_.size(); }

 private:
  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint32_t> index_;  // copies, so that copying an Interner is safe
};

}  // namespace fabricctl
