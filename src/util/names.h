// The names fabricctl accepts for devices, ports, RDMA devices and counters: one definition for the
// inventory (src/model) and the snapshots (src/state), so that every name the inventory accepts can
// also be stored in, and read back from, a snapshot, and no snapshot can name what the inventory
// could not.
//
// Names reach remote shells, file names and reports: a strict character set keeps them inert.
// Checks are plain loops (no std::regex: libstdc++ recurses once per character).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fabricctl {

/// Longest name, in bytes (all names are ASCII). 63 is the Linux limit for RDMA device names
/// (IB_DEVICE_NAME_MAX is 64 with the terminating NUL) and a DNS label's limit for host names, so a
/// device named after its host name always fits.
inline constexpr size_t kMaxNameLength = 63;

/// Device names: letters, digits, '.', '_', '-', starting with a letter or digit. They become file
/// names (DIR/<device>.json, OUT/<device>/): no '/', never "." or "..", never an option ("-x").
bool valid_device_name(std::string_view s);
inline constexpr std::string_view kDeviceNameRule =
    "1-63 characters: letters, digits, . _ -; starting with a letter or digit";

/// Port names in observed state: letters, digits, '/', '.', '_', ':', '-' (Ethernet1/1, swp1s0,
/// ens1f0np0). The inventory narrows this further per platform (src/platform/platform.cpp).
bool valid_port_name(std::string_view s);
inline constexpr std::string_view kPortNameRule = "1-63 characters: letters, digits, / . _ : -";

/// RDMA device names (mlx5_0, rocep1s0f0): letters, digits, '.', '_', '-'.
bool valid_rdma_device_name(std::string_view s);
inline constexpr std::string_view kRdmaDeviceNameRule = "1-63 characters: letters, digits, . _ -";

/// A program to run on a device (a host's fabricctl): a name or a path of letters, digits, / . _ + -,
/// 1-255 characters, not starting with '-' (it would read as an option).
bool valid_program_path(std::string_view s);

/// A word that may reach a NOS's command line as it is: 1 to `max_length` bytes, starting with an ASCII
/// letter or digit, the rest letters, digits or bytes of `punctuation`.
bool plain_word(std::string_view s, std::string_view punctuation, size_t max_length);

/// Counter names (pfc_rx_pause_3): lowercase letters, digits, '_'.
bool valid_counter_name(std::string_view s);
inline constexpr std::string_view kCounterNameRule = "1-63 characters: lowercase letters, digits, _";

/// Free text from a device or a snapshot (an LLDP neighbour's name, a reason): 1 to `max` bytes of UTF-8
/// without C0 or C1 control characters and without DEL, so it can never drive a terminal. The UTF-8
/// itself is the JSON parser's to check.
bool valid_text(std::string_view s, size_t max);
inline constexpr std::string_view kTextRule = "characters without control characters";

/// Why the kernel would refuse `name` as a network interface's (its dev_valid_name(): empty, longer
/// than 15 bytes, "." or "..", '/', ':', space or a control character), with the name quoted; "" when
/// it would take it. Checked before a name reaches netlink or an ioctl.
std::string interface_name_error(std::string_view name);

}  // namespace fabricctl
