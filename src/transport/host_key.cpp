#include "transport/host_key.h"

namespace fabricctl {

std::string unpadded_fingerprint(std::string fingerprint) {
  while (!fingerprint.empty() && fingerprint.back() == '=') fingerprint.pop_back();
  return fingerprint;
}

HostKeyVerdict decide_host_key(const HostKeyQuestion& q) {
  const std::string who = q.device + " (" + q.address + ")";
  const std::string presented = q.presented.type + " key " + q.presented.fingerprint;
  if (q.pinned) {
    const bool whole_key = q.pinned_key_matches.has_value();
    const bool ok = whole_key ? *q.pinned_key_matches
                              : unpadded_fingerprint(*q.pinned) == unpadded_fingerprint(q.presented.fingerprint);
    if (ok) return {true, false, ""};
    return {false, false,
            who + ": host key does not match mgmt.host_key: the inventory pins " +
                (whole_key ? "another key" : unpadded_fingerprint(*q.pinned)) + ", the device presents " + presented +
                "; refusing to connect"};
  }
  switch (q.known) {
    case KnownHosts::match: return {true, false, ""};
    case KnownHosts::changed:
    case KnownHosts::other_type:
      return {false, false,
              who + ": HOST KEY CHANGED: " + q.known_hosts_file + " has " + q.known_fingerprint +
                  ", the device presents " + presented +
                  "; refusing to connect (someone may be intercepting the connection; if the device was "
                  "reinstalled, remove the old key with ssh-keygen -R and verify the new one)"};
    case KnownHosts::unknown:
      if (q.accept_new) return {true, true, ""};
      return {false, false,
              who + ": unknown host key (" + presented + ", not in " + q.known_hosts_file +
                  "); verify it, then add it to known_hosts, pin it in mgmt.host_key, or pass "
                  "--accept-new-host-keys to record it on first use"};
  }
  return {false, false, who + ": host key not verified"};
}

}  // namespace fabricctl
