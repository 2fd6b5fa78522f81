// NVUE's ranges: one key or word that names several objects. `nv set` takes comma lists and ranges
// ("nv set interface swp1-4,swp6 ...", NVUE-CLI.md), and from Cumulus Linux 5.15 `nv config show` prints
// the keys as they were set, "in unexpanded format" (`bond1-3`, VLAN `10,20,30`), unless `--expand` is
// given (NVUE-CLI.md "Show Switch Configuration", 5.15 What's New). Both the reader (config_reader.cpp)
// and the write side's tree (commands.cpp) expand such keys here, so that a switch whose configuration
// says `swp1-32` is read as 32 ports.
//
// Device output is untrusted: a range that runs backwards, has a leading zero or names more than
// kMaxRangeMembers objects is an error with the key quoted, never a guess.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::nvue {

/// The most objects one key may name (a 512-port switch with 4-way breakouts has 2048 ports).
inline constexpr size_t kMaxRangeMembers = 4096;

/// Whether `key` names more than one object: it holds a comma or a range (PREFIX<N>-<M>).
bool is_range_key(std::string_view key);

/// The objects `key` names, in its order: a comma list of items, each a name or a range PREFIX<N>-<M>
/// (N <= M, decimal, no leading zero): "swp1-3" is swp1, swp2, swp3; "swp1s0-1" is swp1s0, swp1s1;
/// "24-26" is 24, 25, 26. An item with a dash that is no such range is a name ("vlan10-v0"). The error
/// quotes the key: an empty item, a range that runs backwards or has a leading zero, too many members.
Expected<std::vector<std::string>> expand_key(std::string_view key);

/// `tree` (an applied configuration) with the range keys where fabricctl reads them expanded: the
/// interface names, and the index collections of `qos` (dscp, pcp, switch-priority, traffic-class).
/// A member named by several keys gets each key's settings, the range keys' first and its own key's
/// last, so that the most specific wins (UNCONFIRMED: NVIDIA does not say how NVUE merges them).
Expected<nlohmann::json> expand_ranges(const nlohmann::json& tree);

}  // namespace fabricctl::nvue
