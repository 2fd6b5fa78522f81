// fabricctl design rail-optimized: a rail-optimized fabric's inventory from its sizes (docs/design.md).
// Reads the spec, lays the fabric out (design/rail_layout.h), checks that what it would write is a
// valid inventory with the fabric's own profiles, and prints the numbers a person checks a design by.
#include <climits>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "design/inventory_dir.h"
#include "design/inventory_text.h"
#include "design/rail_layout.h"
#include "design/rail_spec.h"
#include "util/escape.h"

namespace fabricctl {

namespace {

constexpr const char* kUsage =
    "fabricctl design rail-optimized SPEC [--hosts N | --pods N] [--out DIR | --grow DIR | --check DIR] [-p DIR]...";

std::string ratio(int64_t num, int64_t den) {
  if (den <= 0) return "no uplinks";
  std::ostringstream s;
  s << std::fixed << std::setprecision(2) << static_cast<double>(num) / static_cast<double>(den) << ":1";
  return s.str();
}

std::string tbps(int64_t mbps) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << static_cast<double>(mbps) / 1e6 << " Tb/s";
  return s.str();
}

/// "sonic 3, eos 3, nvue 2": how many devices of `tier` run each platform, in first-seen order.
std::string platform_counts(const design::Layout& layout, design::TierKind tier) {
  std::vector<std::pair<std::string, int>> counts;
  for (const design::DesignedDevice& d : layout.devices) {
    if (d.tier != tier) continue;
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == d.platform; });
    if (it == counts.end()) counts.emplace_back(d.platform, 1);
    else ++it->second;
  }
  std::string out;
  for (const auto& [p, n] : counts) out += (out.empty() ? "" : ", ") + p + " " + std::to_string(n);
  return out;
}

void print_report(const design::RailSpec& spec, const design::Layout& layout) {
  const design::Sizes& z = layout.sizes;
  const auto n = [](int64_t v) { return std::to_string(v); };
  std::cout << "rail-optimized fabric from " << terminal_line(spec.file_name) << "\n"
            << "  servers    " << n(z.hosts) << " in " << n(z.pods) << (z.pods == 1 ? " pod" : " pods") << " of up to "
            << n(z.pod_hosts) << ", " << n(z.nics) << " RoCE NICs each, on " << n(z.rails) << " rails\n"
            << "  leaves     " << n(z.leaves) << " (" << platform_counts(layout, design::TierKind::leaf) << "), "
            << n(z.leaf_radix) << " ports: " << n(z.leaf_down) << " to servers at " << *spec.host_cable.speed << ", "
            << n(z.leaf_up) << " up at " << *spec.uplink_cable.speed << " (" << n(z.up_per_spine) << " to each spine), "
            << n(z.leaf_spare) << " spare\n"
            << "  spines     " << n(z.spines) << " (" << platform_counts(layout, design::TierKind::spine) << "), "
            << n(z.spine_ports) << " ports in use each";
  if (z.spine_radix > 0)
    std::cout << " of " << n(z.spine_radix) << ": room for " << n(z.max_pods) << " pods ("
              << n(z.max_pods * z.pod_hosts) << " servers)";
  std::cout << "\n"
            << "  oversubscription  " << ratio(z.down_mbps, z.up_mbps) << " (a leaf: " << tbps(z.down_mbps)
            << " to servers, " << tbps(z.up_mbps) << " to spines)\n"
            << "  cables     " << n(z.host_links) << " to servers (" << n(*spec.host_cable.length_m) << " m), "
            << n(z.uplinks) << " uplinks (" << n(*spec.uplink_cable.length_m) << " m)\n"
            << "  optics     " << n(z.optics) << " (" << n(z.optical_links) << " cables longer than "
            << n(*spec.dac_max_m) << " m, two each); " << n(z.dac_cables) << " copper (DAC) cables\n";
}

/// Diagnostics printed as the user should read them: the staging directory named as DIR.
void print_problems(const LoadProblems& problems, const std::string& stage, const std::string& dir) {
  std::string text;
  for (const std::string& e : problems.path_errors) text += "fabricctl: error: " + e + "\n";
  text += problems.diags.str();
  for (size_t at = text.find(stage); at != std::string::npos; at = text.find(stage, at + dir.size()))
    text.replace(at, stage.size(), dir);
  std::cerr << text;
}

