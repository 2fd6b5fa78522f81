#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <iostream>
#include <map>
#include <optional>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/progress.h"
#include "render/render.h"
#include "render/render_check.h"
#include "render/stop_signals.h"
#include "util/escape.h"
#include "util/phase_timer.h"

namespace fabricctl {
namespace {

constexpr std::string_view kUsage =
    "fabricctl render -i INVENTORY --out DIR [--check] [-p DIR]... [--templates DIR]... [-o table|json] [-q]";

/// render --check: compares what the intent renders now with OUT, writing nothing. 0 current,
/// 1 stale (each file named on stdout), 2 invalid input or OUT not a render.
int check_out(const Fabric& fabric, const FabricOptions& o, const std::string& out_dir, Progress& progress) {
  Diags diags;
  progress.phase("rendering " + std::to_string(fabric.desired.devices.size()) + " devices to compare with " +
                 terminal_line(out_dir));
  const std::vector<RenderedDevice> rendered = render_fabric(fabric.desired, o.template_paths(), diags);
  if (!diags.empty()) {
    progress.clear();
    std::cerr << diags.str() << "fabricctl: rendering failed\n";
    return kExitInvalid;
  }
  progress.phase("comparing with " + terminal_line(out_dir));
  const auto stale = check_rendered(rendered, out_dir);
  progress.clear();
  if (!stale) {
    std::cerr << "fabricctl: error: " << stale.error() << "\n";
    return kExitInvalid;
  }
  if (stale->empty()) {
    std::cout << out_dir << " is current\n";
    return kExitOk;
  }
  for (const StaleFile& f : *stale) {
    std::string why(to_string(f.why));
    why.resize(8, ' ');  // the longest, "modified"
    std::cout << why << "  " << terminal_line(f.path) << "\n";
  }
  std::cerr << "fabricctl: " << out_dir << " is stale: " << stale->size()
            << (stale->size() == 1 ? " file differs" : " files differ")
            << " from what the intent renders; run fabricctl render --out " << out_dir << "\n";
  return kExitFindings;
}

/// One row of the summary: device, platform, role, profile, ports, files.
using Row = std::array<std::string, 6>;

/// Columns as wide as their longest cell and two spaces apart (like kubectl get), the last one
/// unpadded, so long device or profile names never run into the next column.
std::string table(const std::vector<Row>& rows) {
  const Row header{"DEVICE", "PLATFORM", "ROLE", "PROFILE", "PORTS", "FILES"};
  std::array<size_t, 6> width{};
  for (size_t c = 0; c < width.size(); ++c) width[c] = header[c].size();
  for (const Row& r : rows)
    for (size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], r[c].size());
  std::string out;
  const auto line = [&](const Row& r) {
    for (size_t c = 0; c + 1 < r.size(); ++c) out += r[c] + std::string(width[c] - r[c].size() + 2, ' ');
    out += r.back() + "\n";
  };
  line(header);
  for (const Row& r : rows) line(r);
  return out;
}

}  // namespace

int cmd_render(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string out_dir, output = "table";
  bool check = false, quiet = false;
  boost::program_options::options_description desc("render options");
  add_fabric_options(desc, o);
  // No -o for --out: -o FORMAT means the output format in every command.
  desc.add_options()("out", boost::program_options::value(&out_dir)->value_name("DIR")->required(),
                     "output directory (replaced on every run)")(
      "output,o", boost::program_options::value(&output)->value_name("FORMAT"),
      "summary on stdout: table (default) or json")(
      "check", boost::program_options::bool_switch(&check),
      "write nothing; exit 1 if OUT is not what the intent renders now (a stale committed render)")(
      "quiet,q", boost::program_options::bool_switch(&quiet), "no progress on stderr; errors are still printed");
  int exit = kExitOk;
  if (!parse_args(args, desc, kUsage, exit)) return exit;
  if (out_dir.empty()) {
    std::cerr << "fabricctl: error: the argument for option '--out' is empty: give the output directory\nusage: "
              << kUsage << "\n";
    return kExitInvalid;
  }
  if (const std::string e = check_choice("output format", output, {"table", "json"}); !e.empty()) {
    std::cerr << "fabricctl: error: " << e << "\nusage: " << kUsage << "\n";
    return kExitInvalid;
  }
  const auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  // Progress only once the intent has loaded: its errors are printed as they are found.
  Progress progress = stderr_progress(quiet);
  if (check) return check_out(*fabric, o, out_dir, progress);

  // Devices are rendered into a staging directory that replaces OUT only when all of them
  // rendered: a template error, or Ctrl-C, leaves OUT untouched.
  Diags diags;
  StopSignals stop_signals;
  std::optional<PhaseTimer> timer(std::in_place, "render and write");
  progress.phase("rendering " + std::to_string(fabric->desired.devices.size()) + " devices into " +
                 terminal_line(out_dir));
  const auto rendered = render_fabric_into(fabric->desired, o.template_paths(), out_dir, diags);
  progress.clear();
  timer.reset();
  if (stop_requested()) {
    std::cerr << "fabricctl: interrupted; nothing was written\n";
    stop_signals.reraise();
    return 128 + stop_signal();
  }
  if (!diags.empty()) {
    std::cerr << diags.str() << "fabricctl: rendering failed; nothing was written\n";
    return kExitInvalid;
  }
  if (!rendered) {
    std::cerr << "fabricctl: error: " << rendered.error() << "\n";
    return kExitInvalid;
  }

  std::vector<Row> rows;
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  std::map<std::string, int> per_platform;
  size_t files = 0;
  for (size_t i = 0; i < rendered->size(); ++i) {
    const DeviceDesired& d = fabric->desired.devices[i];
    const std::vector<std::string>& names = (*rendered)[i].files;
    std::string joined;
    for (const std::string& f : names) joined += (joined.empty() ? "" : " ") + f;
    files += names.size();
    ++per_platform[std::string(to_string(d.platform))];
    rows.push_back({d.name, std::string(to_string(d.platform)), std::string(to_string(d.role)), d.profile,
                    std::to_string(d.ports.size()), joined});
    devices.push_back({{"device", d.name},
                       {"platform", to_string(d.platform)},
                       {"role", to_string(d.role)},
                       {"profile", d.profile},
                       {"ports", d.ports.size()},
                       {"files", names}});
  }
  if (output == "json") {
    const nlohmann::ordered_json summary = {
        {"out", out_dir},
        {"devices", std::move(devices)},
        {"totals",
         {{"devices", rendered->size()}, {"files", files}, {"links", fabric->links}, {"platforms", per_platform}}}};
    std::cout << summary.dump(2) << "\n";
    return kExitOk;
  }
  std::string mix;
  for (const auto& [p, n] : per_platform) mix += (mix.empty() ? "" : ", ") + std::to_string(n) + " " + p;
  std::cout << table(rows) << "rendered " << rendered->size() << " devices (" << mix << "), " << files << " files, "
            << fabric->links << " links into " << out_dir << "\n";
  return kExitOk;
}

}  // namespace fabricctl
