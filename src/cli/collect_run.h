// Reading devices live or from raw outputs, for `collect` (which writes what it read) and for
// `verify` without --snapshots (which checks it at once): one SSH session per device, -j at once,
// every device that cannot be read recorded as a failure with its reason, the others kept.
#pragma once

#include <boost/program_options.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cli/progress.h"
#include "model/fabric.h"
#include "platform/platform.h"
#include "state/observed.h"
#include "transport/ssh_session.h"

namespace fabricctl {

struct CollectOptions {
  std::string known_hosts;  // "" = ~/.ssh/known_hosts
  bool accept_new_host_keys = false;
  int jobs = 32;
  int connect_timeout_s = 10;
  int command_timeout_s = 60;
  std::optional<std::filesystem::path> from_raw;  // read RAWDIR/<device>/ instead of the devices
  std::optional<std::filesystem::path> raw_out;   // write what was read live under RAW_OUT/<device>/
};

/// The SSH settings of `o`, and where to reach a device from its mgmt settings.
SshOptions ssh_options_of(const CollectOptions& o);
SshEndpoint endpoint_of(const DeviceMgmt& m);

/// Adds -j, --known-hosts, --accept-new-host-keys, --connect-timeout and --command-timeout.
void add_collect_options(boost::program_options::options_description& desc, CollectOptions& o);

/// The message for options out of range, or "".
std::string check_collect_options(const CollectOptions& o);

/// Whether every device has what connecting needs (mgmt address, user, a way to log in); if not,
/// prints each missing setting and "N errors: <why>; nothing was read". Called before any device is
/// contacted; `why` says what needs them ("collect connects to every device").
bool connect_settings_complete(const Fabric& fabric, std::string_view why, const std::set<std::string>& only = {});

/// Prints the ports devices reported but that could not be read: the first few, then how many more.
/// Now, as a snapshot's collected_at: RFC 3339 UTC to the second ("2026-12-03T06:00:00Z").
std::string utc_now();

void print_unreadable_ports(const FabricObserved& observed, std::ostream& err);

/// Reads the devices of `fabric` named in `devices` (all when empty). Devices whose platform has no
/// collector, that cannot be reached, or whose output cannot be read are in the result's failures.
/// `raws`, when given, receives every device's raw outputs as read (plan and apply compute native
/// changes from them).
FabricObserved collect_devices(const Fabric& fabric, const std::vector<std::string>& devices, const CollectOptions& o,
                               Progress& progress, std::map<std::string, RawOutputs, std::less<>>* raws = nullptr);

}  // namespace fabricctl
