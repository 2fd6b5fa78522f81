#include "cli/plan_report.h"

#include <algorithm>

#include "cli/command.h"
#include "ops/plan_json.h"
#include "util/escape.h"

namespace fabricctl {
namespace {

using ops::DevicePlan;
using ops::FabricPlan;
using ops::status_of;

/// One finding, short: "port.pfc.drift Ethernet0: expected 3, observed none".
std::string finding_line(const Result& r) {
  std::string line = r.check + " " + (r.a.port.empty() ? r.a.device : r.a.port);
  if (!r.expected.empty() || !r.observed.empty()) line += ": expected " + r.expected + ", observed " + r.observed;
  return terminal_line(line);
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

void write_plan_table(const FabricPlan& plan, std::ostream& out) {
  size_t w_device = 6, w_platform = 8;
  for (const DevicePlan& d : plan.devices) {
    w_device = std::max(w_device, d.device.size());
    w_platform = std::max(w_platform, to_string(d.platform).size());
  }
  pad(out, "DEVICE", w_device + 2);
  pad(out, "PLATFORM", w_platform + 2);
  pad(out, "PLAN", 11);
  out << "WHY\n";
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
    // The first finding on the row, the rest under it.
    for (size_t i = 0; i < d.why.size(); ++i) {
      if (i > 0) pad(out, "", w_device + w_platform + 4 + 11);
      out << finding_line(d.why[i]) << "\n";
    }
  }
  for (const DevicePlan& d : plan.devices) {
    if (!d.changes()) continue;
    const std::string_view transaction = ops::transaction_summary(d.platform);
    out << "\n--- " << d.device << ": " << ops::change_file(d.platform) << " (" << count_lines(d.change.text)
        << " lines" << (transaction.empty() ? "" : "; " + std::string(transaction)) << ")\n";
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
