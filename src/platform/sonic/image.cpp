#include "platform/sonic/image.h"

#include <array>
#include <cctype>

#include "util/escape.h"
#include "util/text.h"

namespace fabricctl::sonic {
namespace {

// show/main.py `version`: "SONiC Software Version: SONiC.{build_version}", "HwSKU: ...", "ASIC: ...",
// "ASIC Count: ..." (202012 and later), each on its own line.
constexpr std::string_view kSoftware = "SONiC Software Version";
constexpr std::string_view kHwsku = "HwSKU";
constexpr std::string_view kAsic = "ASIC";
constexpr std::string_view kAsicCount = "ASIC Count";
constexpr std::array<std::string_view, 5> kRead = {kSoftware, "Platform", kHwsku, kAsic, kAsicCount};
constexpr size_t kMaxValue = 128;

/// "Key: value" split at the first ": "; false for any other line.
bool key_value(std::string_view line, std::string_view& key, std::string_view& value) {
  const size_t colon = line.find(": ");
  if (colon == std::string_view::npos) return false;
  key = line.substr(0, colon);
  value = line.substr(colon + 2);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\r')) value.remove_suffix(1);
  return true;
}

bool printable(std::string_view s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return false;
  return true;
}

}  // namespace

std::string branch_of(std::string_view v) {
  size_t digits = 0;
  while (digits < v.size() && std::isdigit(static_cast<unsigned char>(v[digits])) != 0) ++digits;
  if (digits >= 6 && v.substr(0, 2) == "20") return std::string(v.substr(0, 6));
  if (digits == 0) {
    const size_t end = v.find_first_of(".-");
    const std::string_view word = v.substr(0, end);
    if (word == "master") return std::string(word);
  }
  return {};
}

Expected<Image> parse_show_version(std::string_view text) {
  Image image;
  bool software = false, hwsku = false, asic = false;
  std::string error;
  for (const std::string& line : split_lines(text)) {
    std::string_view key, value;
    if (!error.empty() || !key_value(line, key, value)) continue;
    bool* seen = key == kSoftware ? &software : key == kHwsku ? &hwsku : key == kAsic ? &asic : nullptr;
    if (seen == nullptr && key != kAsicCount) continue;
    if (value.size() > kMaxValue || !printable(value)) {
      error = "show version: the " + std::string(key) + " line is not printable text of at most 128 characters";
    } else if (key == kAsicCount) {
      const auto n = parse_int(value);
      if (!n || *n < 1 || *n > 64) error = "show version: ASIC Count \"" + terminal_line(value) + "\" is not 1 to 64";
      else image.asic_count = static_cast<int>(*n);
    } else if (*seen) {
      error = "show version: two " + std::string(key) + " lines";
    } else if (key == kSoftware && (!value.starts_with("SONiC.") || value.size() == 6)) {
      error = "show version: software version \"" + terminal_line(value) + "\" is not SONiC.<build version>";
    } else {
      *seen = true;
      if (key == kSoftware) image.build_version = std::string(value.substr(6));
      else (key == kHwsku ? image.hwsku : image.asic) = std::string(value);
    }
  }
  image.branch = branch_of(image.build_version);
  if (!error.empty()) return unexpected(error);
  if (!software || !hwsku || !asic)
    return unexpected("show version: no " + std::string(!software ? kSoftware : !hwsku ? kHwsku : kAsic) + " line");
  return image;
}

std::string keep_version_lines(std::string_view text) {
  std::string out;
  for (const std::string& line : split_lines(text)) {
    std::string_view key, value;
    if (!key_value(line, key, value)) continue;
    for (const std::string_view k : kRead)
      if (key == k) out.append(std::string_view(line).substr(0, 2 * kMaxValue)).push_back('\n');
  }
  return out;
}

std::string describe(const Image& image) {
  return "SONiC." + image.build_version + (image.branch.empty() ? "" : " (" + image.branch + ")") + ", HwSKU " +
         image.hwsku + ", ASIC " + image.asic;
}

}  // namespace fabricctl::sonic
