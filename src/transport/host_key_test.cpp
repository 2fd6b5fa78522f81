#include <doctest/doctest.h>

#include "transport/host_key.h"

using namespace fabricctl;

namespace {

HostKeyQuestion question() {
  HostKeyQuestion q;
  q.device = "leaf1";
  q.address = "[192.0.2.1]:2222";
  q.presented = {"ssh-ed25519", "SHA256:AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK"};
  q.known_hosts_file = "/root/.ssh/known_hosts";
  return q;
}

}  // namespace

TEST_CASE("host key: a known key connects; an unknown one only with --accept-new-host-keys, recorded") {
  HostKeyQuestion q = question();
  q.known = KnownHosts::match;
  CHECK(decide_host_key(q).accept);
  CHECK_FALSE(decide_host_key(q).record);

  q.known = KnownHosts::unknown;
  HostKeyVerdict v = decide_host_key(q);
  CHECK_FALSE(v.accept);
  CHECK(
      v.error ==
      "leaf1 ([192.0.2.1]:2222): unknown host key (ssh-ed25519 key SHA256:AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK, "
      "not in /root/.ssh/known_hosts); verify it, then add it to known_hosts, pin it in mgmt.host_key, or pass "
      "--accept-new-host-keys to record it on first use");
  q.accept_new = true;
  v = decide_host_key(q);
  CHECK(v.accept);
  CHECK(v.record);
}

TEST_CASE("host key: a changed key is refused, --accept-new-host-keys or not, naming both fingerprints") {
  for (const KnownHosts known : {KnownHosts::changed, KnownHosts::other_type})
    for (const bool accept_new : {false, true}) {
      HostKeyQuestion q = question();
      q.known = known;
      q.known_fingerprint = "SHA256:oldoldoldoldoldoldoldoldoldoldoldoldoldoldo";
      q.accept_new = accept_new;
      const HostKeyVerdict v = decide_host_key(q);
      CHECK_FALSE(v.accept);
      CHECK_FALSE(v.record);
      CHECK(v.error.find("leaf1 ([192.0.2.1]:2222): HOST KEY CHANGED") == 0);
      CHECK(v.error.find("SHA256:oldoldoldoldoldoldoldoldoldoldoldoldoldoldo") != std::string::npos);
      CHECK(v.error.find("SHA256:AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK") != std::string::npos);
    }
}

TEST_CASE("host key: a pinned key is the only authority, padded or not") {
  HostKeyQuestion q = question();
  q.known = KnownHosts::changed;  // ignored: the pin decides
  q.pinned = "SHA256:AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK=";
  CHECK(decide_host_key(q).accept);
  q.pinned = "SHA256:zzzzbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK";
  q.known = KnownHosts::match;  // ignored too: a pin that does not match refuses
  q.accept_new = true;
  const HostKeyVerdict v = decide_host_key(q);
  CHECK_FALSE(v.accept);
  CHECK(v.error ==
        "leaf1 ([192.0.2.1]:2222): host key does not match mgmt.host_key: the inventory pins "
        "SHA256:zzzzbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK, the device presents ssh-ed25519 key "
        "SHA256:AAAAbbbbCCCCddddEEEEffffGGGGhhhhIIIIjjjjKKK; refusing to connect");
  q.pinned = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAA";
  q.pinned_key_matches = false;
  CHECK_FALSE(decide_host_key(q).accept);
  q.pinned_key_matches = true;
  CHECK(decide_host_key(q).accept);
}
