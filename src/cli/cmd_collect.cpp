// fabricctl collect: reads every device of the inventory (over SSH, or from saved raw outputs with
// --from-raw) and writes the snapshot directory verify reads, plus DIR/raw/<device>/<file>: what each
// command printed, as kept by its platform (secrets removed), so that an audit can be replayed.
// A device that cannot be reached or read is named with the reason; the others are still written,
// and the exit code is 3. DIR holds exactly one run: it is written beside and swapped in (as render's
// output), so a device not read this time has no snapshot there, never last run's.

#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/device_scope.h"
#include "cli/fabric_options.h"
#include "cli/progress.h"
#include "cli/read_options.h"
#include "render/staged_output.h"
#include "state/snapshot.h"
#include "util/escape.h"
#include "verify/engine.h"

namespace fabricctl {
namespace {

/// `path` is `dir` or below it (both as they resolve now).
bool inside(const std::filesystem::path& path, const std::filesystem::path& dir) {
  std::error_code ec;
  const auto p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  const auto d = std::filesystem::weakly_canonical(std::filesystem::absolute(dir, ec), ec);
  const auto rel = p.lexically_relative(d);
  return !ec && !rel.empty() && *rel.begin() != "..";
}

constexpr const char* kUsage =
    "fabricctl collect -i INVENTORY --out DIR [--limit GLOB]... [--shard K/N] [--from-raw RAWDIR] [-j N] [--known-hosts FILE] "
    "[--accept-new-host-keys] [-q]";

}  // namespace

int cmd_collect(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  FabricOptions o;
  ReadOptions c;
  ops::CollectOptions how;
  std::string out_dir, from_raw, shard;
  std::vector<std::string> limit;
  bool quiet = false;
  po::options_description desc("collect options");
  add_fabric_options(desc, o);
  desc.add_options()("out", po::value(&out_dir)->value_name("DIR")->required(),
                     "directory for <device>.json snapshots and raw/<device>/ outputs")(
      "from-raw", po::value(&from_raw)->value_name("RAWDIR"),
      "read RAWDIR/<device>/<file> (a raw/ directory a collect wrote, or a dump) instead of the devices")(
      "limit,l", po::value(&limit)->value_name("GLOB")->composing(),
      "only devices (or groups) matching GLOB, e.g. the switches when a fleet tool collects the hosts; repeatable")(
      "quiet,q", po::bool_switch(&quiet), "no progress on stderr");
  add_shard_option(desc, shard);
  add_read_options(desc, c);
  int exit = kExitOk;
  if (!parse_args(args, desc, kUsage, exit)) return exit;
  if (const std::string e = check_read_options(c); !e.empty()) {
    std::cerr << "fabricctl: error: " << e << "\nusage: " << kUsage << "\n";
    return kExitInvalid;
  }
  if (out_dir.empty()) {
    std::cerr << "fabricctl: error: the argument for option '--out' is empty: give the output directory\n";
    return kExitInvalid;
  }
  auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  const auto in_scope = device_scope(fabric->desired, limit, shard);
  if (!in_scope) {
    std::cerr << "fabricctl: error: " << in_scope.error() << "\n";
    return kExitInvalid;
  }
  const std::set<std::string>& scope = *in_scope;
  if (!from_raw.empty() && !std::filesystem::is_directory(from_raw)) {
    std::cerr << "fabricctl: error: --from-raw " << terminal_line(from_raw) << " is not a directory\n";
    return kExitInvalid;
  }
  if (!from_raw.empty() && inside(from_raw, out_dir)) {
    std::cerr << "fabricctl: error: --from-raw " << terminal_line(from_raw) << " is inside --out "
              << terminal_line(out_dir) << ", which a collect replaces whole: write into another directory\n";
    return kExitInvalid;
  }
  if (from_raw.empty() && !connect_settings_complete(*fabric, "collect connects to every device it reads", scope))
    return kExitInvalid;
  // The run goes into a directory beside OUT that replaces it at the end: OUT holds exactly this run,
  // and a device not read now has no snapshot there (verify names it missing), never an old one.
  auto staged = StagedOutput::open(out_dir, kCollectOutput);
  if (!staged) {
    std::cerr << "fabricctl: error: " << staged.error() << "\n";
    return kExitInvalid;
  }
  if (from_raw.empty()) how.raw_out = (*staged)->stage() / "raw";
  else how.from_raw = from_raw;
  how.jobs = c.jobs;
  Progress progress = stderr_progress(quiet);
  const auto connector = connector_of(c);
  ops::Context ctx{*connector, progress};
  const FabricObserved observed = ops::collect_devices(*fabric, {scope.begin(), scope.end()}, how, ctx);
  // Made durable by the commit's one syncfs, with the raw files.
  if (const auto written = write_snapshot_dir(observed, (*staged)->stage(), false); !written) {
    std::cerr << "fabricctl: error: " << written.error() << "\n";
    return kExitDevice;
  }
  if (const auto swapped = (*staged)->commit(); !swapped) {
    std::cerr << "fabricctl: error: " << swapped.error() << "\n";
    return kExitDevice;
  }
  print_unreadable_ports(observed, std::cerr);
  for (const auto& [device, why] : observed.unreadable)
    std::cerr << "fabricctl: " << device << ": not collected: " << terminal_line(why) << "\n";
  std::cout << "collected " << observed.devices.size() << " of " << scope.size() << " devices into " << out_dir << "\n";
  return observed.unreadable.empty() ? kExitOk : kExitDevice;
}

}  // namespace fabricctl
