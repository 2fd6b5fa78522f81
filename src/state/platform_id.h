// Platforms by enumerator, and the one row that names each: how the inventory and snapshots spell it and
// how prose does. Everything that prints or parses a platform name uses this table; what a platform
// does (render, fix texts, limits) is its adapter's row, platform/<platform>/adapter.cpp.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <vector>

namespace fabricctl {

enum class Platform { sonic, eos, nvue, linux_host, nxos, junos };

struct PlatformName {
  Platform id;
  std::string_view name;   // inventory and snapshot spelling: "sonic"
  std::string_view label;  // how engineers write it: "SONiC"
};

/// One row per enumerator, in enumerator order (a static_assert below keeps it so).
inline constexpr std::array<PlatformName, 6> kPlatformNames = {{
    {Platform::sonic, "sonic", "SONiC"},
    {Platform::eos, "eos", "EOS"},
    {Platform::nvue, "nvue", "NVUE"},
    {Platform::linux_host, "linux", "Linux"},
    {Platform::nxos, "nxos", "NX-OS"},
    {Platform::junos, "junos", "Junos"},
}};

/// A platform name no platform will have: tests that need an unknown platform use it, never the name of
/// a real NOS (which fabricctl may support one day). platform_test checks no row or alias takes it.
inline constexpr std::string_view kReservedPlatformName = "test-nos";

/// What else engineers call a platform (the vendor, the OS's older name): offered in "did you
/// mean" suggestions for an unknown platform, never accepted as its name.
struct PlatformAlias {
  std::string_view alias;
  Platform id;
};
inline constexpr std::array<PlatformAlias, 20> kPlatformAliases = {{
    {"cumulus", Platform::nvue},      {"cumulus-linux", Platform::nvue}, {"cl", Platform::nvue},
    {"nvidia", Platform::nvue},       {"arista", Platform::eos},         {"ceos", Platform::eos},
    {"veos", Platform::eos},          {"sonic-vs", Platform::sonic},     {"host", Platform::linux_host},
    {"ubuntu", Platform::linux_host}, {"debian", Platform::linux_host},  {"rhel", Platform::linux_host},
    {"nx-os", Platform::nxos},        {"cisco", Platform::nxos},         {"nexus", Platform::nxos},
    {"n9k", Platform::nxos},          {"juniper", Platform::junos},      {"qfx", Platform::junos},
    {"junos-evo", Platform::junos},   {"evo", Platform::junos},
}};

constexpr bool platform_names_in_order() {
  for (size_t i = 0; i < kPlatformNames.size(); ++i)
    if (static_cast<size_t>(kPlatformNames[i].id) != i) return false;
  return true;
}
static_assert(platform_names_in_order(), "kPlatformNames: one row per Platform enumerator, in order");

/// "sonic", "eos", "nvue", "linux", "nxos", "junos".
constexpr std::string_view to_string(Platform p) { return kPlatformNames[static_cast<size_t>(p)].name; }
/// "SONiC", "EOS", "NVUE", "Linux", "NX-OS", "Junos".
constexpr std::string_view platform_label(Platform p) { return kPlatformNames[static_cast<size_t>(p)].label; }

/// The platform an inventory or snapshot name spells, exactly (no prefixes, no case folding).
constexpr std::optional<Platform> parse_platform(std::string_view name) {
  for (const PlatformName& p : kPlatformNames)
    if (p.name == name) return p.id;
  return std::nullopt;
}

/// Every inventory spelling, in enumerator order (for parsers that take a list of choices).
const std::vector<std::string_view>& platform_names();

/// "sonic, eos, nvue, linux, nxos or junos", for messages that list the choices.
std::string_view platform_choices();

}  // namespace fabricctl
