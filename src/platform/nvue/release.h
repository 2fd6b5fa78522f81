// The Cumulus Linux release a switch runs, where NVUE's syntax depends on it. Cumulus Linux 5.15 renamed
// `nv set qos roce enable on|off` to `nv set qos roce state enabled|disabled` (New-and-Changed-NVUE-
// Commands.md, "CL5.14.0 and Earlier | CL5.15 and Later") and gave `nv config show` its `--expand` option
// (5.15 What's New). fabricctl learns the release from the inventory (`nvue: {release: "5.15"}`, default
// 5.14) and checks it against the header `nv config show` prints ("version: Cumulus Linux 5.15.0",
// NVUE-CLI.md "Show Switch Configuration") before it changes a switch.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::nvue {

/// A Cumulus Linux release line, major.minor.
struct Release {
  int major = 5;
  int minor = 14;

  /// Whether NVUE speaks 5.15's forms: `qos roce state enabled|disabled`, `nv config show --expand`.
  [[nodiscard]] bool state_forms() const { return major > 5 || (major == 5 && minor >= 15); }
  [[nodiscard]] std::string text() const { return std::to_string(major) + "." + std::to_string(minor); }
  bool operator==(const Release&) const = default;
};

/// The release an inventory says when it says none.
inline constexpr Release kDefaultRelease{5, 14};

/// The inventory's words for `nvue.release`, newest first: the releases whose NVUE syntax fabricctl
/// renders (5.6 brought `qos pfc-watchdog state`, which every rendered configuration uses). A later
/// release is refused until its syntax is checked (docs/transactions-nvue.md, acceptance checklist).
std::vector<std::string_view> release_names();

/// The release of an inventory word ("5.15"), or of the header's version ("Cumulus Linux 5.15.0").
/// The error quotes the text.
Expected<Release> parse_release(std::string_view text);

/// The release of a device as the inventory states it (SwitchHardware::nos_release), kDefaultRelease
/// when it states none. The error: a word that is no release (the inventory's reader keeps it out).
Expected<Release> inventory_release(const std::string& nos_release);

/// The release the header of `nv config show -o json` names ([{"header": {"version": ...}}, ...]);
/// nullopt when the output has no header or no version (a bare tree). The error: a version that is
/// no Cumulus Linux release, or output that is not JSON.
Expected<std::optional<Release>> config_release(std::string_view config_json);

/// Empty when a switch that reports `reported` speaks the syntax the inventory's `stated` renders; else
/// why not, naming the inventory key to change.
std::string release_mismatch(const Release& stated, bool stated_by_inventory, const Release& reported);

}  // namespace fabricctl::nvue
