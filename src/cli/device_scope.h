// The devices a command works on: those --limit picks (every device without it), and of those the
// part `--shard K/N` names (ops/shard.h), for collect, verify, plan and apply alike.
#pragma once

#include <boost/program_options.hpp>

#include <set>
#include <string>
#include <vector>

#include "state/desired.h"
#include "util/expected.h"

namespace fabricctl {

/// Adds --shard K/N.
void add_shard_option(boost::program_options::options_description& desc, std::string& shard);

/// The devices in scope. The error is a usage error (exit 2): a bad --shard, a --limit that matches
/// nothing, a shard that holds no device.
Expected<std::set<std::string>> device_scope(const FabricDesired& desired, const std::vector<std::string>& limit,
                                             const std::string& shard);

}  // namespace fabricctl
