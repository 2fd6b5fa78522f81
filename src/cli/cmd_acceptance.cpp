// `fabricctl acceptance`: the fabric's bandwidth per rail, judged from the reports of its bandwidth tests
// (acceptance/acceptance.h): ib_write_bw for each pair of host ports of a rail, as the client printed it,
// and nccl-tests runs. Run over SSH now (ops/acceptance_run.h; --out DIR keeps the reports), or read from
// a directory of the same layout (--from-raw, docs/acceptance.md):
//   DIR/ib_write_bw/<client host>:<port>~<server host>:<port>.txt
//   DIR/nccl/<name>.txt
// With --baseline DIR the JSON report is kept there as acceptance.json, beside the counters' baseline.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "acceptance/acceptance.h"
#include "acceptance/acceptance_report.h"
#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/progress.h"
#include "cli/read_options.h"
#include "cli/sleep.h"
#include "ops/acceptance_run.h"
#include "render/stop_signals.h"
#include "util/escape.h"

namespace fabricctl {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

/// Every pair's ib_write_bw run over SSH now: the clients' reports, each kept in `out`/ib_write_bw when
/// `out` is given, and why each pair that has none has none.
bool run_live(const Fabric& fabric, const std::vector<acceptance::Pair>& pairs, const ReadOptions& read,
              const ops::AcceptanceRunOptions& how, const std::string& out, std::map<std::string, std::string>& reports,
              std::map<std::string, std::string>& failed) {
  std::set<std::string> hosts;
  for (const acceptance::Pair& p : pairs) {
    hosts.insert(p.client.substr(0, p.client.find(':')));
    hosts.insert(p.server.substr(0, p.server.find(':')));
  }
  if (!connect_settings_complete(fabric, "run the bandwidth tests", hosts)) return false;
  StopSignals signals;
  Progress progress = stderr_progress(false);
  const auto connector = connector_of(read);
  ops::Context ctx{*connector, progress, ops::system_clock(), ops::StopToken(stop_signal)};
  for (auto& [name, got] : ops::run_acceptance(fabric, pairs, how, ctx, sleep_unless_stopped)) {
    if (!got) {
      failed.emplace(name, got.error());
      continue;
    }
    if (!out.empty())
      if (auto w = ops::save_text(fs::path(out) / "ib_write_bw" / (name + ".txt"), *got); !w)
        failed.emplace(name, "its report was not kept: " + w.error());
    reports.emplace(name, std::move(*got));
  }
  progress.clear();
  return true;
}

}  // namespace

int cmd_acceptance(const std::vector<std::string>& args) {
  FabricOptions o;
  ReadOptions read;
  ops::AcceptanceRunOptions how;
  std::string raw, out, output = "table", baseline;
  po::options_description desc("acceptance options");
  add_fabric_options(desc, o);
  add_read_options(desc, read);
  desc.add_options()("from-raw", po::value(&raw)->value_name("DIR"),
                     "read the tests' reports instead: DIR/ib_write_bw/<client>~<server>.txt, DIR/nccl/<name>.txt")(
      "out", po::value(&out)->value_name("DIR"),
      "keep the reports of a run in DIR/ib_write_bw (the --from-raw layout)")(
      "seconds", po::value(&how.seconds)->value_name("S"), "each ib_write_bw test's duration (default 10)")(
      "output,o", po::value(&output)->value_name("FORMAT"), "report on stdout: table (default) or json")(
      "baseline", po::value(&baseline)->value_name("DIR"), "also keep the JSON report as DIR/acceptance.json");
  int exit = kExitOk;
  if (!parse_args(args, desc,
                  "fabricctl acceptance -i INVENTORY --from-raw DIR [-p DIR]... [-o FORMAT] [--baseline DIR]", exit))
    return exit;
  if (output != "table" && output != "json") {
    std::cerr << usage_error(check_choice("-o value", output, {"table", "json"}));
    return kExitInvalid;
  }
  if (!raw.empty() && !out.empty()) {
    std::cerr << usage_error("--out keeps the reports of a run; with --from-raw nothing runs");
    return kExitInvalid;
  }
  if (how.seconds < 1 || how.seconds > 3600) {
    std::cerr << usage_error("--seconds " + std::to_string(how.seconds) + " is out of range 1-3600");
    return kExitInvalid;
  }
  if (const std::string e = check_read_options(read); !e.empty()) {
    std::cerr << usage_error(e);
    return kExitInvalid;
  }
  how.jobs = static_cast<size_t>(std::max(1, read.jobs / 2));  // two sessions a pair
  auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  const std::vector<acceptance::Pair> pairs = acceptance::pairs_of(fabric->desired);
  std::map<std::string, std::string> bandwidth, collectives, failed;
  if (raw.empty()) {
    if (!run_live(*fabric, pairs, read, how, out, bandwidth, failed)) return kExitInvalid;
  } else {
    auto b = ops::read_reports(fs::path(raw) / "ib_write_bw");
    auto c = b ? ops::read_reports(fs::path(raw) / "nccl") : b;
    if (!b || !c) {
      std::cerr << "fabricctl: error: " << terminal_line(!b ? b.error() : c.error()) << "\n";
      return kExitInvalid;
    }
    bandwidth = std::move(*b);
    collectives = std::move(*c);
    // A report for a pair the fabric does not have is a mistake in DIR, not a result to drop.
    for (const auto& entry : bandwidth) {
      const std::string& name = entry.first;  // a lambda cannot capture a structured binding (clang 14)
      if (std::none_of(pairs.begin(), pairs.end(), [&](const acceptance::Pair& p) { return p.name() == name; })) {
        std::cerr
            << "fabricctl: error: " << terminal_line((fs::path(raw) / "ib_write_bw" / (name + ".txt")).string())
            << ": not a pair of the fabric's rails (CLIENT_HOST:PORT~SERVER_HOST:PORT; fabricctl acceptance -o json "
               "lists the pairs)\n";
        return kExitInvalid;
      }
    }
  }
  const acceptance::AcceptanceReport report = acceptance::judge(fabric->desired, pairs, bandwidth, collectives, failed);
  if (!baseline.empty()) {
    std::ostringstream json;
    acceptance::write_json(report, json);
    if (auto w = ops::save_text(fs::path(baseline) / "acceptance.json", json.str()); !w) {
      std::cerr << "fabricctl: error: " << terminal_line(w.error()) << "\n";
      return kExitInvalid;
    }
  }
  if (output == "json") acceptance::write_json(report, std::cout);
  else acceptance::write_table(report, std::cout);
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "fabricctl: error: cannot write the report to standard output\n";
    return kExitDevice;
  }
  return acceptance::exit_code(report);
}

}  // namespace fabricctl
