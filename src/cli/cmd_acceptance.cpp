// `fabricctl acceptance`: the fabric's bandwidth per rail, judged from the reports of its bandwidth tests
// (acceptance/acceptance.h): ib_write_bw for each pair of host ports of a rail, as the client printed it,
// and nccl-tests runs. The reports are read from a directory (docs/acceptance.md):
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
#include "util/escape.h"
#include "util/file_io.h"

namespace fabricctl {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxReport = size_t{4} << 20;  // bytes: the parsers' own limits, and one more for the check
constexpr size_t kMaxReports = 100000;

/// The *.txt files of DIR/SUB by name without .txt; an error for anything else there, or one unreadable.
Expected<std::map<std::string, std::string>> reports_in(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.size() < 5 || name.substr(name.size() - 4) != ".txt")
      return unexpected(e.path().string() + ": not a report (REPORT.txt)");
    if (out.size() >= kMaxReports) return unexpected(dir.string() + ": more than 100000 reports");
    auto text = read_regular_file(e.path(), {kMaxReport, "report"});
    if (!text) return unexpected(text.error().message);
    out.emplace(name.substr(0, name.size() - 4), std::move(*text));
  }
  if (ec) return unexpected(dir.string() + ": cannot read: " + ec.message());
  return out;
}

}  // namespace

int cmd_acceptance(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string raw, output = "table", baseline;
  po::options_description desc("acceptance options");
  add_fabric_options(desc, o);
  desc.add_options()("from-raw", po::value(&raw)->value_name("DIR"),
                     "the tests' reports: DIR/ib_write_bw/<client>~<server>.txt, DIR/nccl/<name>.txt")(
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
  if (raw.empty()) {
    std::cerr << usage_error("acceptance reads the tests' reports: give --from-raw DIR");
    return kExitInvalid;
  }
  auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  const std::vector<acceptance::Pair> pairs = acceptance::pairs_of(fabric->desired);
  auto bandwidth = reports_in(fs::path(raw) / "ib_write_bw");
  auto collectives = bandwidth ? reports_in(fs::path(raw) / "nccl") : bandwidth;
  if (!bandwidth || !collectives) {
    std::cerr << "fabricctl: error: " << terminal_line(!bandwidth ? bandwidth.error() : collectives.error()) << "\n";
    return kExitInvalid;
  }
  // A report for a pair the fabric does not have is a mistake in DIR, not a result to drop.
  for (const auto& entry : *bandwidth) {
    const std::string& name = entry.first;  // a lambda cannot capture a structured binding (clang 14)
    const bool known =
        std::any_of(pairs.begin(), pairs.end(), [&](const acceptance::Pair& p) { return p.name() == name; });
    if (!known) {
      std::cerr
          << "fabricctl: error: " << terminal_line((fs::path(raw) / "ib_write_bw" / (name + ".txt")).string())
          << ": not a pair of the fabric's rails (CLIENT_HOST:PORT~SERVER_HOST:PORT; fabricctl acceptance -o json "
             "lists the pairs)\n";
      return kExitInvalid;
    }
  }
  const acceptance::AcceptanceReport report = acceptance::judge(fabric->desired, pairs, *bandwidth, *collectives);
  if (!baseline.empty()) {
    std::ostringstream json;
    acceptance::write_json(report, json);
    if (auto w = write_file_atomic(fs::path(baseline) / "acceptance.json", json.str()); !w) {
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
