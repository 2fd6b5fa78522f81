// Line-level helpers for asserting on rendered text, and reading a test's input file.
#pragma once

#include <filesystem>
#include <fstream>
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

/// The whole of a file ("" when it cannot be read: the test's own checks then fail on it).
inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// What differs between two maps of text (configurations as key -> value), one "key: a | b" per line,
/// "(none)" for a side without the key: for a failure message.
template <class Map>
std::string map_difference(const Map& a, const Map& b) {
  std::string out;
  for (const auto& [k, v] : a)
    if (!b.count(k) || b.at(k) != v) out += k + ": " + v + " | " + (b.count(k) ? b.at(k) : "(none)") + "\n";
  for (const auto& [k, v] : b)
    if (!a.count(k)) out += k + ": (none) | " + v + "\n";
  return out;
}

}  // namespace fabricctl::test
