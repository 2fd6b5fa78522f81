#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <iostream>
#include <optional>
#include <utility>

#include "cli/args.h"
#include "cli/color.h"
#include "cli/command.h"
#include "cli/device_scope.h"
#include "cli/fabric_options.h"
#include "cli/progress.h"
#include "cli/read_options.h"
#include "cli/report_outputs.h"
#include "ops/verify.h"
#include "state/snapshot.h"
#include "state/snapshot_dirs.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/phase_timer.h"
#include "verify/engine.h"

namespace fabricctl {
namespace {

namespace po = boost::program_options;

void list_checks(ReportFormat format) {
  if (format == ReportFormat::json) {
    // The catalog for tools: one object per check, catalog order.
    std::cout << "{\n  \"schema\": \"fabricctl.checks/v1\",\n  \"checks\": [";
    bool first = true;
    for (const Check& c : checks()) {
      std::cout << (first ? "\n" : ",\n") << "    {\"id\": \"" << json_string_body(c.id) << "\", \"severity\": \""
                << to_string(c.severity) << "\", \"summary\": \"" << json_string_body(c.summary)
                << "\", \"optional_data\": " << (c.optional_data ? "true" : "false") << "}";
      first = false;
    }
    std::cout << "\n  ]\n}\n";
    return;
  }
  for (const Check& c : checks()) {
    std::string id(c.id);
    id.resize(26, ' ');
    std::string sev(to_string(c.severity));
    sev.resize(9, ' ');
    std::cout << id << sev << c.summary << "\n";
  }
}

}  // namespace

int cmd_verify(const std::vector<std::string>& args) {
  FabricOptions o;
  std::vector<std::string> snapshots;
  std::string output = "table", severity = "info", color = "auto", junit_cases = "each", shard;
  std::vector<std::string> report_specs;
  VerifyFilter f;
  bool list = false, exit_zero = false, quiet = false;
  po::options_description desc("verify options");
  add_fabric_options(desc, o);
  ReadOptions live;
  desc.add_options()("snapshots,s", po::value(&snapshots)->value_name("DIR")->composing(),
                     "verify from snapshot files DIR/<device>.json (without it: read the devices now); repeatable: "
                     "the directories of a sharded collect, each device from the one that has it")(
      "output,o", po::value(&output)->value_name("FORMAT"),
      "report on stdout: table (default), json, junit, prometheus or html")(
      "report", po::value(&report_specs)->value_name("FORMAT=FILE")->composing(),
      "also write the report in FORMAT to FILE (atomically); repeatable")(
      "junit-cases", po::value(&junit_cases)->value_name("each|compact"),
      "JUnit test cases: each result (default), or compact: failures, missing data and one case per check "
      "that passed everywhere")("color", po::value(&color)->value_name("WHEN"),
                                "colour the table: auto (default; not with NO_COLOR), always, never")(
      "limit,l", po::value(&f.limit)->value_name("GLOB")->composing(),
      "only devices (or groups) matching GLOB; repeatable")(
      "check", po::value(&f.only)->value_name("ID")->composing(),
      "only checks matching ID (a glob, e.g. 'link.*'); repeatable")(
      "skip", po::value(&f.skip)->value_name("ID")->composing(), "skip checks matching ID; repeatable")(
      "severity", po::value(&severity)->value_name("LEVEL"),
      "report failures of at least LEVEL: info, warning, error (the rest are counted as hidden)")(
      "exit-zero", po::bool_switch(&exit_zero), "exit 0 even when there are findings (2, 3 and 4 keep their meaning)")(
      "quiet,q", po::bool_switch(&quiet), "no progress and no notes on stderr; errors are still printed")(
      "list-checks", po::bool_switch(&list), "list the check catalog (-o table or json) and exit");
  add_shard_option(desc, shard);
  po::options_description live_desc("reading the devices (without --snapshots)");
  add_read_options(live_desc, live);
  desc.add(live_desc);
  int exit = kExitOk;
  if (!parse_args(
          args, desc,
          "fabricctl verify -i INVENTORY [--snapshots DIR]... [-p DIR]... [-o FORMAT] [--report FORMAT=FILE]... [--limit GLOB]... [--shard K/N] "
          "[--check ID]... [--skip ID]... [--severity LEVEL] [--exit-zero] [-q] [--list-checks]",
          exit))
    return exit;
  const auto format = parse_report_format(output);
  if (!format) {
    std::cerr << usage_error("-o: " + format.error());
    return kExitInvalid;
  }
  if (list) {
    if (*format != ReportFormat::table && *format != ReportFormat::json) {
      std::cerr << usage_error("--list-checks prints -o table or json, not " + quote(output));
      return kExitInvalid;
    }
    list_checks(*format);
    return kExitOk;
  }
  const auto min_severity = parse_severity(severity);
  if (!min_severity) {
    std::cerr << usage_error(check_choice("severity", severity, {"info", "warning", "error"}));
    return kExitInvalid;
  }
  const auto color_when = parse_color_when(color);
  if (!color_when) {
    std::cerr << usage_error(check_choice("--color value", color, {"auto", "always", "never"}));
    return kExitInvalid;
  }
  if (const std::string e = check_choice("--junit-cases value", junit_cases, {"each", "compact"}); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  std::vector<ReportFile> report_files;
  for (const std::string& spec : report_specs) {
    auto file = parse_report_file(spec);
    if (!file) {
      std::cerr << usage_error(file.error());
      return kExitInvalid;
    }
    for (const ReportFile& other : report_files)
      if (other.path == file->path) {
        std::cerr << usage_error("--report names " + quote(file->path) + " twice");
        return kExitInvalid;
      }
    report_files.push_back(*file);
  }
  if (const std::string e = check_read_options(live); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  std::string error;
  std::vector<const Check*> selected = select_checks(f, error);
  if (!error.empty()) {
    std::cerr << usage_error(error);
    return kExitInvalid;
  }
  ReportStyle style;
  style.junit = junit_cases == "compact" ? JunitCases::compact : JunitCases::each;
  style.color = use_color(*color_when, ::isatty(STDOUT_FILENO) == 1, std::getenv("NO_COLOR"), std::getenv("TERM"));
  Progress progress = stderr_progress(quiet);

  // Without --limit every device's snapshot is needed, and the inventory names them all: they are
  // read while the fabric resolves. With --limit, which devices are needed depends on the resolved
  // groups and links, so the read waits for them.
  std::vector<std::filesystem::path> snapshot_dirs;
  for (const std::string& dir : snapshots) {
    std::error_code dir_ec;
    if (!std::filesystem::is_directory(dir, dir_ec)) {
      std::cerr << usage_error("--snapshots " + quote(dir) + " is not a directory");
      return kExitInvalid;
    }
    snapshot_dirs.emplace_back(dir);
  }
  std::future<SnapshotSet> early_read;
  auto read_early = [&](const Inventory& inv) {
    if (!f.limit.empty() || !shard.empty() || snapshot_dirs.size() != 1) return;
    std::vector<std::string> names;
    for (const DeviceSpec& d : inv.devices)
      if (d.name.has()) names.push_back(*d.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    early_read = std::async(std::launch::async, [names = std::move(names), dir = snapshot_dirs.front()] {
      const PhaseTimer timer("read snapshots, while the fabric resolves");
      return read_snapshot_dir(dir, names, names);
    });
  };
  // No progress while the intent loads: load_fabric prints its errors as it finds them, and they
  // must not land on a progress line.
  const auto fabric = load_fabric(o, read_early);
  if (!fabric) return kExitInvalid;
  auto in_scope = device_scope(fabric->desired, f.limit, shard);
  if (!in_scope) {
    std::cerr << usage_error(in_scope.error());
    return kExitInvalid;
  }
  std::set<std::string> scope = std::move(*in_scope);
  std::set<std::string> needed = devices_needed(fabric->desired, scope);
  if (snapshots.empty()) {
    // Live: the devices verify needs must say how to reach them before any is contacted.
    if (!connect_settings_complete(*fabric, "verify without --snapshots reads every device it needs", needed))
      return kExitInvalid;
  }
  std::vector<std::string> inventory_devices;
  for (const DeviceDesired& d : fabric->desired.devices) inventory_devices.push_back(d.name);
  std::optional<PhaseTimer> timer(std::in_place, "read snapshots");
  if (!snapshots.empty()) progress.phase("reading " + std::to_string(needed.size()) + " snapshots");
  SnapshotSet snaps;
  if (snapshots.empty()) {
    snaps.observed =
        read_devices_now(*fabric, std::vector<std::string>(needed.begin(), needed.end()), live, progress, false);
  } else {
    snaps = early_read.valid()
                ? early_read.get()
                : read_snapshot_dirs(snapshot_dirs, std::vector<std::string>(needed.begin(), needed.end()),
                                     inventory_devices);
  }
  progress.clear();
  for (const std::string& w : snaps.warnings) std::cerr << "fabricctl: warning: " << w << "\n";
  // Ports that could not be read: the rest of their device is still verified. A few are listed; the
  // report names every result they leave uncompared.
  print_unreadable_ports(snaps.observed, std::cerr);

  timer.emplace("checks");
  progress.phase("running " + std::to_string(selected.size()) + " checks");
  // Only JUnit with a case per result names every passing result; the other reports count them.
  bool list_passes = *format == ReportFormat::junit && style.junit == JunitCases::each;
  for (const ReportFile& file : report_files)
    list_passes = list_passes || (file.format == ReportFormat::junit && style.junit == JunitCases::each);
  VerifyOptions options;
  // Moved, not copied: at R100k the scope holds some 100,000 names.
  options.checks = std::move(selected);
  options.scope = std::move(scope);
  options.needed = std::move(needed);
  options.min_severity = *min_severity;
  options.passes = list_passes ? Passes::listed : Passes::counted;
  VerifyReport report = ops::verify(fabric->desired, snaps.observed, std::move(options));
  style.fabric = &fabric->desired;
  report.ran_at = std::chrono::system_clock::now();
  timer.emplace("report");
  progress.phase("writing the report");
  int written = kExitOk;
  for (const ReportFile& file : report_files)
    if (auto ok = write_report_file(report, file, style); !ok) {
      progress.clear();
      std::cerr << "fabricctl: error: " << ok.error() << "\n";
      written = kExitDevice;
    }
  progress.clear();
  for (const auto& [device, why] : report.unreadable)
    std::cerr << "fabricctl: " << device << ": state unreadable: " << why << "\n";
  write_report(report, *format, style, std::cout);
  std::cout.flush();
  timer.reset();
  if (!std::cout) {
    // A truncated report (full disk) must never pass for a clean audit.
    std::cerr << "fabricctl: error: cannot write the report to standard output\n";
    return kExitDevice;
  }
  if (written != kExitOk) return written;
  if (report.incomplete > 0 && !quiet)
    std::cerr << "fabricctl: " << report.incomplete << (report.incomplete == 1 ? " result" : " results")
              << " could not be compared for lack of required state (see the report)\n";
  const int code = verify_exit_code(report);
  return exit_zero && code == kExitFindings ? kExitOk : code;
}

int cmd_snapshot(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string out_dir;
  bool from_intent = false;
  po::options_description desc("snapshot options");
  add_fabric_options(desc, o);
  desc.add_options()("from-intent", po::bool_switch(&from_intent),
                     "write the state a device matching its intent would report")(
      "out", po::value(&out_dir)->value_name("DIR")->required(), "directory for <device>.json files");
  int exit = kExitOk;
  if (!parse_args(args, desc, "fabricctl snapshot --from-intent -i INVENTORY --out DIR [-p DIR]...", exit)) return exit;
  if (!from_intent) {
    std::cerr << "fabricctl: error: only --from-intent is available (live collection comes later)\n";
    return kExitInvalid;
  }
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  FabricObserved observed;
  for (const DeviceDesired& d : fabric->desired.devices) {
    DeviceObserved dev = observed_from_desired(d);
    dev.source = "fabricctl snapshot --from-intent";
    observed.devices.emplace(d.name, std::move(dev));
  }
  if (const auto written = write_snapshot_dir(observed, out_dir); !written) {
    std::cerr << "fabricctl: error: " << written.error() << "\n";
    return kExitInvalid;
  }
  std::cout << "wrote " << observed.devices.size() << " snapshots into " << out_dir << "\n";
  return kExitOk;
}

}  // namespace fabricctl
