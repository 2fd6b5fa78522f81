#include "cli/plan_report.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "cli/command.h"
#include "ops/plan_json.h"
#include "state/intent_diff.h"
#include "util/escape.h"

namespace fabricctl {
namespace {

using ops::DevicePlan;
using ops::FabricPlan;
using ops::status_of;

/// Ports named in one line of WHY before the rest are counted: a factory switch has the same finding on
/// every port.
constexpr size_t kPortsNamed = 4;

/// A device's findings, those that differ only by port folded into one line each, in the order of their
/// first port: "port.pfc.drift Ethernet0, Ethernet4, Ethernet8, Ethernet12 and 28 more ports: expected
/// 3, observed none". A device-wide finding is its check alone: the row names the device.
std::vector<std::string> why_lines(const std::vector<Result>& why) {
  struct Group {
    const Result* first;
    std::vector<std::string> ports;
  };
  std::vector<Group> groups;
  std::map<std::tuple<std::string_view, std::string_view, std::string_view>, size_t> index;
  for (const Result& r : why) {
    const auto [it, added] = index.try_emplace({r.check, r.expected, r.observed}, groups.size());
    if (added) groups.push_back({&r, {}});
    if (!r.a.port.empty()) groups[it->second].ports.push_back(r.a.port);
  }
  std::vector<std::string> lines;
  for (const Group& g : groups) {
    const Result& r = *g.first;
    std::string line = r.check;  // a device-wide finding: the row names the device
    if (!g.ports.empty()) {
      line += " ";
      const std::vector<std::string> named(g.ports.begin(), g.ports.begin() + std::min(g.ports.size(), kPortsNamed));
      line += fold_names(named);
      if (g.ports.size() > named.size())
        line += " and " + std::to_string(g.ports.size() - named.size()) + " more ports";
    }
    if (!r.expected.empty() || !r.observed.empty()) line += ": expected " + r.expected + ", observed " + r.observed;
    lines.push_back(terminal_line(line));
  }
  return lines;
}

void pad(std::ostream& out, std::string_view s, size_t width) {
  out << s;
  for (size_t i = s.size(); i < width; ++i) out << ' ';
}

size_t count_lines(std::string_view text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n')) +
         (text.empty() || text.back() == '\n' ? 0 : 1);
}

}  // namespace

std::string plan_summary(const FabricPlan& plan) {
  const size_t total = plan.devices.size(), changed = plan.changed(), failed = plan.failed();
  return std::to_string(changed) + " of " + std::to_string(total) +
         (total == 1 ? " device changes" : " devices change") +
         (failed ? ", " + std::to_string(failed) + " failed" : "") + "; " + std::to_string(total - changed - failed) +
         " unchanged.";
}

void write_plan_table(const FabricPlan& plan, std::ostream& out, PlanChanges changes) {
  size_t w_device = 6, w_platform = 8;
  for (const DevicePlan& d : plan.devices) {
    w_device = std::max(w_device, d.device.size());
    w_platform = std::max(w_platform, to_string(d.platform).size());
  }
  pad(out, "DEVICE", w_device + 2);
  pad(out, "PLATFORM", w_platform + 2);
  pad(out, "PLAN", 11);
  out << "WHY\n";
  std::vector<std::pair<std::string, std::vector<std::string>>> shown;  // device, its WHY lines
  for (const DevicePlan& d : plan.devices) {
    pad(out, d.device, w_device + 2);
    pad(out, to_string(d.platform), w_platform + 2);
    pad(out, status_of(d), 11);
    if (d.failed()) {
      out << terminal_line(d.error) << "\n";
      continue;
    }
    if (d.why.empty()) {
      out << (d.changes() ? "settings verify does not compare (see the change)" : "") << "\n";
      continue;
    }
    // Devices with the same findings (a factory bring-up: all of them) name the first one's.
    std::vector<std::string> lines = why_lines(d.why);
    const auto same = std::find_if(shown.begin(), shown.end(), [&](const auto& s) { return s.second == lines; });
    if (same != shown.end()) {
      out << "the same findings as " << same->first << "\n";
      continue;
    }
    // The first finding on the row, the rest under it.
    for (size_t i = 0; i < lines.size(); ++i) {
      if (i > 0) pad(out, "", w_device + w_platform + 4 + 11);
      out << lines[i] << "\n";
    }
    shown.emplace_back(d.device, std::move(lines));
  }
  for (const DevicePlan& d : plan.devices) {
    if (!d.changes() || changes == PlanChanges::left_out) continue;
    const std::string_view transaction = ops::transaction_summary(d.platform);
    out << "\n--- " << d.device << ": " << ops::change_file(d.platform) << " (" << count_lines(d.change.text)
        << " lines" << (transaction.empty() ? "" : "; " + std::string(transaction)) << ")\n";
    // How the change goes on this device, and what the device said of it: device text, one line each.
    for (const std::string& note : d.change.notes) out << "# " << terminal_line(note) << "\n";
    if (!d.checked.empty()) out << "# " << terminal_line(d.checked) << "\n";
    out << d.change.text << (d.change.text.back() == '\n' ? "" : "\n");
  }
  out << "\n" << plan_summary(plan) << "\n";
}

void write_plan_native(const FabricPlan& plan, std::ostream& out) {
  for (const DevicePlan& d : plan.devices) {
    if (!d.changes()) continue;
    out << "--- " << d.device << ": " << ops::change_file(d.platform) << "\n";
    out << d.change.text << (d.change.text.back() == '\n' ? "" : "\n");
  }
}

int plan_exit_code(const FabricPlan& plan) {
  if (plan.failed() > 0) return kExitDevice;
  return plan.changed() > 0 ? kExitFindings : kExitOk;
}

}  // namespace fabricctl
