// Per-port checks as data. A PortRule says which desired ports a check applies to, what it expects of
// one, how it judges the observed port and how to fix a failure; one runner turns a rule into Results in
// the desired state's order. The drift, rdma and cabling families share it, so missing data, endpoints,
// messages and hints read the same in every port check.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "verify/check.h"
#include "verify/format.h"

namespace fabricctl::port_compare {

/// Joins string-like parts (std::string, std::string_view, const char*) into one string.
template <class... Parts>
std::string cat(const Parts&... parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return s;
}

/// One desired port with its device, and the run's context (tolerances).
struct PortView {
  const CheckContext& ctx;
  const DeviceDesired& device;
  const PortDesired& port;

  [[nodiscard]] const QosIntent& qos() const { return device.qos; }
  [[nodiscard]] bool is_switch() const { return device.role == Role::switch_; }
};

/// How one observed port fares against its rule.
struct Verdict {
  Status status = Status::pass;
  std::string observed;              // short value(s) seen, parallel to the rule's expected text
  std::string detail;                // the message after "<device>:<port>: "
  std::vector<int> keys;             // what differs, for the fix (Fix::keys)
  std::optional<Severity> severity;  // replaces the check's severity for this result when set
  std::string cause;                 // a consequence: the finding that explains it
};

/// As intended. Passes carry no text: at fabric scale there are millions of them.
inline Verdict pass() { return {}; }

inline Verdict fail(std::string observed, std::string detail, std::vector<int> keys = {}) {
  return {Status::fail, std::move(observed), std::move(detail), std::move(keys), {}, {}};
}

/// Wrong because of another finding, named by `cause` ("port.mtu.drift host1:eth0").
inline Verdict consequence(std::string observed, std::string detail, std::string cause) {
  return {Status::consequence, std::move(observed), std::move(detail), {}, {}, std::move(cause)};
}

/// The observed field `what` (e.g. "MTU") was not collected.
inline Verdict not_collected(std::string_view what) {
  return {Status::missing, "not collected", cat(what, " not collected"), {}, {}, {}};
}

/// Compares one scalar field. `name` starts the message ("MTU"); `text` formats a value.
template <class T, class Text>
Verdict same(std::string_view name, const T& want, const std::optional<T>& got, Text text) {
  if (!got) return not_collected(name);
  if (*got == want) return pass();
  std::string seen = text(*got);
  std::string detail = cat(name, " ", seen, ", expected ", text(want));
  return fail(std::move(seen), std::move(detail));
}

/// One check over ports. Every function is required.
struct PortRule {
  std::string_view id;
  Severity severity;
  std::string_view summary;
  Setting setting;  // what the fix of a failure sets
  bool (*applies)(const PortView&);
  std::string (*expected)(const PortView&);
  /// Judges an observed port; returns not_collected() when a field it needs is absent.
  Verdict (*judge)(const PortView&, const PortObserved&);
};

inline bool any_port(const PortView&) { return true; }
inline bool switch_port(const PortView& v) { return v.device.role == Role::switch_; }
inline bool host_port(const PortView& v) { return v.device.role == Role::host; }
/// A port the inventory cables to another device.
inline bool cabled_port(const PortView& v) { return !v.port.peer_device.empty(); }

/// The verdict when the observed port itself is absent, saying why.
inline Verdict absent(const CheckContext& ctx, const DeviceDesired& d, const PortDesired& p, const DeviceObserved* od) {
  if (od) {
    if (const std::string* why = od->port_unreadable(p.name))
      return {Status::missing, "unreadable", cat("port state unreadable: ", *why), {}, {}, {}};
    return {Status::missing, "not collected", cat("port not in the observed state of ", d.name), {}, {}, {}};
  }
  const auto why = ctx.observed.unreadable.find(d.name);
  if (why != ctx.observed.unreadable.end())
    return {Status::missing, "unreadable", cat("device state unreadable: ", why->second), {}, {}, {}};
  return {Status::missing, "not collected", cat("no observed state for ", d.name), {}, {}, {}};
}

/// "port.mtu.drift host1:eth0": how a consequence names the finding that explains it.
inline std::string finding_name(std::string_view check, const DeviceDesired& d, const PortDesired& p) {
  return cat(check, " ", d.name, ":", p.name);
}

/// Turns a failed, missing or consequent verdict into a Result: text, the fix phrased for the device's
/// platform, the link context.
inline Result result_of(const PortRule& rule, const PortView& v, Verdict verdict) {
  Result r;
  r.check = std::string(rule.id);
  r.status = verdict.status;
  r.severity = verdict.severity.value_or(rule.severity);
  r.a = {v.device.name, v.port.name};
  r.expected = rule.expected(v);
  r.observed = std::move(verdict.observed);
  r.message = cat(r.a.str(), ": ", verdict.detail);
  r.cause = std::move(verdict.cause);
  if (const LinkEnds* l = v.ctx.link_of(v.port)) r.link = link_ref(*l);
  if (r.status == Status::fail) r.hint = v.ctx.fix(Fix{rule.setting, &v.device, &v.port, std::move(verdict.keys)});
  return r;
}

/// One result per port the rule applies to, devices and ports in desired order.
inline void run_rule(const PortRule& rule, const CheckContext& ctx, ResultSink& out) {
  for (const DeviceDesired& d : ctx.desired.devices) {
    if (!ctx.in_scope(d)) continue;
    const DeviceObserved* od = ctx.observed_device(d);
    for (const PortDesired& p : d.ports) {
      const PortView v{ctx, d, p};
      if (!rule.applies(v)) continue;
      const PortObserved* op = od ? ctx.observed_port(d, p) : nullptr;
      Verdict verdict = op ? rule.judge(v, *op) : absent(ctx, d, p, od);
      if (verdict.status == Status::pass) out.pass(d, p);
      else out.add(result_of(rule, v, std::move(verdict)));
    }
  }
}

template <const PortRule& R>
void run(const CheckContext& ctx, ResultSink& out) {
  run_rule(R, ctx, out);
}

/// The catalog row of a port rule.
template <const PortRule& R>
Check check() {
  return {R.id, R.severity, R.summary, &run<R>};
}

}  // namespace fabricctl::port_compare
