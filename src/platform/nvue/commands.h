// NVUE write side: the `nv set` / `nv unset` lines of a device's rendered commands.nvue, and how the
// applied configuration tree (`nv config show -o json`) already satisfies them, so that apply sends
// only what differs.
//
// The tree model (NVUE-CLI.md, "Command Syntax" and `nv config show`; the same model as config_reader.h
// and tests/lab/emulators/nvue.py): a path is the words of `nv set` after `set`; `nv set PATH VALUE`
// makes the last word the value of the leaf PATH; a path whose last word is a key set without a value
// (a PFC switch priority, a port's pfc-watchdog) is a presence, an empty object; `nv unset PATH`
// removes PATH and everything under it; a comma list in a word stands for each of its members.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "state/desired.h"
#include "util/expected.h"

namespace fabricctl::nvue {

/// The `nv set` / `nv unset` lines of commands.nvue for `device`, in its order, comments left out:
/// built from nvue_context() exactly as templates/nvue/commands.nvue.mustache lays them out (a test
/// holds the two equal for the shipped template).
std::vector<std::string> command_lines(const DeviceDesired& device);

/// The applied configuration tree from the collector's config.json (a bare tree, or startup.yaml's
/// list of header and set). The error: not JSON, or not an NVUE configuration.
Expected<nlohmann::json> applied_tree(std::string_view text);

/// The lines of `lines` that `tree` does not satisfy yet, in their order, each narrowed to the members
/// of its comma list that differ: empty when the tree already holds what they configure. A set is
/// satisfied when its leaf has the value (or its presence is there); an unset when the tree does not
/// have the path, or when what the tree holds there is what the lines leave there in the end (an
/// `nv unset` followed by `nv set`s that put the same settings back). RoCE mode: `nv set qos roce
/// mode lossless` is satisfied by RoCE mode without a mode (`nv set qos roce` is mode lossless,
/// RDMA-over-Converged-Ethernet-RoCE.md). The error: a line that is not `nv set`/`nv unset` PATH.
Expected<std::vector<std::string>> unsatisfied(const nlohmann::json& tree, const std::vector<std::string>& lines);

}  // namespace fabricctl::nvue
