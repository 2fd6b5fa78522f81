// `--shard K/N`: one of N deterministic parts of a fabric's devices, so that N controllers (a
// Kubernetes Indexed Job, Ansible forks) share a fleet's work and their snapshot directories merge into
// what one run writes (docs/fleet.md, "Beyond one controller"). Every device is in exactly one shard.
//
// The split keeps together what belongs together: devices go in units (the switches of one rail, else
// the devices of one first group, else one device), the units in the natural order of their first
// device (so that p001-leaf01 and p001-spine1 sit side by side), and each shard takes a contiguous run
// of them of about total/N devices. A unit larger than that is cut, in natural order. The same inventory
// and N always give the same shards, on any machine.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

#include "state/desired.h"
#include "util/expected.h"

namespace fabricctl::ops {

struct Shard {
  size_t index = 0;  // K: 0 to N-1 (Kubernetes' completion index)
  size_t count = 1;  // N
};

/// "K/N" with 0 <= K < N <= 10000; the error quotes the value.
Expected<Shard> parse_shard(std::string_view text);

/// The devices of `desired` in shard `s`: of all of them, or of those in `among` (--limit's scope),
/// which are then split as if they were the whole fabric.
std::set<std::string> shard_devices(const FabricDesired& desired, Shard s,
                                    const std::set<std::string>* among = nullptr);

}  // namespace fabricctl::ops