/// The first line where two texts differ, 1-based, past their first lines (the header names the spec
/// file, which may have been renamed, and the size, which --grow reads itself); 0 when they agree.
size_t first_difference(std::string_view a, std::string_view b) {
  const auto body = [](std::string_view t) {
    const size_t nl = t.find('\n');
    return nl == std::string_view::npos ? std::string_view() : t.substr(nl + 1);
  };
  a = body(a);
  b = body(b);
  size_t line = 2;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) return line;
    if (a[i] == '\n') ++line;
  }
  return a.size() == b.size() ? 0 : line;
}

/// What differs between the files a design makes and those in `dir`, one line each.
std::vector<std::string> file_differences(const design::InventoryFiles& want, const design::InventoryFiles& have,
                                          const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& [name, text] : want) {
    const auto it = have.find(name);
    if (it == have.end()) out.push_back(dir + "/" + name + ": missing");
    else if (const size_t line = first_difference(text, it->second); line > 0)
      out.push_back(dir + "/" + name + ":" + std::to_string(line) + ": differs from what the design makes");
  }
  for (const auto& [name, text] : have)
    if (!want.contains(name)) out.push_back(dir + "/" + terminal_line(name) + ": not written by the design");
  return out;
}

int fail(const std::string& message) {
  std::cerr << "fabricctl: error: " << terminal_line(message) << "\n";
  return kExitInvalid;
}

}  // namespace

