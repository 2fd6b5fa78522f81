// Host key verification, the decision only: what the device presented, what the user trusts (a key
// pinned in the inventory, or the known_hosts file), and whether an unknown key may be recorded. The
// SSH adapter (ssh_session.cpp) asks libssh for the facts and acts on the verdict; the policy lives
// here, where it is tested without a network.
#pragma once

#include <optional>
#include <string>

namespace fabricctl {

/// What the known_hosts file says about the host, as OpenSSH's files are read (libssh).
enum class KnownHosts {
  match,       // the presented key is there
  changed,     // another key of the same type is there: possibly an attack
  other_type,  // only keys of other types are there: treated as changed
  unknown,     // the host is not in the file (or there is no file)
};

/// The key a device presented: its type name and SHA-256 fingerprint in OpenSSH's form
/// ("SHA256:" + unpadded base64), and, when the pin is a whole key, whether it equals that key.
struct PresentedKey {
  std::string type;         // "ssh-ed25519"
  std::string fingerprint;  // "SHA256:..."
};

/// What to do: connect, and whether to record the key in known_hosts first; or refuse, with the
/// message (naming the device, its address and the fingerprints involved).
struct HostKeyVerdict {
  bool accept = false;
  bool record = false;
  std::string error;
};

struct HostKeyQuestion {
  std::string device;
  std::string address;  // "192.0.2.1" or "[192.0.2.1]:2222", as known_hosts names it
  PresentedKey presented;
  /// mgmt.host_key: "SHA256:<base64>" (compared with the fingerprint; a trailing '=' is ignored) or a
  /// whole "<type> <base64>" key, already compared by the adapter: pinned_key_matches.
  std::optional<std::string> pinned;
  std::optional<bool> pinned_key_matches;
  KnownHosts known = KnownHosts::unknown;
  std::string known_fingerprint;  // the key known_hosts has, when changed or other_type
  std::string known_hosts_file;   // named in messages
  bool accept_new = false;        // --accept-new-host-keys
};

/// The decision. A pinned key is the only authority for its device: known_hosts is not consulted. A
/// changed key is always refused, --accept-new-host-keys or not; an unknown one only without it.
HostKeyVerdict decide_host_key(const HostKeyQuestion& q);

/// A fingerprint without base64 padding, for comparison: "SHA256:abc=" -> "SHA256:abc".
std::string unpadded_fingerprint(std::string fingerprint);

}  // namespace fabricctl
