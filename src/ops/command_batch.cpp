#include "ops/command_batch.h"

#include <cstdio>
#include <random>

#include "util/text.h"

namespace fabricctl::ops {

std::string batch_mark() {
  std::random_device rd;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%08x%08x", static_cast<unsigned>(rd()), static_cast<unsigned>(rd()));
  return "fabricctl-end-" + std::string(hex);
}

std::string batch_line(const std::vector<std::string>& lines, std::string_view mark) {
  std::string out;
  for (const std::string& line : lines) {
    if (!out.empty()) out += " ; ";
    out += line + " ; echo " + std::string(mark) + " $?";
  }
  return out;
}

std::vector<BatchPart> split_batch(std::string_view out, std::string_view mark, size_t count) {
  std::vector<BatchPart> parts;
  size_t at = 0;
  while (parts.size() < count) {
    const size_t found = out.find(mark, at);
    if (found == std::string_view::npos) break;
    const size_t digits = found + mark.size() + 1;
    const size_t end = out.find('\n', digits);
    if (digits > out.size() || out[digits - 1] != ' ' || end == std::string_view::npos) break;
    const auto status = parse_u64(out.substr(digits, end - digits));
    if (!status || *status > 255) break;
    parts.push_back({std::string(out.substr(at, found - at)), static_cast<int>(*status)});
    at = end + 1;
  }
  return parts;
}

}  // namespace fabricctl::ops
