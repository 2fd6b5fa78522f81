#include "verify/engine.h"

#include <fnmatch.h>

#include <algorithm>

#include "util/diag.h"
#include "util/spell.h"

namespace fabricctl {
namespace {

bool glob(const std::string& pattern, const std::string& s) { return ::fnmatch(pattern.c_str(), s.c_str(), 0) == 0; }

bool any_glob(const std::vector<std::string>& patterns, const std::string& s) {
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return glob(p, s); });
}

}  // namespace

std::set<std::string> devices_in_scope(const FabricDesired& desired, const std::vector<std::string>& limit) {
  std::set<std::string> out;
  for (const DeviceDesired& d : desired.devices) {
    bool in = limit.empty() || any_glob(limit, d.name);
    for (const std::string& g : d.groups) in = in || any_glob(limit, g);
    if (in) out.insert(d.name);
  }
  return out;
}

std::set<std::string> devices_needed(const FabricDesired& desired, const std::set<std::string>& scope) {
  std::set<std::string> out = scope;
  for (const DeviceDesired& d : desired.devices) {
    if (!scope.count(d.name)) continue;
    for (const PortDesired& p : d.ports)
      if (!p.peer_device.empty()) out.insert(p.peer_device);
  }
  return out;
}

std::vector<const Check*> select_checks(const VerifyFilter& f, std::string& error) {
  std::vector<std::string_view> ids;
  for (const Check& c : checks()) ids.push_back(c.id);
  for (const auto* list : {&f.only, &f.skip}) {
    for (const std::string& pattern : *list) {
      if (std::any_of(ids.begin(), ids.end(), [&](std::string_view id) { return glob(pattern, std::string(id)); }))
        continue;
      error = "no check matches " + quote(pattern);
      if (std::string hint = closest_match(pattern, ids); !hint.empty()) error += "; did you mean " + quote(hint) + "?";
      error += " (fabricctl verify --list-checks shows them)";
      return {};
    }
  }
  std::vector<const Check*> out;
  for (const Check& c : checks()) {
    const std::string id(c.id);
    if (!f.only.empty() && !any_glob(f.only, id)) continue;
    if (any_glob(f.skip, id)) continue;
    out.push_back(&c);
  }
  if (out.empty()) error = "--check and --skip leave no check to run";
  return out;
}

VerifyReport run_verify(const FabricDesired& desired, const FabricObserved& observed,
                        const std::vector<const Check*>& selected, const std::set<std::string>& scope,
                        const std::set<std::string>& needed, Severity min_severity, Tolerance tolerance) {
  // --limit applies before the checks run: they skip devices and links outside the scope.
  const CheckContext ctx(desired, observed, tolerance, &scope);
  VerifyReport r;
  r.min_severity = min_severity;
  std::set<std::string> devices_compared;  // devices with at least one compared result
  std::vector<Result> all;
  for (const Check* c : selected) {
    const auto check_index = static_cast<uint32_t>(r.checks_run.size());
    r.checks_run.emplace_back(c->id);
    all.clear();
    c->run(ctx, all);
    for (Result& res : all) {
      const bool in_scope = scope.count(res.a.device) || (res.b && scope.count(res.b->device));
      if (!in_scope) continue;
      if (res.status == Status::missing) {
        if (!c->optional_data) ++r.incomplete;
      } else {
        // A device counts when its own state took part: readable, in scope.
        for (const Endpoint* e : {&res.a, res.b ? &*res.b : nullptr})
          if (e && scope.count(e->device) && observed.devices.count(e->device)) devices_compared.insert(e->device);
      }
      // Below --severity a failure is not shown; it does not turn into a pass either.
      if (res.status == Status::fail && res.severity < min_severity) continue;
      if (res.status == Status::pass) r.add_pass(check_index, res);
      else r.results.push_back(std::move(res));
    }
  }
  // A consequence stands for its cause only when the cause is reported; when --check, --skip or
  // --severity left the cause out, it is a fault of its own again.
  std::set<std::string> reported;
  for (const Result& res : r.results)
    if (res.status == Status::fail) reported.insert(res.check + " " + res.object());
  for (Result& res : r.results) {
    if (res.status != Status::consequence || reported.count(res.cause)) continue;
    res.status = Status::fail;
    res.message += " (caused by " + res.cause + ", not reported in this run)";
    res.cause.clear();
  }
  r.devices_checked = devices_compared.size();
  // A link is checked when both of its ends were read: both ports are in the observed state.
  for (const LinkEnds& l : ctx.links)
    if (ctx.port(l.a_device->name, l.a->name) && ctx.port(l.b_device->name, l.b->name)) ++r.links_checked;
  for (const auto& [d, why] : observed.unreadable)
    if (needed.count(d)) r.unreadable.emplace(d, why);
  return r;
}

int verify_exit_code(const VerifyReport& r) {
  // An audit that could not compare something it needed is incomplete, whatever it found.
  if (!r.unreadable.empty() || r.incomplete > 0) return 3;
  for (const Result& res : r.results)
    if (res.status == Status::fail && res.severity == Severity::error) return 1;
  return 0;
}
}  // namespace fabricctl
