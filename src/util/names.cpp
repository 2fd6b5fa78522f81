#include "util/names.h"

#include <algorithm>
#include <cctype>

#include "util/escape.h"

namespace fabricctl {
namespace {

bool alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

template <typename Pred>
bool name_of(std::string_view s, Pred allowed) {
  return !s.empty() && s.size() <= kMaxNameLength && std::all_of(s.begin(), s.end(), allowed);
}

}  // namespace

bool valid_device_name(std::string_view s) {
  return name_of(s, [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; }) && alnum(s[0]);
}

bool valid_port_name(std::string_view s) {
  return name_of(s, [](char c) { return alnum(c) || c == '/' || c == '.' || c == '_' || c == ':' || c == '-'; });
}

bool valid_rdma_device_name(std::string_view s) {
  return name_of(s, [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

bool valid_counter_name(std::string_view s) {
  return name_of(s, [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

bool plain_word(std::string_view s, std::string_view punctuation, size_t max_length) {
  return !s.empty() && s.size() <= max_length && alnum(s[0]) && std::all_of(s.begin(), s.end(), [&](char c) {
    return alnum(c) || punctuation.find(c) != std::string_view::npos;
  });
}

bool valid_program_path(std::string_view s) {
  if (s.empty() || s.size() > 255 || s[0] == '-') return false;
  for (const char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '/' || c == '.' || c == '_' || c == '+' || c == '-'))
      return false;
  return true;
}

std::string interface_name_error(std::string_view name) {
  constexpr size_t kMaxIfname = 15;  // IFNAMSIZ - 1
  const std::string quoted = "\"" + json_string_body(name) + "\"";
  if (name.empty()) return "interface name is empty";
  if (name.size() > kMaxIfname) return "interface name " + quoted + " is longer than 15 bytes (IFNAMSIZ)";
  if (name == "." || name == "..") return "interface name " + quoted + " is not valid";
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '/' || c == ':' || std::isspace(u) != 0 || std::iscntrl(u) != 0 || c == '\0')
      return "interface name " + quoted + " has a character the kernel refuses ('/', ':', space or control)";
  }
  return {};
}

bool valid_text(std::string_view s, size_t max) {
  if (s.empty() || s.size() > max) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (c == 0xc2 && i + 1 < s.size()) {
      const auto n = static_cast<unsigned char>(s[i + 1]);
      if (n >= 0x80 && n <= 0x9f) return false;  // U+0080..U+009F
    }
  }
  return true;
}

}  // namespace fabricctl
