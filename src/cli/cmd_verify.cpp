#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <iostream>
#include <optional>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "report/report.h"
#include "state/snapshot.h"
#include "util/phase_timer.h"
#include "verify/engine.h"

namespace fabricctl {
namespace {

namespace po = boost::program_options;

void list_checks() {
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
  std::string snapshots, output, severity = "info";
  VerifyFilter f;
  bool list = false;
  po::options_description desc("verify options");
  add_fabric_options(desc, o);
  desc.add_options()("snapshots,s", po::value(&snapshots)->value_name("DIR"),
                     "verify from snapshot files DIR/<device>.json")(
      "output,o", po::value(&output)->value_name("FORMAT"),
      "table, json, junit or prometheus (default: table on a terminal, json otherwise)")(
      "limit,l", po::value(&f.limit)->value_name("GLOB")->composing(),
      "only devices (or groups) matching GLOB; repeatable")(
      "check", po::value(&f.only)->value_name("ID")->composing(),
      "only checks matching ID (a glob, e.g. 'link.*'); repeatable")(
      "skip", po::value(&f.skip)->value_name("ID")->composing(), "skip checks matching ID; repeatable")(
      "severity", po::value(&severity)->value_name("LEVEL"), "report failures of at least LEVEL: info, warning, error")(
      "list-checks", po::bool_switch(&list), "list the check catalog and exit");
  int exit = kExitOk;
  if (!parse_args(args, desc,
                  "fabricctl verify -i INVENTORY --snapshots DIR [-o FORMAT] [--limit GLOB] [--check ID] [--skip ID] "
                  "[--severity LEVEL] [--list-checks]",
                  exit))
    return exit;
  if (list) {
    list_checks();
    return kExitOk;
  }
  const bool tty = ::isatty(STDOUT_FILENO) == 1;
  if (output.empty()) output = tty ? "table" : "json";
  if (output != "table" && output != "json" && output != "junit" && output != "prometheus") {
    std::cerr << "fabricctl: error: unknown output format \"" << output << "\" (table, json, junit, prometheus)\n";
    return kExitInvalid;
  }
  const auto min_severity = parse_severity(severity);
  if (!min_severity) {
    std::cerr << "fabricctl: error: unknown severity \"" << severity << "\" (info, warning, error)\n";
    return kExitInvalid;
  }
  if (snapshots.empty()) {
    std::cerr << "fabricctl: error: --snapshots DIR is required (live collection is not available yet)\n";
    return kExitInvalid;
  }
  std::string error;
  const std::vector<const Check*> selected = select_checks(f, error);
  if (!error.empty()) {
    std::cerr << "fabricctl: error: " << error << "\n";
    return kExitInvalid;
  }
  // Without --limit every device's snapshot is needed, and the inventory names them all: they are
  // read while the fabric resolves. With --limit, which devices are needed depends on the resolved
  // groups and links, so the read waits for them.
  std::error_code dir_ec;
  const bool snapshot_dir = std::filesystem::is_directory(snapshots, dir_ec);
  std::future<SnapshotSet> early_read;
  auto read_early = [&](const Inventory& inv) {
    if (!f.limit.empty() || !snapshot_dir) return;
    std::vector<std::string> names;
    for (const DeviceSpec& d : inv.devices)
      if (d.name.has()) names.push_back(*d.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    early_read = std::async(std::launch::async, [names = std::move(names), dir = snapshots] {
      const PhaseTimer timer("read snapshots, while the fabric resolves");
      return read_snapshot_dir(dir, names, names);
    });
  };
  const auto fabric = load_fabric(o, read_early);
  if (!fabric) return kExitInvalid;
  const std::set<std::string> scope = devices_in_scope(fabric->desired, f.limit);
  if (scope.empty()) {
    std::cerr << "fabricctl: error: --limit matches no device or group\n";
    return kExitInvalid;
  }
  std::error_code ec;
  if (!std::filesystem::is_directory(snapshots, ec)) {
    std::cerr << "fabricctl: error: --snapshots " << quote(snapshots) << " is not a directory\n";
    return kExitInvalid;
  }
  const std::set<std::string> needed = devices_needed(fabric->desired, scope);
  std::vector<std::string> inventory_devices;
  for (const DeviceDesired& d : fabric->desired.devices) inventory_devices.push_back(d.name);
  std::optional<PhaseTimer> timer(std::in_place, "read snapshots");
  const SnapshotSet snaps =
      early_read.valid()
          ? early_read.get()
          : read_snapshot_dir(snapshots, std::vector<std::string>(needed.begin(), needed.end()), inventory_devices);
  for (const std::string& w : snaps.warnings) std::cerr << "fabricctl: warning: " << w << "\n";
  // Ports that could not be read: the rest of their device is still verified. A few are listed; the
  // report names every result they leave uncompared.
  constexpr size_t kListedPorts = 10;
  size_t bad_ports = 0;
  for (const auto& [name, device] : snaps.observed.devices)
    for (const auto& [port, why] : device.unreadable_ports)
      if (bad_ports++ < kListedPorts)
        std::cerr << "fabricctl: " << name << ": port " << port << " unreadable: " << why << "\n";
  if (bad_ports > kListedPorts)
    std::cerr << "fabricctl: and " << bad_ports - kListedPorts << " more unreadable ports\n";

  timer.emplace("checks");
  // Only JUnit names every passing result; the other reports count them.
  const VerifyReport report = run_verify(fabric->desired, snaps.observed, selected, scope, needed, *min_severity, {},
                                         output == "junit" ? Passes::listed : Passes::counted);
  timer.emplace("report");
  for (const auto& [device, why] : report.unreadable)
    std::cerr << "fabricctl: " << device << ": state unreadable: " << why << "\n";
  if (output == "table") std::cout << report_table(report, tty);
  if (output == "json") std::cout << report_json(report);
  if (output == "junit") write_junit(report, std::cout);
  if (output == "prometheus") std::cout << report_prometheus(report);
  std::cout.flush();
  timer.reset();
  if (!std::cout) {
    // A truncated report (full disk) must never pass for a clean audit.
    std::cerr << "fabricctl: error: cannot write the report to standard output\n";
    return kExitDevice;
  }
  if (report.incomplete > 0)
    std::cerr << "fabricctl: " << report.incomplete << (report.incomplete == 1 ? " result" : " results")
              << " could not be compared for lack of required state (see the report)\n";
  return verify_exit_code(report);
}

int cmd_snapshot(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string out_dir;
  bool from_intent = false;
  po::options_description desc("snapshot options");
  add_fabric_options(desc, o);
  desc.add_options()("from-intent", po::bool_switch(&from_intent),
                     "write the state a device matching its intent would report")(
      "out,o", po::value(&out_dir)->value_name("DIR")->required(), "directory for <device>.json files");
  int exit = kExitOk;
  if (!parse_args(args, desc, "fabricctl snapshot --from-intent -i INVENTORY --out DIR", exit)) return exit;
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
