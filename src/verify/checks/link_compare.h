// Link checks as data, like port_compare.h for ports: a LinkRule says what a link check compares
// (the field both ends must report, each end's value, the expectation) and how it judges the two ends;
// one driver turns a rule into Results: missing data named end by end, a failure explained by an end's
// own drift turned into a consequence that names it, a link LLDP contradicts marked as comparing ports
// that are not connected. link.cpp (what two ends must agree on) and path.cpp (where a packet class
// lands across the link) share it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/text.h"
#include "verify/check.h"
#include "verify/checks/checks.h"

namespace fabricctl::link_compare {

// ---- the two ends of a link

/// One end of a link: the intent for it and what its device reported.
struct End {
  const DeviceDesired& device;
  const PortDesired& port;
  const PortObserved* observed;           // nullptr when the device or the port was not observed
  const DeviceObserved* device_observed;  // nullptr when the device was not observed

  /// "leaf1:Ethernet0", for messages: built only when a link has something to say.
  [[nodiscard]] std::string name() const { return device.name + ":" + port.name; }

  [[nodiscard]] bool is_host() const { return device.role == Role::host; }
  [[nodiscard]] const QosIntent& qos() const { return device.qos; }
  /// The observed port; only for ends evaluate() has checked.
  [[nodiscard]] const PortObserved& obs() const { return *observed; }
};

struct Link {
  const LinkEnds& ends;
  End a;  // the host end of a host-switch link, else the end whose device name sorts first
  End b;

