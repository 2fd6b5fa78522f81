// A regex compiled once per pattern, for tests that match thousands of lines against a fixed vocabulary:
// building a std::regex costs far more than matching one, above all under the sanitizers.
#pragma once

#include <map>
#include <mutex>
#include <regex>
#include <string>

namespace fabricctl::test {

inline const std::regex& re(const std::string& pattern) {
  static std::mutex mutex;
  static std::map<std::string, std::regex> compiled;
  const std::lock_guard<std::mutex> lock(mutex);
  auto it = compiled.find(pattern);
  if (it == compiled.end()) it = compiled.emplace(pattern, std::regex(pattern)).first;
  return it->second;  // std::map never moves its elements
}

}  // namespace fabricctl::test
