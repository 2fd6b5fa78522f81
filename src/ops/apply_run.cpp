#include "ops/apply_run.h"

#include "ops/plan_file.h"
#include "ops/plan_json.h"
#include "util/sha256.h"

namespace fabricctl::ops {

ApplyPlan plan_apply(const Fabric& fabric, const std::set<std::string>& scope, const CollectOptions& how,
                     const std::optional<FabricPlan>& saved, Context& ctx) {
  ApplyPlan out;
  out.planned = read_and_plan(fabric, scope, how, ctx);
  ctx.observer.clear();
  if (saved) {
    SavedPlanCheck checked = check_saved_plan(*saved, out.planned.plan);
    out.stale = std::move(checked.stale);
    if (out.stale.empty()) out.planned.plan = std::move(checked.plan);
  }
  return out;
}

nlohmann::ordered_json outcomes_json(const ApplyResult& r) {
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (const DeviceOutcome& d : r.devices)
    devices.push_back({{"device", d.device},
                       {"platform", to_string(d.platform)},
                       {"outcome", to_string(d.outcome)},
                       {"reason", d.reason},
                       {"rolled_back", d.rolled_back},
                       {"rollback_error", d.rollback_error},
                       {"before_sha256", d.before_sha256},
                       {"after_sha256", d.after_sha256}});
  return {{"schema", "fabricctl.apply/v1"}, {"transaction", r.transaction}, {"devices", std::move(devices)}};
}

Expected<ApplyRun> run_apply(const Fabric& fabric, const ApplyPlan& plan, ApplyOptions options,
                             const ApplyRecord& record, Context& ctx) {
  const FabricPlan& p = plan.planned.plan;
  options.transaction = new_transaction_name(ctx.clock);
  auto audit = AuditLog::open(record.dir, options.transaction, ctx.clock);
  if (!audit) return unexpected(audit.error());
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (const DevicePlan& d : p.devices)
    devices.push_back({{"device", d.device},
                       {"platform", to_string(d.platform)},
                       {"status", d.failed()    ? "failed"
                                  : d.changes() ? "change"
                                                : "no change"},
                       {"before_sha256", d.base_sha256}});
  nlohmann::ordered_json start = {{"transaction", options.transaction},
                                  {"who", audit_actor()},
                                  {"inventory", record.inventory},
                                  {"plan", record.plan_source.empty() ? "made by this apply" : record.plan_source},
                                  {"plan_sha256", sha256_hex(plan_json(p, true).dump())},
                                  {"canary", options.canary},
                                  {"batch", options.batch.text()},
                                  {"by", to_string(options.by)},
                                  {"health_gate_s", options.health_gate.interval.count()},
                                  {"max_failures", options.max_failures},
                                  {"confirm_timeout_s", options.confirm_timeout_s},
                                  {"devices", std::move(devices)}};
  for (const auto& [k, v] : record.start_extra.items()) start[k] = v;
  audit->event("start", start);
  Observers observers({&ctx.observer, &*audit});
  Context apply_ctx{ctx.connector, observers, ctx.clock, ctx.stop};
  ApplyRun run;
  run.result = apply_plan(fabric, p, plan.planned.observed, options, apply_ctx);
  audit->event("end", {{"exit", record.exit_status ? record.exit_status(run.result) : 0},
                       {"interrupted_by", run.result.interrupted_by},
                       {"devices", outcomes_json(run.result)["devices"]}});
  run.record = audit->path();
  run.record_error = audit->error();
  return run;
}

}  // namespace fabricctl::ops