  [[nodiscard]] bool host_switch() const { return a.is_host() != b.is_host(); }
  [[nodiscard]] const End& host() const { return a.is_host() ? a : b; }
  [[nodiscard]] const End& other(const End& e) const { return &e == &a ? b : a; }
};

inline End make_end(const CheckContext& ctx, const DeviceDesired& d, const PortDesired& p) {
  return End{d, p, ctx.observed_port(d, p), ctx.observed_device(d)};
}

/// What a link rule found wrong.
struct Outcome {
  std::string message;
  std::vector<const End*> drifted;                // ends whose own drift explains it: the finding is a consequence
  std::string_view drift_check;                   // the port check that reports that drift
  std::string cause;                              // another finding that explains it; wins over `drifted`
  std::vector<std::pair<const End*, Fix>> fixes;  // what to change, end by end
};

/// Fixes phrased for each end's platform; when more than one device is involved, each block is headed
/// by a comment naming its device, so that every block can be pasted on its own.
inline std::string hint_of(const CheckContext& ctx, const std::vector<std::pair<const End*, Fix>>& fixes) {
  std::vector<std::string> blocks;
  for (const auto& [end, fix] : fixes) {
    std::string text = ctx.fix(fix);
    if (fixes.size() > 1) text = "# on " + end->name() + "\n" + text;
    blocks.push_back(std::move(text));
  }
  return join(blocks, "\n");
}

/// The end of a message whose ends differ because their profiles do: no device fix can make them agree.
inline std::string profiles_disagree(const Link& l, std::string_view topic) {
  return "; the profiles of " + l.a.device.name + " and " + l.b.device.name + " disagree on " + std::string(topic) +
         ": make them agree, then render and apply both";
}

/// "9100 on both ends", or each end's value when they differ.
inline std::string on_both(const Link& l, const std::string& a, const std::string& b) {
  return a == b ? a + " on both ends" : l.a.name() + " " + a + ", " + l.b.name() + " " + b;
}

// ---- the rule table and the shared driver

struct LinkRule {
  std::string_view id;
  Severity severity;
  std::string_view summary;
  std::string_view topic;  // starts every message: "MTU", "PFC", ...
  std::string_view field;  // what an end failed to report: "its MTU"
  bool (*has)(const PortObserved&);
  /// An end's observed value, short; only for an end that has the field.
  std::string (*value)(const Link&, const End&);
  std::string (*expected)(const Link&);
  /// Both ends reported the field: what is wrong, or nothing.
  std::optional<Outcome> (*judge)(const Link&);
  /// Whether the rule applies to the link; nullptr: always.
  bool (*applies)(const Link&);
  /// One end's state can prove a failure on its own (a down end): judge also when the other end is
  /// missing; the judge then reads only ends that reported the field.
  bool one_end_suffices = false;
};

/// Why an end cannot be compared, or nothing when it reported what the rule needs.
inline std::optional<std::string> gap(const CheckContext& ctx, const LinkRule& rule, const End& e) {
  if (e.observed) {
    if (rule.has(*e.observed)) return std::nullopt;
    return e.name() + " did not report " + std::string(rule.field);
  }
  const std::string& dev = e.device.name;
  if (const auto u = ctx.observed.unreadable.find(dev); u != ctx.observed.unreadable.end())
    return dev + " could not be read (" + u->second.substr(0, u->second.find('\n')) + ")";
  const DeviceObserved* od = ctx.device(dev);
  if (!od) return dev + " has no observed state";
  if (const std::string* why = od->port_unreadable(e.port.name)) return e.name() + " could not be read (" + *why + ")";
  return dev + " reported no port " + e.port.name;
}

/// The result of `rule` on a link it applies to; nothing for a pass.
inline std::optional<Result> evaluate(const CheckContext& ctx, const LinkRule& rule, const Link& l) {
  const LinkEnds& le = l.ends;

  std::vector<std::string> gaps;
  for (const End* e : {&l.a, &l.b})
    if (std::optional<std::string> g = gap(ctx, rule, *e)) gaps.push_back(*g);
  std::optional<Outcome> found;
  if (gaps.empty() || rule.one_end_suffices) {
    found = rule.judge(l);
    if (!found && gaps.empty()) return std::nullopt;  // pass
  }
  const std::string topic(rule.topic);
  Result r;
  r.check = std::string(rule.id);
  r.severity = rule.severity;
  r.a = {le.a_device->name, le.a->name};
  r.b = Endpoint{le.b_device->name, le.b->name};
  r.link = link_ref(le);
  r.expected = rule.expected(l);
  std::vector<std::string> values;
  for (const End* e : {&l.a, &l.b})
    values.push_back(e->name() + "=" + (e->observed && rule.has(*e->observed) ? rule.value(l, *e) : "unknown"));
  r.observed = join(values, ", ");
  if (!found) {
    r.status = Status::missing;
    r.message = topic + " not compared between " + l.a.name() + " and " + l.b.name() + ": " + join(gaps, "; ");
    return r;
  }
  r.message = std::move(found->message);
  if (std::string cabling = miscabled_cause(ctx, le); !cabling.empty()) {
    // LLDP shows these two ports are not connected to each other: comparing them says nothing.
    r.status = Status::consequence;
    r.cause = std::move(cabling);
    r.message += " (compares ports that LLDP shows are not connected)";
  } else if (!found->cause.empty()) {
    r.status = Status::consequence;
    r.cause = std::move(found->cause);
  } else if (!found->drifted.empty()) {
    r.status = Status::consequence;
    r.cause = std::string(found->drift_check) + " " + found->drifted.front()->name();
  } else {
    r.status = Status::fail;
    r.hint = hint_of(ctx, found->fixes);
  }
  return r;
}

template <const LinkRule& R>
void run(const CheckContext& ctx, ResultSink& out) {
  for (const LinkEnds& le : ctx.links) {
    // Both ends are looked up once, for whether the rule applies and for the comparison. A rule that
    // does not apply to the link as it is leaves it neither compared nor a pass.
    const Link l{le, make_end(ctx, *le.a_device, *le.a), make_end(ctx, *le.b_device, *le.b)};
    if (R.applies && !R.applies(l)) out.not_applicable();
    else if (std::optional<Result> r = evaluate(ctx, R, l)) out.add(std::move(*r));
    else out.pass(le);
  }
}

template <const LinkRule& R>
Check check_of() {
  return {R.id, R.severity, R.summary, &run<R>};
}

/// The ends of `l` whose observed value differs from their own intent.
template <class Got, class Want>
std::vector<const End*> drifted(const Link& l, Got got, Want want) {
  std::vector<const End*> out;
  for (const End* e : {&l.a, &l.b})
    if (got(*e) != want(*e)) out.push_back(e);
  return out;
}

/// The ends disagree on a value each should take from its intent. When the intents themselves differ,
/// no device fix can make the ends agree: a fault of its own. Otherwise an end's drift explains it.
template <class Got, class Want, class Text>
std::optional<Outcome> disagreement(const Link& l, std::string_view topic, std::string_view drift_check, Got got,
                                    Want want, Text text) {
  if (got(l.a) == got(l.b)) return std::nullopt;
  Outcome o;
  o.message = std::string(topic) + " disagrees: " + l.a.name() + " " + text(got(l.a)) + ", " + l.b.name() + " " +
              text(got(l.b));
  if (want(l.a) != want(l.b)) {
    o.message += profiles_disagree(l, topic);
    return o;
  }
  o.drifted = drifted(l, got, want);
  o.drift_check = drift_check;
  return o;
}

}  // namespace fabricctl::link_compare
