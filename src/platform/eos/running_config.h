// Arista EOS adapter, read side: the QoS, PFC, ECN and watchdog lines of `show running-config` (text),
// the inverse of what session.cfg writes (context.cpp). `show running-config` does not print defaults,
// so the parser keeps what each line says and port_from_running_config() fills in EOS's default for
// every setting no line states. Device output is untrusted: sizes and line lengths are bounded, a
// malformed line fabricctl reads is an error naming its line and quoting the bad value, a bad line in an
// interface (or in the qos profile it uses) makes that one port unreadable, and a bad global line (the
// maps and watchdog timers every port shares) the whole device.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::eos {

/// One egress queue block (`uc-tx-queue N` / `tx-queue N`) as written.
struct QueueLines {
  std::optional<bool> strict;        // `priority strict` / `no priority`
  std::optional<int> bandwidth_pct;  // `bandwidth percent P`
  std::optional<EcnQueue> ecn;       // `random-detect ecn minimum-threshold ...`, thresholds in bytes
};

/// What an interface or a `qos profile` block writes; an empty optional: no line, EOS's default.
struct BlockLines {
  std::optional<int> mtu;                                // `mtu N`, L3 MTU, bytes
  std::optional<std::optional<Trust>> trust;             // `qos trust dscp|cos`; `no qos trust`: set to none
  bool routed = false;                                   // `no switchport`
  std::optional<bool> pfc;                               // `priority-flow-control on` / `no priority-flow-control`
  std::array<std::optional<bool>, kPriorities> no_drop;  // `priority-flow-control priority N no-drop|drop`
  std::optional<bool> watchdog;                          // `[no] priority-flow-control pause watchdog`
  std::optional<WatchdogAction> watchdog_action;         // `... pause watchdog port action`
  std::optional<int> watchdog_timeout_ms;                // `... pause watchdog port timer timeout S ...`
  std::optional<int> watchdog_recovery_ms;
  std::optional<std::optional<int>> watchdog_poll_ms;  // polling-interval; `auto`: set to unknown
  std::map<int, QueueLines> queues;                    // by queue (our traffic class) 0-7
  std::optional<std::string> service_profile;          // `service-profile NAME`
  std::string error;                                   // the first bad line of the block; "" when none
};

/// The switch-wide lines every port shares.
struct GlobalLines {
  std::array<std::optional<int>, kDscpValues> dscp_to_priority;  // `qos map dscp L to traffic-class P`
  std::array<std::optional<int>, kPriorities> priority_to_tc;    // `qos map traffic-class L to [uc-]tx-queue Q`
  std::optional<int> watchdog_timeout_ms;                        // `priority-flow-control pause watchdog default ...`
  std::optional<int> watchdog_recovery_ms;
  std::optional<int> watchdog_poll_ms;
  std::optional<WatchdogAction> watchdog_action;  // `priority-flow-control pause watchdog action drop|no-drop`
};

struct RunningConfig {
  GlobalLines global;
  std::map<std::string, BlockLines, std::less<>> profiles;     // `qos profile NAME`
  std::vector<std::pair<std::string, BlockLines>> interfaces;  // `interface NAME`, as printed (names unchecked)
  bool ended = false;  // the `end` line EOS prints last was seen: the output is not cut short
};

/// The lines of `text` fabricctl reads; every other line is skipped. The error: the text is over the
/// size limits, holds a NUL byte, or a global line fabricctl reads is malformed.
Expected<RunningConfig> parse_running_config(std::string_view text);

/// The configured state of Ethernet port `name` (trust, DSCP and queue maps, PFC, watchdog, queue
/// scheduling and ECN), EOS's defaults where no line is written; mtu only where a line sets it. The error
/// is why the port cannot be read (a bad line of its block or of its qos profile, a missing profile).
Expected<PortObserved> port_from_running_config(const RunningConfig& config, std::string_view name);

/// What of `text` may be saved: only the lines parse_running_config() reads, and the block headers and
/// separators around them (an allowlist: usernames, secrets, keys and communities, and any line EOS adds
/// later, are dropped; a kept line naming a key, secret or password is dropped as well).
std::string keep_running_config(std::string_view text);

}  // namespace fabricctl::eos
