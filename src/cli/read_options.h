// How the commands that read devices live (`collect`, `verify` without --snapshots, `plan`, `apply`)
// take their options, check what connecting needs before any device is contacted, and report what
// could not be read. The reading itself is ops::collect_devices.
#pragma once

#include <boost/program_options.hpp>

#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/fabric.h"
#include "ops/collect.h"
#include "ops/ssh_connector.h"
#include "state/observed.h"

namespace fabricctl {

/// -j's default on this machine: 4 devices per core, at least 4, at most 32.
int default_jobs();

struct ReadOptions {
  std::string known_hosts;  // "" = ~/.ssh/known_hosts
  bool accept_new_host_keys = false;
  /// Devices read (and changed) at once. The default is what a small controller sustains: 4 per core,
  /// at most 32 (a 2-core controller reads 8 at a time; 32 sessions at once on it left some devices'
  /// commands starved past their timeout while fewer read them all).
  int jobs = default_jobs();
  int connect_timeout_s = 10;
  int command_timeout_s = 60;
  double connect_rate = 200;  // new connections a second, at most; 0: no limit (ops/paced_connector.h)
};

/// The most devices at once the descriptor limit allows (2 descriptors a device, 64 kept for the rest).
int max_jobs();
/// Raises the soft descriptor limit to the hard one (as `ulimit -n` may), so that -j can reach thousands.
void raise_descriptor_limit();

/// Adds -j, --known-hosts, --accept-new-host-keys, --connect-timeout, --command-timeout and --connect-rate.
void add_read_options(boost::program_options::options_description& desc, ReadOptions& o);

/// The message for options out of range, or "".
std::string check_read_options(const ReadOptions& o);

/// The SSH settings of `o`, and the connector that uses them.
ops::SshSettings ssh_settings(const ReadOptions& o);
std::unique_ptr<ops::Connector> connector_of(const ReadOptions& o);
/// The devices `names` of `fabric` read now over SSH as `o` says (verify and health without saved
/// snapshots); `observer` sees the progress. `counters`: run the counter commands too (health does;
/// verify judges no counter).
FabricObserved read_devices_now(const Fabric& fabric, const std::vector<std::string>& names, const ReadOptions& o,
                                ops::Observer& observer, bool counters);

/// Whether every device has what connecting needs (mgmt address, user, a way to log in); if not,
/// prints each missing setting and "N errors: <why>; nothing was read". Called before any device is
/// contacted; `why` says what needs them ("collect connects to every device").
bool connect_settings_complete(const Fabric& fabric, std::string_view why, const std::set<std::string>& only = {});

/// Prints the ports devices reported but that could not be read: the first few, then how many more.
void print_unreadable_ports(const FabricObserved& observed, std::ostream& err);

}  // namespace fabricctl
