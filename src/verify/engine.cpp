#include "verify/engine.h"

#include <fnmatch.h>

#include <algorithm>
#include <optional>

#include "util/diag.h"
#include "util/parallel.h"
#include "util/phase_timer.h"
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

VerifyReport run_verify(const FabricDesired& desired, const FabricObserved& observed, const VerifyOptions& options) {
  const std::vector<const Check*>& selected = options.checks;
  const std::set<std::string>& scope = options.scope;
  const std::set<std::string>& needed = options.needed;
  const Severity min_severity = options.min_severity;
  const Passes passes = options.passes;
  // --limit applies before the checks run: they skip devices and links outside the scope.
  std::optional<PhaseTimer> context_timer(std::in_place, "check context");
  const CheckContext ctx(desired, observed, options.tolerance, &scope, options.fix_text);
  context_timer.reset();
  VerifyReport r;
  r.min_severity = min_severity;
  // Devices with at least one compared result, by index into desired.devices.
  std::vector<bool> compared(desired.devices.size(), false);
  auto mark_compared = [&](const DeviceDesired* d) {
    if (d && ctx.in_scope(*d) && ctx.observed_device(*d)) compared[ctx.index_of(*d)] = true;
  };
  // Passes name desired objects: each name is interned once, then found by index.
  constexpr uint32_t kUnset = PassRef::kNone - 1;
  std::vector<uint32_t> device_name(desired.devices.size(), kUnset);
  std::vector<uint32_t> port_name(ctx.port_count(), kUnset);
  auto device_id = [&](const DeviceDesired* d) {
    if (!d) return PassRef::kNone;
    uint32_t& id = device_name[ctx.index_of(*d)];
    if (id == kUnset) id = r.names.intern(d->name);
    return id;
  };
  auto port_id = [&](const DeviceDesired* d, const PortDesired* p) {
    if (!p) return PassRef::kNone;
    uint32_t& id = port_name[ctx.port_index(*d, *p)];
    if (id == kUnset) id = r.names.intern(p->name);
    return id;
  };
  auto merge = [&](ResultSink& sink) {
    const Check* c = &sink.check();
    const auto check_index = static_cast<uint32_t>(r.checks_run.size());
    r.checks_run.emplace_back(c->id);
    r.check_tallies.emplace_back();
    r.check_tallies.back().not_applicable = sink.not_applicable_count();
    r.not_applicable += sink.not_applicable_count();
    for (const ResultSink::Pass& p : sink.passes()) {
      if (!ctx.in_scope(*p.a_device) && !(p.b_device && ctx.in_scope(*p.b_device))) continue;
      mark_compared(p.a_device);
      mark_compared(p.b_device);
      ++r.pass_count;
      ++r.check_tallies[check_index].passed;
      if (passes == Passes::listed)
        r.passes.push_back({check_index, device_id(p.a_device), port_id(p.a_device, p.a_port), device_id(p.b_device),
                            port_id(p.b_device, p.b_port)});
    }
    for (Result& res : sink.results()) {
      const bool in_scope = scope.count(res.a.device) || (res.b && scope.count(res.b->device));
      if (!in_scope) continue;
      if (res.status == Status::missing) {
        if (!c->optional_data) ++r.incomplete;
      } else {
        // A device counts when its own state took part: readable, in scope.
        mark_compared(ctx.desired_device(res.a.device));
        if (res.b) mark_compared(ctx.desired_device(res.b->device));
      }
      // Below --severity a failure is not shown; it does not turn into a pass either.
      if (res.status == Status::fail && res.severity < min_severity) {
        ++(res.severity == Severity::warning ? r.hidden_warnings : r.hidden_infos);
        continue;
      }
      if (res.status == Status::pass && passes == Passes::listed) {
        r.add_pass(check_index, res);
      } else if (res.status == Status::pass) {
        ++r.pass_count;
        ++r.check_tallies[check_index].passed;
      } else {
        r.results.push_back(std::move(res));
      }
    }
  };
  // Checks only read the context: on a large fabric they run side by side, a batch of one per core
  // (options.ports_per_thread), and their results are taken in catalog order. One batch of sinks
  // serves every batch (passes are 40 bytes each, a check at R100k has ~400,000): their memory is
  // allocated and paged in once, not once per check.
  const size_t workers = std::min(worker_count(selected.size(), 8, 1),
                                  1 + ctx.port_count() / std::max<size_t>(1, options.ports_per_thread));
  std::vector<std::optional<ResultSink>> sinks(workers);
  for (size_t first = 0; first < selected.size(); first += workers) {
    const size_t batch = std::min(workers, selected.size() - first);
    parallel_for(batch, batch, [&](size_t, size_t k) {
      const Check& check = *selected[first + k];
      if (sinks[k]) sinks[k]->reset(check);
      else sinks[k].emplace(check);
      check.run(ctx, *sinks[k]);
    });
    // Checks of ports and links pass about as often as each other: size the pass list once.
    if (first == 0 && passes == Passes::listed) r.passes.reserve(sinks[0]->passes().size() * selected.size());
    for (size_t k = 0; k < batch; ++k) merge(*sinks[k]);
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
  r.devices_checked = static_cast<size_t>(std::count(compared.begin(), compared.end(), true));
  // A link is checked when both of its ends were read: both ports are in the observed state.
  for (const LinkEnds& l : ctx.links)
    if (ctx.observed_port(*l.a_device, *l.a) && ctx.observed_port(*l.b_device, *l.b)) ++r.links_checked;
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
