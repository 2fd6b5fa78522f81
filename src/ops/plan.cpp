#include "ops/plan.h"

#include <algorithm>

#include "ops/remote_steps.h"
#include "ops/verify.h"
#include "util/escape.h"
#include "util/parallel.h"
#include "util/sha256.h"
#include "util/text.h"
#include "verify/engine.h"

namespace fabricctl::ops {

size_t FabricPlan::changed() const {
  return static_cast<size_t>(
      std::count_if(devices.begin(), devices.end(), [](const DevicePlan& d) { return d.changes(); }));
}

size_t FabricPlan::failed() const {
  return static_cast<size_t>(
      std::count_if(devices.begin(), devices.end(), [](const DevicePlan& d) { return d.failed(); }));
}

const DevicePlan* FabricPlan::find(std::string_view device) const {
  for (const DevicePlan& d : devices)
    if (d.device == device) return &d;
  return nullptr;
}

DevicePlan plan_device(const DeviceDesired& device, const RawOutputs* raw, std::string_view failure,
                       std::vector<Result> why) {
  DevicePlan p;
  p.device = device.name;
  p.platform = device.platform;
  p.why = std::move(why);
  const Applier& a = adapter(device.platform).applier;
  if (raw == nullptr) {
    p.error = failure.empty() ? "its state was not read" : std::string(failure);
    return p;
  }
  if (a.change == nullptr) {
    p.error = "fabricctl cannot change " + std::string(adapter(device.platform).name()) + " devices yet";
    return p;
  }
  auto change = a.change(device, *raw);
  if (!change) {
    p.error = "cannot compute its change: " + terminal_line(change.error());
    return p;
  }
  p.change = std::move(*change);
  p.base_sha256 = sha256_hex(p.change.base);
  return p;
}

namespace {
// The one drift check no setting fixes.
constexpr std::string_view kSpeedDrift = "port.speed.drift";
}  // namespace

bool setting_drift(std::string_view check) { return check.ends_with(".drift") && check != kSpeedDrift; }

std::map<std::string, std::vector<Result>> drift_findings(const FabricDesired& desired, const FabricObserved& observed,
                                                          const std::set<std::string>& scope) {
  // The drift checks of settings apply can change; port.speed.drift is optics and cabling.
  VerifyFilter f;
  f.only = {"*.drift"};
  f.skip = {std::string(kSpeedDrift)};
  std::string error;
  VerifyOptions options;
  options.checks = select_checks(f, error);
  options.scope = scope;
  options.needed = scope;
  options.passes = Passes::counted;
  const VerifyReport report = verify(desired, observed, std::move(options));
  std::map<std::string, std::vector<Result>> by_device;
  for (const Result& r : report.results)
    if (r.status == Status::fail && scope.count(r.a.device) > 0) by_device[r.a.device].push_back(r);
  return by_device;
}

FabricPlan plan_fabric(const FabricDesired& desired, const FabricObserved& observed, const RawByDevice& raws,
                       const std::set<std::string>& scope) {
  FabricPlan plan;
  auto why = drift_findings(desired, observed, scope);
  for (const DeviceDesired& d : desired.devices) {
    if (scope.count(d.name) == 0) continue;
    const auto raw = raws.find(d.name);
    const DeviceFailure* f = observed.failure(d.name);
    auto findings = why.find(d.name);
    // A device whose outputs collect could not read is not planned from them: its plan fails with
    // collect's reason, the one verdict for both.
    const RawOutputs* readable = f != nullptr || raw == raws.end() ? nullptr : &raw->second;
    plan.devices.push_back(plan_device(d, readable, f ? f->reason : "",
                                       findings == why.end() ? std::vector<Result>{} : std::move(findings->second)));
  }
  std::sort(plan.devices.begin(), plan.devices.end(),
            [](const DevicePlan& a, const DevicePlan& b) { return natural_less(a.device, b.device); });
  return plan;
}

void check_changes(FabricPlan& plan, const Fabric& fabric, int jobs, Context& ctx) {
  std::vector<std::pair<DevicePlan*, size_t>> asked;  // the plan, the device's index in the fabric
  for (DevicePlan& d : plan.devices) {
    const Applier& a = adapter(d.platform).applier;
    // A device without a change is asked too, where its platform can tell a transaction in flight.
    if (d.failed() || a.check == nullptr) continue;
    for (size_t i = 0; i < fabric.desired.devices.size(); ++i)
      if (fabric.desired.devices[i].name == d.device) asked.emplace_back(&d, i);
  }
  if (asked.empty()) return;
  ctx.observer.phase("checking " + std::to_string(asked.size()) + " devices (changes, transactions in flight)");
  const size_t workers = std::min<size_t>(static_cast<size_t>(std::max(1, jobs)), asked.size());
  parallel_for(asked.size(), workers, [&](size_t, size_t k) {
    DevicePlan& d = *asked[k].first;
    const DeviceDesired& device = fabric.desired.devices[asked[k].second];
    const Applier& a = adapter(d.platform).applier;
    TransactionId id;  // no name before apply; a host's check runs its fabricctl
    id.fabricctl = fabric.mgmt[asked[k].second].fabricctl;
    const std::vector<RemoteStep> steps = a.check(device, d.change, id);
    if (steps.empty()) return;
    auto session = ctx.connector.open(fabric.mgmt[asked[k].second]);
    if (!session) {
      d.error = "cannot check its change: " + terminal_line(session.error());
      return;
    }
    if (const std::string why = run_steps(**session, steps, a); !why.empty()) {
      d.error = (d.changes() ? "refuses the change: " : "has a transaction in flight: ") + terminal_line(why);
      d.refused = true;
      return;
    }
    if (d.changes()) d.checked = steps.back().what + ": accepted";  // the last judges the change itself
  });
  ctx.observer.clear();
}

PlannedFabric read_and_plan(const Fabric& fabric, const std::set<std::string>& scope, const CollectOptions& how,
                            Context& ctx) {
  PlannedFabric p;
  p.scope = scope;
  const std::set<std::string> needed = devices_needed(fabric.desired, scope);
  p.observed = collect_devices(fabric, {needed.begin(), needed.end()}, how, ctx, &p.raws);
  p.plan = plan_fabric(fabric.desired, p.observed, p.raws, scope);
  if (!how.from_raw) check_changes(p.plan, fabric, how.jobs, ctx);
  p.plan.created_at = utc_text(ctx.clock.now());
  return p;
}

std::string_view change_file(Platform platform) { return adapter(platform).applier.change_file; }
std::string_view transaction_summary(Platform platform) { return adapter(platform).applier.transaction; }

}  // namespace fabricctl::ops
