// link.*: what is about the two ends of a link together. Each field of a port is compared with its
// intent once, by port.* (drift.cpp); a link rule adds only what needs both ends: that they agree
// (PFC, trust, the DSCPs on the wire), that a host's frames fit its switch port (MTU), that both run at
// the expected speed (naming the slow end), that the link is up. When the ends disagree because one of
// them drifted, the disagreement is a consequence of that drift and names it instead of counting as a
// second fault; when the inventory's cabling is contradicted by LLDP, the ends compared are not
// connected, and a failure says so by naming the cabling finding as its cause.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "platform/platform.h"
#include "util/text.h"
#include "verify/checks/checks.h"
#include "verify/format.h"

namespace fabricctl {
namespace {

// ---- the two ends of a link

/// One end of a link: the intent for it and what its device reported.
struct End {
  const DeviceDesired& device;
  const PortDesired& port;
  const PortObserved* observed;  // nullptr when the device or the port was not observed

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

End make_end(const CheckContext& ctx, const DeviceDesired& d, const PortDesired& p) {
  return End{d, p, ctx.observed_port(d, p)};
}

/// What a link rule found wrong.
struct Outcome {
  std::string message;
  std::vector<const End*> drifted;                // ends whose own drift explains it: the finding is a consequence
  std::string_view drift_check;                   // the port check that reports that drift
  std::vector<std::pair<const End*, Fix>> fixes;  // what to change, end by end
};

/// Fixes phrased for each end's platform; when more than one device is involved, each block is headed
/// by a comment naming its device, so that every block can be pasted on its own.
std::string hint_of(const std::vector<std::pair<const End*, Fix>>& fixes) {
  std::vector<std::string> blocks;
  for (const auto& [end, fix] : fixes) {
    std::string text = fix_text(fix);
    if (fixes.size() > 1) text = "# on " + end->name() + "\n" + text;
    blocks.push_back(std::move(text));
  }
  return join(blocks, "\n");
}

/// "9100 on both ends", or each end's value when they differ.
std::string on_both(const Link& l, const std::string& a, const std::string& b) {
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
std::optional<std::string> gap(const CheckContext& ctx, const LinkRule& rule, const End& e) {
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

/// The result of `rule` on one link; nothing for a pass.
std::optional<Result> evaluate(const CheckContext& ctx, const LinkRule& rule, const LinkEnds& le) {
  const Link l{le, make_end(ctx, *le.a_device, *le.a), make_end(ctx, *le.b_device, *le.b)};
  if (rule.applies && !rule.applies(l)) return std::nullopt;  // a pass: nothing to compare, nothing wrong

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
  } else if (!found->drifted.empty()) {
    r.status = Status::consequence;
    r.cause = std::string(found->drift_check) + " " + found->drifted.front()->name();
  } else {
    r.status = Status::fail;
    r.hint = hint_of(found->fixes);
  }
  return r;
}

template <const LinkRule& R>
void run(const CheckContext& ctx, ResultSink& out) {
  for (const LinkEnds& le : ctx.links) {
    if (std::optional<Result> r = evaluate(ctx, R, le)) out.add(std::move(*r));
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
    o.message += "; the profiles of " + l.a.device.name + " and " + l.b.device.name + " disagree on " +
                 std::string(topic) + ": make them agree, then render and apply both";
    return o;
  }
  o.drifted = drifted(l, got, want);
  o.drift_check = drift_check;
  return o;
}

// ---- link.mtu.mismatch

int mtu_of(const End& e) { return *e.obs().mtu; }
int mtu_want(const End& e) { return e.port.mtu; }

std::optional<Outcome> judge_mtu(const Link& l) {
  if (!l.host_switch())
    return disagreement(l, "MTU", "port.mtu.drift", mtu_of, mtu_want, [](int v) { return "at " + std::to_string(v); });
  // A host frame larger than its switch port's MTU is dropped: the switch end must be at least the host's.
  const End& h = l.host();
  const End& s = l.other(h);
  if (mtu_of(h) <= mtu_of(s)) return std::nullopt;
  Outcome o;
  o.message = "MTU mismatch: " + h.name() + " is at MTU " + std::to_string(mtu_of(h)) + ", above " + s.name() + " at " +
              std::to_string(mtu_of(s)) + ": full-size frames from the host are dropped";
  // The cause is the drift that makes the host not fit: a switch port below its intent, else a host above.
  if (mtu_of(s) < mtu_want(s)) o.drifted = {&s};
  else if (mtu_of(h) > mtu_want(h)) o.drifted = {&h};
  o.drift_check = "port.mtu.drift";
  if (o.drifted.empty()) o.message += "; the intent puts the switch port below the host: raise it in the profile";
  return o;
}

constexpr LinkRule kMtu{
    "link.mtu.mismatch",
    Severity::error,
    "a host's MTU fits its switch port (switch >= host); switch-switch ends are equal",
    "MTU",
    "its MTU",
    [](const PortObserved& o) { return o.mtu.has_value(); },
    [](const Link&, const End& e) { return std::to_string(mtu_of(e)); },
    [](const Link& l) {
      if (!l.host_switch()) return on_both(l, std::to_string(l.a.port.mtu), std::to_string(l.b.port.mtu));
      return "switch >= host (" + std::to_string(l.host().port.mtu) + ")";
    },
    judge_mtu,
    nullptr,
};

// ---- link.pfc.mismatch

using PrioritySet = std::array<bool, kPriorities>;

std::string lossless_text(const PrioritySet& s) {
  const std::string list = format_priorities(s);
  return list == "none" ? "no lossless priority" : "lossless " + list;
}

constexpr LinkRule kPfc{
    "link.pfc.mismatch",
    Severity::error,
    "both ends have the same lossless (PFC) priorities",
    "PFC",
    "its PFC priorities",
    [](const PortObserved& o) { return o.lossless.has_value(); },
    [](const Link&, const End& e) { return format_priorities(*e.obs().lossless); },
    [](const Link& l) { return on_both(l, lossless_text(l.a.qos().lossless), lossless_text(l.b.qos().lossless)); },
    [](const Link& l) {
      return disagreement(
          l, "PFC", "port.pfc.drift", [](const End& e) { return *e.obs().lossless; },
          [](const End& e) { return e.qos().lossless; }, lossless_text);
    },
    nullptr,
};

// ---- link.trust.mismatch

std::string trust_text(Trust t) { return "trusts " + std::string(to_string(t)); }

constexpr LinkRule kTrust{
    "link.trust.mismatch",
    Severity::error,
    "both ends trust the same field (DSCP or PCP)",
    "Trust",
    "its trust mode",
    [](const PortObserved& o) { return o.trust.has_value(); },
    [](const Link&, const End& e) { return std::string(to_string(*e.obs().trust)); },
    [](const Link& l) { return on_both(l, trust_text(l.a.qos().trust), trust_text(l.b.qos().trust)); },
    [](const Link& l) {
      return disagreement(
          l, "Trust", "port.trust.drift", [](const End& e) { return *e.obs().trust; },
          [](const End& e) { return e.qos().trust; }, trust_text);
    },
    nullptr,
};

// ---- link.dscp.mismatch

/// The priorities of the RoCE DSCP and of the CNP DSCP, in that order.
using DscpPriorities = std::array<int, 2>;
using DscpMap = std::array<int, kDscpValues>;

/// The DSCP values on the wire: RoCE and CNP, as the first end's intent marks them (the host end
/// of a host-switch link, which sends both).
std::array<int, 2> link_dscps(const Link& l) { return {l.a.qos().roce_dscp, l.a.qos().cnp_dscp}; }

DscpPriorities dscp_priorities(const DscpMap& map, const std::array<int, 2>& dscps) {
  DscpPriorities out{};
  for (size_t i = 0; i < dscps.size(); ++i)
    out[i] = dscps[i] >= 0 && dscps[i] < kDscpValues ? map[static_cast<size_t>(dscps[i])] : -1;
  return out;
}

/// "26->3 48->6".
std::string dscp_text(const std::array<int, 2>& dscps, const DscpPriorities& p) {
  std::string s;
  for (size_t i = 0; i < dscps.size(); ++i)
    s += (i ? " " : "") + std::to_string(dscps[i]) + "->" + (p[i] < 0 ? "?" : std::to_string(p[i]));
  return s;
}

constexpr LinkRule kDscp{
    "link.dscp.mismatch",
    Severity::error,
    "the RoCE and CNP DSCP values map to the same priorities on both ends",
    "DSCP map",
    "its DSCP map",
    [](const PortObserved& o) { return o.dscp_to_priority.has_value(); },
    [](const Link& l, const End& e) {
      return dscp_text(link_dscps(l), dscp_priorities(*e.obs().dscp_to_priority, link_dscps(l)));
    },
    [](const Link& l) {
      const std::array<int, 2> d = link_dscps(l);
      return on_both(l, dscp_text(d, dscp_priorities(l.a.qos().dscp_to_priority, d)),
                     dscp_text(d, dscp_priorities(l.b.qos().dscp_to_priority, d)));
    },
    [](const Link& l) {
      const std::array<int, 2> d = link_dscps(l);
      return disagreement(
          l, "DSCP map", "port.dscp.drift", [&](const End& e) { return dscp_priorities(*e.obs().dscp_to_priority, d); },
          [&](const End& e) { return dscp_priorities(e.qos().dscp_to_priority, d); },
          [&](const DscpPriorities& p) { return "maps " + dscp_text(d, p); });
    },
    // Under PCP trust the DSCP map classifies nothing; the trust checks cover the trust mode.
    [](const Link& l) { return l.a.qos().trust == Trust::dscp && l.b.qos().trust == Trust::dscp; },
};

// ---- link.speed.mismatch

/// Each end's expected speed; an end without one takes its peer's, since both must be equal.
std::pair<std::optional<int>, std::optional<int>> speed_wants(const Link& l) {
  const std::optional<int> a = l.a.port.speed_mbps ? l.a.port.speed_mbps : l.b.port.speed_mbps;
  const std::optional<int> b = l.b.port.speed_mbps ? l.b.port.speed_mbps : l.a.port.speed_mbps;
  return {a, b};
}

std::optional<Outcome> judge_speed(const Link& l) {
  const int a = *l.a.obs().speed_mbps, b = *l.b.obs().speed_mbps;
  const auto [want_a, want_b] = speed_wants(l);
  const bool a_ok = !want_a || a == *want_a, b_ok = !want_b || b == *want_b;
  if (a == b && a_ok && b_ok) return std::nullopt;
  Outcome o;
  std::string expected = want_a ? ", expected " + format_mbps(*want_a) : "";
  if (a == b) {
    o.message = "Speed mismatch: " + l.a.name() + " and " + l.b.name() + " both run at " + format_mbps(a) + expected;
    // Both ends slow alike: the link itself (optic, cable) is at fault; check it from both ends.
    for (const End* e : {&l.a, &l.b}) o.fixes.push_back({e, Fix{Setting::speed, &e->device, &e->port, {}}});
    return o;
  }
  const End& slow = a < b ? l.a : l.b;
  const End& fast = l.other(slow);
  const bool slow_ok = &slow == &l.a ? (want_a && a_ok) : (want_b && b_ok);
  const End& culprit = slow_ok ? fast : slow;
  o.message = "Speed mismatch: " + l.a.name() + " runs at " + format_mbps(a) + ", " + l.b.name() + " at " +
              format_mbps(b) + expected +
              (slow_ok ? ": " + fast.name() + " runs faster than expected" : ": the slow end is " + slow.name());
  o.fixes.push_back({&culprit, Fix{Setting::speed, &culprit.device, &culprit.port, {}}});
  return o;
}

bool both_up(const Link& l) {
  for (const End* e : {&l.a, &l.b})
    if (e->observed && e->observed->oper_up == false) return false;
  return true;
}

constexpr LinkRule kSpeed{
    "link.speed.mismatch",
    Severity::error,
    "both ends of an up link run at the same speed, the expected one",
    "Speed",
    "its speed",
    [](const PortObserved& o) { return o.speed_mbps.has_value(); },
    [](const Link&, const End& e) { return format_mbps(*e.obs().speed_mbps); },
    [](const Link& l) {
      const auto [a, b] = speed_wants(l);
      return a ? on_both(l, format_mbps(*a), format_mbps(*b)) : std::string("equal on both ends");
    },
    judge_speed,
    // A down port's speed is not a fault of its own: link.oper.down reports the link.
    both_up,
};

// ---- link.oper.down

constexpr LinkRule kOper{
    "link.oper.down",
    Severity::error,
    "both ends of a cabled link are operationally up",
    "Link",
    "its link state",
    [](const PortObserved& o) { return o.oper_up.has_value(); },
    [](const Link&, const End& e) { return std::string(*e.obs().oper_up ? "up" : "down"); },
    [](const Link& l) { return on_both(l, "up", "up"); },
    [](const Link& l) -> std::optional<Outcome> {
      Outcome o;
      std::vector<std::string> down;
      for (const End* e : {&l.a, &l.b}) {
        if (!e->observed || !e->observed->oper_up || *e->observed->oper_up) continue;
        down.push_back(e->name());
        o.fixes.push_back({e, Fix{Setting::link_up, &e->device, &e->port, {}}});
      }
      if (down.empty()) return std::nullopt;
      o.message = "Link down between " + l.a.name() + " and " + l.b.name() + ": " + join(down, " and ") +
                  (down.size() == 1 ? " is down" : " are down") + "; check the cable and optics if it stays down";
      return o;
    },
    nullptr,
    true,
};

}  // namespace

std::vector<Check> link_checks() {
  return {check_of<kMtu>(),  check_of<kPfc>(),   check_of<kTrust>(),
          check_of<kDscp>(), check_of<kSpeed>(), check_of<kOper>()};
}

}  // namespace fabricctl