int cmd_design(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  if (args.empty() || (args.front() != "rail-optimized" && args.front() != "--help" && args.front() != "-h")) {
    std::cerr << "fabricctl: error: "
              << (args.empty() ? "fabricctl design needs a kind of fabric"
                               : "unknown kind of design " + quote(terminal_line(args.front())))
              << "; the one there is: rail-optimized\nusage: " << kUsage << "\n";
    return kExitInvalid;
  }
  const std::vector<std::string> rest(args.front() == "rail-optimized" ? args.begin() + 1 : args.begin(), args.end());
  std::string spec_path, out, grow, check;
  constexpr int64_t kUnset = INT64_MIN;
  int64_t hosts_option = kUnset, pods_option = kUnset;
  FabricOptions fo;
  po::options_description desc("design options");
  desc.add_options()("spec", po::value(&spec_path)->value_name("SPEC"), "the design (also the first argument)")(
      "out", po::value(&out)->value_name("DIR"), "write the inventory into DIR, which must be new or empty")(
      "grow", po::value(&grow)->value_name("DIR"),
      "extend the inventory a design wrote into DIR to the spec's size, renaming nothing")(
      "check", po::value(&check)->value_name("DIR"), "exit 1 unless DIR holds exactly what the design makes")(
      "hosts", po::value(&hosts_option)->value_name("N"),
      "the fabric at N servers instead of the spec's hosts.count (1-1000000): what if, or one spec for many sizes")(
      "pods", po::value(&pods_option)->value_name("N"),
      "the fabric at N whole pods (N x the servers of a pod) instead of hosts.count: grow it pod by pod")(
      "profiles,p", po::value(&fo.profiles)->value_name("DIR"),
      "profile directory to validate the inventory with (repeatable; as validate)");
  int exit = kExitOk;
  if (!parse_args(rest, desc, kUsage, exit, "spec")) return exit;
  if (spec_path.empty()) return fail("the design's spec is required\nusage: " + std::string(kUsage));
  if (!out.empty() + !grow.empty() + !check.empty() > 1)
    return fail("--out, --grow and --check are one each: give one of them");
  if (hosts_option != kUnset && (hosts_option < 1 || hosts_option > 1'000'000))
    return fail("--hosts: " + std::to_string(hosts_option) + " is out of range 1-1000000");
  if (pods_option != kUnset && (pods_option < 1 || pods_option > 100'000))
    return fail("--pods: " + std::to_string(pods_option) + " is out of range 1-100000");
  if (hosts_option != kUnset && pods_option != kUnset) return fail("--hosts or --pods: one of them");

  Diags diags;
  const auto doc = load_yaml(spec_path, spec_path, diags);
  std::optional<design::RailSpec> spec;
  if (doc) spec = design::read_rail_spec(*doc, diags);
  if (!spec) {
    std::cerr << diags.str() << "fabricctl: design: nothing was written\n";
    return kExitInvalid;
  }
  spec->file_name = std::filesystem::path(spec_path).filename().string();
  const int64_t hosts = hosts_option != kUnset  ? hosts_option
                        : pods_option != kUnset ? pods_option * design::pod_hosts(*spec)
                                                : *spec->hosts.count;
  const auto layout = design::lay_out(*spec, hosts, diags);
  if (!layout) {
    std::cerr << diags.str() << "fabricctl: design: nothing was written\n";
    return kExitInvalid;
  }
  const design::InventoryFiles files = design::inventory_files(*spec, *layout);

  const std::string target = !out.empty() ? out : !grow.empty() ? grow : check;
  if (!check.empty() || !grow.empty()) {
    auto have = design::read_inventory_dir(target);
    if (!have) return fail(have.error());
    if (!check.empty()) {
      const auto differences = file_differences(files, *have, target);
      for (const std::string& d : differences) std::cout << d << "\n";
      if (!differences.empty()) return kExitFindings;
      std::cout << target << ": as designed (" << files.size() << " files, " << hosts << " hosts)\n";
      return kExitOk;
    }
    // --grow: DIR must be what this design made at its size then, and the new size only adds to it.
    std::optional<int64_t> before;
    for (const auto& [name, text] : *have) {
      const auto n = design::hosts_in_header(text);
      if (!n) return fail(target + "/" + name + ": not written by `fabricctl design` (its first line says which)");
      if (before && *before != *n) return fail(target + ": its files were designed at different sizes");
      before = n;
    }
    if (!before) return fail(target + ": no inventory files to grow");
    if (*before > hosts)
      return fail(target + " has " + std::to_string(*before) + " hosts and the design " + std::to_string(hosts) +
                  ": --grow only adds");
    const auto old_layout = design::lay_out(*spec, *before, diags);
    if (!old_layout) {
      std::cerr << diags.str() << "fabricctl: design: nothing was written\n";
      return kExitInvalid;
    }
    const auto edited = file_differences(design::inventory_files(*spec, *old_layout), *have, target);
    if (!edited.empty()) {
      for (const std::string& e : edited) std::cerr << "fabricctl: " << e << " at " << *before << " hosts\n";
      return fail(target + " is not what this design made at " + std::to_string(*before) +
                  " hosts: edited by hand, or the design changed more than its host count; nothing was written");
    }
    const auto changes = design::growth_changes(*old_layout, *layout, 20);
    if (!changes.empty()) {
      for (const std::string& c : changes) std::cerr << "fabricctl: " << c << "\n";
      return fail("growing " + target + " from " + std::to_string(*before) + " to " + std::to_string(hosts) +
                  " hosts would change what exists (set leaves.pod_hosts to keep the pods as they are); "
                  "nothing was written");
    }
  }

  if (target.empty()) {
    print_report(*spec, *layout);
    return kExitOk;
  }
  auto staged = design::StagedInventory::open(target, !grow.empty());
  if (!staged) return fail(staged.error());
  if (auto ok = (*staged)->write(files); !ok) return fail(ok.error());
  fo.inventory = (*staged)->stage().string();
  LoadProblems problems;
  const auto fabric = load_fabric(fo, nullptr, &problems);
  if (!fabric) {
    print_problems(problems, fo.inventory, target);
    std::cerr << "fabricctl: design: the inventory it made does not validate; nothing was written\n";
    return kExitInvalid;
  }
  if (auto ok = (*staged)->commit(); !ok) return fail(ok.error());
  print_report(*spec, *layout);
  size_t ports = 0;
  for (const auto& d : fabric->desired.devices) ports += d.ports.size();
  std::cout << (grow.empty() ? "wrote " : "grew ") << terminal_line(target) << ": " << fabric->desired.devices.size()
            << " devices, " << ports << " ports, " << fabric->links << " links, valid\n";
  return kExitOk;
}

}  // namespace fabricctl
