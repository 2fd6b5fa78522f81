// The words and numbers of a benchmark tool's text report (perftest, nccl-tests), read strictly: the
// reports are untrusted output, and a number that does not read is an error, never a 0.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string_view>
#include <vector>

namespace fabricctl::acceptance {

/// `s` without the spaces, tabs and carriage return around it.
inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

/// Whitespace-separated words (spaces and tabs: perftest prints both).
inline std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    if (i > start) out.push_back(s.substr(start, i - start));
  }
  return out;
}

/// A non-negative decimal such as 371.24: digits, at most one point; nothing for anything else.
inline std::optional<double> decimal(std::string_view s) {
  if (s.empty() || s.size() > 32 || s.front() == '-' || s.front() == '+') return std::nullopt;
  for (const char c : s)
    if ((c < '0' || c > '9') && c != '.') return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::fixed);
  if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace fabricctl::acceptance
