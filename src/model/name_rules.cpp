#include "model/name_rules.h"

#include <algorithm>
#include <array>

#include "util/names.h"

namespace fabricctl {
namespace {

bool lower(char c) { return c >= 'a' && c <= 'z'; }
bool upper(char c) { return c >= 'A' && c <= 'Z'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool alnum(char c) { return lower(c) || upper(c) || digit(c); }
bool base64(char c) { return alnum(c) || c == '+' || c == '/'; }

/// `s` has 1 to `max_len` bytes, the first accepted by `first` and every other by `rest`.
template <class First, class Rest>
bool token(std::string_view s, size_t max_len, First first, Rest rest) {
  if (s.empty() || s.size() > max_len || !first(s[0])) return false;
  for (size_t i = 1; i < s.size(); ++i)
    if (!rest(s[i])) return false;
  return true;
}

/// One or more base64 characters followed by at most two '=' of padding.
bool padded_base64(std::string_view s) {
  size_t end = s.size();
  for (int pad = 0; pad < 2 && end > 0 && s[end - 1] == '='; ++pad) --end;
  if (end == 0) return false;
  for (size_t i = 0; i < end; ++i)
    if (!base64(s[i])) return false;
  return true;
}

}  // namespace

// One definition with the snapshots: util/names.h.
bool is_device_name(std::string_view s) { return valid_device_name(s); }

bool is_profile_name(std::string_view s) {
  auto first = [](char c) { return lower(c) || digit(c); };
  return token(s, 64, first, [&](char c) { return first(c) || c == '.' || c == '_' || c == '-'; });
}

bool is_rdma_device_name(std::string_view s) { return valid_rdma_device_name(s); }

bool is_user_name(std::string_view s) {
  return token(
      s, 32, [](char c) { return lower(c) || upper(c) || c == '_'; },
      [](char c) { return alnum(c) || c == '.' || c == '_' || c == '-'; });
}

bool is_env_name(std::string_view s) {
  return token(
      s, 64, [](char c) { return upper(c) || c == '_'; }, [](char c) { return upper(c) || digit(c) || c == '_'; });
}

bool is_system_env_name(std::string_view s) {
  static constexpr std::array<std::string_view, 16> kNames{
      "PATH", "HOME", "USER",   "LOGNAME",  "SHELL", "PWD",     "OLDPWD", "TERM",
      "LANG", "TZ",   "TMPDIR", "HOSTNAME", "MAIL",  "DISPLAY", "EDITOR", "IFS"};
  static constexpr std::array<std::string_view, 6> kPrefixes{"LD_", "LC_", "SSH_", "XDG_", "FABRICCTL_", "SUDO_"};
  return std::find(kNames.begin(), kNames.end(), s) != kNames.end() ||
         std::any_of(kPrefixes.begin(), kPrefixes.end(), [&](std::string_view p) { return s.starts_with(p); });
}

bool is_address(std::string_view s) {
  return token(s, 253, alnum, [](char c) { return alnum(c) || c == '.' || c == ':' || c == '-'; });
}

bool is_host_key(std::string_view s) {
  // An OpenSSH RSA key of 16,384 bits, the largest ssh-keygen makes, is ~2,800 characters.
  constexpr size_t kMaxHostKey = 4096;
  if (s.size() > kMaxHostKey) return false;
  // A fingerprint as `ssh-keygen -l` prints it: 32 bytes of SHA-256 are 43 base64 characters.
  constexpr std::string_view kFingerprint = "SHA256:";
  if (s.starts_with(kFingerprint)) {
    std::string_view b = s.substr(kFingerprint.size());
    if (b.size() == 44 && b.back() == '=') b.remove_suffix(1);
    if (b.size() != 43) return false;
    for (char c : b)
      if (!base64(c)) return false;
    return true;
  }
  static constexpr std::array<std::string_view, 5> kTypes = {"ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256",
                                                             "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521"};
  for (std::string_view type : kTypes)
    if (s.size() > type.size() && s.starts_with(type) && s[type.size()] == ' ')
      return padded_base64(s.substr(type.size() + 1));
  return false;
}

}  // namespace fabricctl
