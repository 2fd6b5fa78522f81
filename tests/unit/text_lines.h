// Line-level helpers for asserting on rendered text.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace fabricctl::test {

inline std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

inline bool has_line(const std::string& s, const std::string& line) {
  for (const auto& l : lines_of(s))
    if (l == line) return true;
  return false;
}

/// Index of the first line equal to `line`, or -1.
inline long line_index(const std::string& s, const std::string& line) {
  const auto ls = lines_of(s);
  for (size_t i = 0; i < ls.size(); ++i)
    if (ls[i] == line) return static_cast<long>(i);
  return -1;
}

}  // namespace fabricctl::test
