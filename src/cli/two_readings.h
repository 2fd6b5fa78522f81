// How `health` and `triage` take the fabric's two readings: a saved one (--since DIR, snapshots a
// collect wrote) and a second one, saved too (--snapshots DIR) or read from the devices now, over the
// devices a --limit needs (its scope and the far ends of its links).
#pragma once

#include <boost/program_options.hpp>

#include <set>
#include <string>
#include <vector>

#include "cli/fabric_options.h"
#include "cli/progress.h"
#include "cli/read_options.h"
#include "health/baseline.h"
#include "model/fabric.h"
#include "state/snapshot.h"

namespace fabricctl {

struct TwoReadingsOptions {
  std::string since;      // the first reading's directory (required)
  std::string snapshots;  // the second's; "" = read the devices now
  std::vector<std::string> limit;
  bool quiet = false;
  ReadOptions live;
};

/// Adds --since, --snapshots, --limit, -q and the live reading's options.
void add_two_readings_options(boost::program_options::options_description& desc, TwoReadingsOptions& o);

/// The usage error of options that cannot work (before the inventory is loaded), or "".
std::string check_two_readings_options(const TwoReadingsOptions& o);

struct TwoReadings {
  SnapshotSet first, second;
  std::set<std::string> scope;  // the devices whose findings are wanted; empty: all
};

/// Adds --baseline DIR (health, triage and apply's health gate).
void add_baseline_option(boost::program_options::options_description& desc, std::string& dir);
/// The baseline `baseline save --out DIR` wrote into `dir` into `out` (none when `dir` is ""); false,
/// the error printed, when it cannot be read.
bool load_baseline_option(const std::string& dir, std::optional<Baseline>& out);
/// The fabric `o` names, the devices `limit` selects (every device without one), and the baseline
/// `baseline save --out DIR` wrote into `baseline_dir` (none without one).
struct ScopedFabric {
  Fabric fabric;
  std::set<std::string> scope;
  std::optional<Baseline> baseline;
};
/// nullopt, the error printed, when the baseline cannot be read (checked first), the inventory does not
/// load or `limit` matches nothing.
std::optional<ScopedFabric> load_scoped_fabric(FabricOptions& o, const std::vector<std::string>& limit,
                                               const std::string& baseline_dir = "");

/// The devices `scope` needs read: its devices and their links' far ends (a link is judged from both).
/// Read `live`, each must say how to reach it first: nullopt with the missing settings printed, `what`
/// naming the command.
std::optional<std::set<std::string>> devices_to_read(const Fabric& fabric, const std::set<std::string>& scope,
                                                     bool live, const std::string& what);

/// Reads both readings of the devices `scope` needs; prints the snapshots' warnings. nullopt (the
/// error printed) when the second reading cannot be taken live for lack of connection settings.
std::optional<TwoReadings> read_two_readings(const Fabric& fabric, const TwoReadingsOptions& o,
                                             std::set<std::string> scope, const std::string& what);

}  // namespace fabricctl
