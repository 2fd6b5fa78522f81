// Character-set rules for names and values read from the inventory and profiles. Every check is a
// linear scan of a bounded length: untrusted text is never given to std::regex, whose libstdc++
// matcher recurses once per character and overflows the stack on long input (a 26,500-character
// host key was enough).
#pragma once

#include <string_view>

namespace fabricctl {

/// Device and group names reach remote shells and file paths: util/names.h's device-name rule (the
/// one the snapshots use too).
bool is_device_name(std::string_view s);
/// Profile names (file stems): lowercase letters, digits, then also '.', '_', '-'; 1-64 bytes.
bool is_profile_name(std::string_view s);
/// RDMA device names (mlx5_0): util/names.h's rule, the one the snapshots use too.
bool is_rdma_device_name(std::string_view s);
/// POSIX-portable user names: a letter or '_', then letters, digits, '.', '_', '-'; 1-32 bytes.
bool is_user_name(std::string_view s);
/// Environment variable names: 'A'-'Z' or '_', then also digits; 1-64 bytes.
bool is_env_name(std::string_view s);
/// A variable the system, the shell, SSH or fabricctl itself sets (PATH, HOME, LD_PRELOAD, SSH_AUTH_SOCK,
/// FABRICCTL_AUDIT_DIR, ...): never a password, whatever it holds (mgmt.password_env would send it).
bool is_system_env_name(std::string_view s);
/// An IP address or host name: a letter or digit, then letters, digits, '.', ':', '-'; 1-253 bytes.
bool is_address(std::string_view s);
/// An SSH host key: "SHA256:" and 43 base64 characters with an optional '=', or
/// "<type> <base64>" with type ssh-ed25519, ssh-rsa or ecdsa-sha2-nistp{256,384,521}; at most
/// 4,096 bytes.
bool is_host_key(std::string_view s);

}  // namespace fabricctl
