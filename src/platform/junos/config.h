// Juniper Junos (QFX): a device's class of service as `set` statements, the form `show configuration |
// display set` prints and `load set` takes. One function builds the desired statements (config.cpp);
// render prints them as config.set and plan compares them with the running ones (change.cpp), so the
// two cannot disagree.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "state/desired.h"

namespace fabricctl::junos {

/// Statements without their leading `set`, one leaf (or one member of a leaf list) each:
/// "class-of-service schedulers FABRICCTL-TC3 transmit-rate percent 50".
using Statements = std::vector<std::string>;

// The names of what fabricctl owns on a switch. Junos takes letters, digits, '-' and '_' in them (its
// own configs use CNP, NO-LOSS, dscp-classifier, s2-cnp).
inline constexpr std::string_view kOwnedPrefix = "FABRICCTL-";
inline constexpr std::string_view kClassPrefix = "FABRICCTL-TC";         // forwarding class and its scheduler, + queue
inline constexpr std::string_view kDropProfilePrefix = "FABRICCTL-ECN";  // drop profile: drop_profile()
inline constexpr std::string_view kDscpClassifier = "FABRICCTL-DSCP";
inline constexpr std::string_view kPcpClassifier = "FABRICCTL-PCP";
inline constexpr std::string_view kCnp = "FABRICCTL-CNP";  // congestion notification profile (PFC)
inline constexpr std::string_view kSchedulerMap = "FABRICCTL-SM";
/// A Junos media MTU counts the 14-byte Ethernet header; the intent's MTU is the IP packet's
/// (docs/reference-junos.md, "Interface MTU").
inline constexpr int kMediaMtuOverhead = 14;

/// The statements fabricctl wants on the device: classes, classifier, PFC profile with its watchdog,
/// drop profiles, schedulers and their map, and for each port its bindings and media MTU.
Statements desired_statements(const DeviceDesired& device);

/// `set <statement>` lines, one per statement, under a comment line naming the device.
std::string set_text(const DeviceDesired& device, const Statements& statements);

/// The drop profile of queue `tc`: FABRICCTL-ECN3-15000K. Its fill levels are percents of the queue's
/// buffer, which no Junos output states: the name carries it (KiB), so that the switch's own
/// configuration reads back as bytes.
std::string drop_profile(int tc, uint64_t buffer_bytes);

/// Six binary digits of a DSCP (26: "011010"), three of a priority (3: "011").
std::string dscp_bits(int dscp);
std::string pcp_bits(int priority);

}  // namespace fabricctl::junos
