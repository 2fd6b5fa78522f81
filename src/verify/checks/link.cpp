// link.*: the two ends of every cabled link agree with each other and with the intent.
//
// Each check is one LinkRule row: its ID and severity, which ends it applies to, the observed field
// it needs, how to print an end's value, and a small judge. evaluate() does what every check
// shares: it resolves both ends, reports missing data naming the end that lacks it, fills
// `expected` and `observed`, and turns the judge's finding into a failure. Messages name both ends
// as device:port; hints name the end to change, with the native command where it is short.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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
  Endpoint endpoint;
  std::string name;  // "leaf1:Ethernet0"

  [[nodiscard]] bool is_host() const { return device.role == Role::host; }
  [[nodiscard]] const QosIntent& qos() const { return device.qos; }
  /// The observed port; only for ends a judge or value printer gets, which evaluate() has checked.
  [[nodiscard]] const PortObserved& obs() const { return *observed; }
};

struct Link {
  End a;  // the host end of a host-switch link, else the end whose device name sorts first
  End b;

  [[nodiscard]] const End& other(const End& e) const { return &e == &a ? b : a; }
  [[nodiscard]] bool host_switch() const { return a.is_host() != b.is_host(); }
  /// The host end of a host-switch link.
  [[nodiscard]] const End& host() const { return a.is_host() ? a : b; }
};

End make_end(const CheckContext& ctx, const DeviceDesired& d, const PortDesired& p) {
  return End{d, p, ctx.port(d.name, p.name), Endpoint{d.name, p.name}, d.name + ":" + p.name};
}

/// The ends a check looks at: both, or those its rule applies to.
using Ends = std::vector<const End*>;

/// A value on each end of a link.
template <class T>
struct Both {
  T a;
  T b;
};

/// What a failing check reports.
struct Finding {
  std::string message;
  std::string hint;
};

// ---- wording shared by every check

using NativeCommands = std::initializer_list<std::pair<Platform, std::string>>;

/// A platform-neutral fix for one end, plus the native command of the end's platform when one
/// is listed: "set the MTU of host1:eth0 to 9000 (Linux: ip link set dev eth0 mtu 9000)".
/// Native vocabulary otherwise lives in the platform adapters; these one-line hints are kept
/// here, in one place per check, until PlatformAdapter carries them.
std::string fix_for(std::string action, const End& e, NativeCommands native = {}) {
  for (const auto& [platform, command] : native)
    if (platform == e.device.platform && !command.empty())
      return action + " (" + std::string(platform_label(platform)) + ": " + command + ")";
  return action;
}

/// One line from the fixes of the ends to change, first letter capitalized.
std::string hint_of(const std::vector<std::string>& fixes) {
  return capitalized(join(fixes, "; "));
}

/// "9100 on both ends", or each end's value when they differ.
std::string on_both(const Link& l, const std::string& a, const std::string& b) {
  return a == b ? a + " on both ends" : l.a.name + " " + a + ", " + l.b.name + " " + b;
}

/// "ECN on TC3 at leaf1:Ethernet0 and spine1:Ethernet1/1", or each end's own text.
template <class Text>
std::string at_ends(const Ends& ends, Text text) {
  std::vector<std::string> names, each;
  bool same = true;
  for (const End* e : ends) {
    names.push_back(e->name);
    each.push_back(text(*e) + " at " + e->name);
    same = same && text(*e) == text(*ends.front());
  }
  return same ? text(*ends.front()) + " at " + join(names, " and ") : join(each, ", ");
}

/// "priority 3" or "priorities 3,4".
std::string priority_list(const std::vector<int>& ps) {
  std::vector<std::string> s;
  for (int p : ps) s.push_back(std::to_string(p));
  return (ps.size() == 1 ? "priority " : "priorities ") + join(s, ",");
}

bool valid_priority(int p) { return p >= 0 && p < kPriorities; }

// ---- the two shapes of judgement

/// For a value both ends must share and that must equal each end's intent. `noun` names a value
/// ("priority 3 lossless"), `phrase` says it of an end ("has priority 3 lossless"), `fix` is the
/// hint for an end that differs from its intent.
template <class T, class Noun, class Phrase, class Fix>
std::optional<Finding> agree(const Link& l, std::string_view topic, const Both<T>& got, const Both<T>& want,
                             Noun noun, Phrase phrase, Fix fix) {
  if (got.a == got.b && got.a == want.a && got.b == want.b) return std::nullopt;
  std::string m(topic);
  if (got.a != got.b)
    m += " disagrees: " + l.a.name + " " + phrase(got.a) + ", " + l.b.name + " " + phrase(got.b);
  else
    m += " differs from the profile: " + l.a.name + " and " + l.b.name + " both have " + noun(got.a);
  std::vector<std::string> fixes;
  if (want.a == want.b) {
    m += "; the profile wants " + noun(want.a);
    if (got.a != want.a) fixes.push_back(fix(l.a, got.a, want.a));
    if (got.b != want.b) fixes.push_back(fix(l.b, got.b, want.b));
  } else {
    // Each end may follow its own profile and still disagree: the intent itself is inconsistent.
    m += "; the profiles disagree: " + l.a.name + " should have " + noun(want.a) + ", " + l.b.name + " " +
         noun(want.b);
    fixes.push_back("make the profiles of " + l.a.device.name + " and " + l.b.device.name + " agree on " +
                    std::string(topic) + ", then apply both");
  }
  return Finding{m, hint_of(fixes)};
}

/// For a condition each listed end must meet on its own: `bad(e)` says what is wrong with an end
/// ("leaf1:Ethernet0 has no PFC watchdog") or nothing; `fix(e)` is the hint for it.
template <class Bad, class Fix>
std::optional<Finding> each_end(const Link& l, const Ends& ends, std::string_view what, Bad bad, Fix fix) {
  std::vector<std::string> said, fixes;
  for (const End* e : ends) {
    if (std::optional<std::string> s = bad(*e)) {
      said.push_back(*s);
      fixes.push_back(fix(*e));
    }
  }
  if (said.empty()) return std::nullopt;
  return Finding{std::string(what) + " between " + l.a.name + " and " + l.b.name + ": " + join(said, "; "),
                 hint_of(fixes)};
}

// ---- the rule table and the shared driver

struct LinkRule {
  std::string_view id;
  Severity severity;
  std::string_view summary;
  std::string_view topic;   // starts every message: "MTU", "PFC", ...
  std::string_view passed;  // completes a pass message: "MTU agrees: ..."
  std::string_view field;   // what an end failed to report: "its MTU"
  bool (*has)(const PortObserved&);
  /// An end's observed value, short; only for an end that has the field.
  std::string (*value)(const Link&, const End&);
  std::string (*expected)(const Link&, const Ends&);
  /// Every end in `ends` reported the field: a finding when they fail the rule.
  std::optional<Finding> (*judge)(const Link&, const Ends&);
  /// The ends the rule applies to; nullptr: both.
  bool (*applies)(const End&);
  /// The pass message of a link where no end needs the rule.
  std::string (*not_required)(const Link&);
};

/// Why an end cannot be compared, or nothing when it reported what the rule needs.
std::optional<std::string> gap(const CheckContext& ctx, const LinkRule& rule, const End& e) {
  if (e.observed) {
    if (rule.has(*e.observed)) return std::nullopt;
    return e.name + " did not report " + std::string(rule.field);
  }
  const std::string& dev = e.device.name;
  if (const auto u = ctx.observed.unreadable.find(dev); u != ctx.observed.unreadable.end())
    return dev + " could not be read (" + u->second.substr(0, u->second.find('\n')) + ")";
  if (!ctx.device(dev)) return dev + " has no observed state";
  return dev + " reported no port " + e.port.name;
}

Result evaluate(const CheckContext& ctx, const LinkRule& rule, const LinkEnds& le) {
  const Link l{make_end(ctx, *le.a_device, *le.a), make_end(ctx, *le.b_device, *le.b)};
  Result r;
  r.check = std::string(rule.id);
  r.severity = rule.severity;
  r.a = l.a.endpoint;
  r.b = l.b.endpoint;

  Ends ends;
  for (const End* e : {&l.a, &l.b})
    if (!rule.applies || rule.applies(*e)) ends.push_back(e);
  if (ends.empty()) {
    r.expected = "not required";
    r.message = rule.not_required(l);
    return r;
  }
  r.expected = rule.expected(l, ends);

  std::vector<std::string> gaps, values;
  for (const End* e : ends) {
    std::optional<std::string> g = gap(ctx, rule, *e);
    values.push_back(e->name + "=" + (g ? "unknown" : rule.value(l, *e)));
    if (g) gaps.push_back(*g);
  }
  r.observed = join(values, ", ");
  const std::string topic(rule.topic);
  if (!gaps.empty()) {
    r.status = Status::missing;
    r.message = topic + " not compared between " + l.a.name + " and " + l.b.name + ": " + join(gaps, "; ");
  } else if (std::optional<Finding> f = rule.judge(l, ends)) {
    r.status = Status::fail;
    r.message = std::move(f->message);
    r.hint = std::move(f->hint);
  } else {
    r.message = topic + " " + std::string(rule.passed) + ": " + r.observed;
  }
  return r;
}

template <const LinkRule& R>
void run(const CheckContext& ctx, std::vector<Result>& out) {
  for (const LinkEnds& le : ctx.links) out.push_back(evaluate(ctx, R, le));
}

template <const LinkRule& R>
Check check_of() {
  return {R.id, R.severity, R.summary, &run<R>};
}

// ---- link.mtu.mismatch

std::string mtu_fix(const End& e, int mtu) {
  const std::string p = e.port.name, v = std::to_string(mtu);
  return fix_for("set the MTU of " + e.name + " to " + v, e,
                 {{Platform::linux_host, "ip link set dev " + p + " mtu " + v},
                  {Platform::sonic, "config interface mtu " + p + " " + v},
                  {Platform::eos, "interface " + p + ", mtu " + v},
                  {Platform::nvue, "nv set interface " + p + " link mtu " + v}});
}

std::string roce_mtu_text(int netdev_mtu) {
  const int m = roce_mtu_for(netdev_mtu);
  return m > 0 ? std::to_string(m) : "none";
}

std::optional<Finding> judge_mtu(const Link& l, const Ends&) {
  if (!l.host_switch())
    return agree(
        l, "MTU", Both<int>{*l.a.obs().mtu, *l.b.obs().mtu}, Both<int>{l.a.port.mtu, l.b.port.mtu},
        [](int v) { return "MTU " + std::to_string(v); }, [](int v) { return "is at MTU " + std::to_string(v); },
        [](const End& e, int, int want) { return mtu_fix(e, want); });

  // Host end: exactly the profile's MTU; switch end: at least that, so no host frame is dropped.
  const End& h = l.host();
  const End& s = l.other(h);
  const int want = h.port.mtu, host_mtu = *h.obs().mtu, switch_mtu = *s.obs().mtu;
  const bool host_bad = host_mtu != want, switch_bad = switch_mtu < want;
  if (!host_bad && !switch_bad) return std::nullopt;
  std::vector<std::string> said, fixes;
  std::string host_said = h.name + " is at MTU " + std::to_string(host_mtu);
  if (host_bad) {
    host_said += ", the profile wants " + std::to_string(want);
    if (roce_mtu_for(host_mtu) < roce_mtu_for(want))
      host_said += " (RoCE path MTU " + roce_mtu_text(host_mtu) + " instead of " + roce_mtu_text(want) + ")";
    fixes.push_back(mtu_fix(h, want));
  }
  said.push_back(host_said);
  std::string switch_said = s.name + " is at MTU " + std::to_string(switch_mtu);
  if (switch_bad) {
    switch_said += ", below the host MTU " + std::to_string(want);
    fixes.push_back(mtu_fix(s, std::max(s.port.mtu, want)));
  }
  said.push_back(switch_said);
  return Finding{"MTU mismatch: " + join(said, "; "), hint_of(fixes)};
}

std::string mtu_expected(const Link& l, const Ends&) {
  if (!l.host_switch()) return on_both(l, std::to_string(l.a.port.mtu), std::to_string(l.b.port.mtu));
  const std::string h = std::to_string(l.host().port.mtu);
  return "host " + h + ", switch >= " + h;
}

constexpr LinkRule kMtu{
    "link.mtu.mismatch",
    Severity::error,
    "host MTU equals the profile's and its switch port's is at least that; switch-switch ends are equal",
    "MTU",
    "agrees",
    "its MTU",
    [](const PortObserved& o) { return o.mtu.has_value(); },
    [](const Link&, const End& e) { return std::to_string(*e.obs().mtu); },
    mtu_expected,
    judge_mtu,
    nullptr,
    nullptr,
};

// ---- link.pfc.mismatch

using PrioritySet = std::array<bool, kPriorities>;

std::string lossless_noun(const PrioritySet& s) {
  const std::string list = format_priorities(s);
  if (list == "none") return "no lossless priority";
  return (list.find(',') == std::string::npos ? "priority " : "priorities ") + list + " lossless";
}

std::string lossless_phrase(const PrioritySet& s) {
  return format_priorities(s) == "none" ? std::string("has none") : "has " + lossless_noun(s);
}

std::string pfc_fix(const End& e, const PrioritySet& got, const PrioritySet& want) {
  std::vector<int> on, off;
  for (int p = 0; p < kPriorities; ++p) {
    const auto i = static_cast<size_t>(p);
    if (want[i] && !got[i]) on.push_back(p);
    if (got[i] && !want[i]) off.push_back(p);
  }
  std::string action;
  if (!on.empty()) action = "enable PFC for " + priority_list(on);
  if (!off.empty()) action += (action.empty() ? "disable PFC for " : " and disable it for ") + priority_list(off);
  action += " on " + e.name;

  const std::string& port = e.port.name;
  std::vector<std::string> dcb, sonic, eos;
  if (!on.empty()) eos.push_back("priority-flow-control on");
  for (const auto& [list, state] : {std::pair{&on, "on"}, std::pair{&off, "off"}}) {
    for (int p : *list) {
      const std::string n = std::to_string(p);
      dcb.push_back(n + ":" + state);
      sonic.push_back("config interface pfc priority " + port + " " + n + " " + state);
      eos.push_back((list == &off ? "no " : "") + std::string("priority-flow-control priority ") + n + " no-drop");
    }
  }
  const std::string want_list = format_priorities(want);
  return fix_for(action, e,
                 {{Platform::linux_host, "dcb pfc set dev " + port + " prio-pfc " + join(dcb, " ")},
                  {Platform::sonic, join(sonic, "; ")},
                  {Platform::eos, "interface " + port + ", " + join(eos, ", ")},
                  {Platform::nvue, want_list == "none" ? "nv unset qos pfc default-global"
                                                       : "nv set qos pfc default-global switch-priority " + want_list}});
}

constexpr LinkRule kPfc{
    "link.pfc.mismatch",
    Severity::error,
    "both ends have the profile's lossless (PFC) priority set",
    "PFC",
    "agrees",
    "its PFC priorities",
    [](const PortObserved& o) { return o.lossless.has_value(); },
    [](const Link&, const End& e) { return format_priorities(*e.obs().lossless); },
    [](const Link& l, const Ends&) {
      return on_both(l, "lossless " + format_priorities(l.a.qos().lossless),
                     "lossless " + format_priorities(l.b.qos().lossless));
    },
    [](const Link& l, const Ends&) {
      return agree(l, "PFC", Both<PrioritySet>{*l.a.obs().lossless, *l.b.obs().lossless},
                   Both<PrioritySet>{l.a.qos().lossless, l.b.qos().lossless}, lossless_noun, lossless_phrase,
                   pfc_fix);
    },
    nullptr,
    nullptr,
};

// ---- DSCP values on the wire (trust and DSCP checks)

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

// ---- link.trust.mismatch

std::string trust_fix(const End& e, Trust, Trust want) {
  const std::string& port = e.port.name;
  const bool dscp = want == Trust::dscp;
  const QosIntent& q = e.qos();
  // mlx5 trusts DSCP from the first DSCP app entry on and PCP again once the last one is gone.
  const std::array<int, 2> dscps{q.roce_dscp, q.cnp_dscp};
  const DscpPriorities prios = dscp_priorities(q.dscp_to_priority, dscps);
  std::vector<std::string> entries;
  for (size_t i = 0; i < dscps.size(); ++i)
    entries.push_back(std::to_string(dscps[i]) + ":" + std::to_string(prios[i]));
  const std::string app = "dcb app replace dev " + port + " dscp-prio " + join(entries, " ");
  return fix_for("set trust " + std::string(to_string(want)) + " on " + e.name, e,
                 {{Platform::linux_host, dscp ? app : "dcb app flush dev " + port + " dscp-prio"},
                  {Platform::sonic, dscp ? "bind dscp_to_tc_map in PORT_QOS_MAP|" + port
                                         : "bind dot1p_to_tc_map in PORT_QOS_MAP|" + port},
                  {Platform::eos, "interface " + port + ", qos trust " + (dscp ? "dscp" : "cos")},
                  {Platform::nvue, std::string("nv set qos mapping default-global trust ") + (dscp ? "l3" : "l2")}});
}

constexpr LinkRule kTrust{
    "link.trust.mismatch",
    Severity::error,
    "both ends trust what the profile says (DSCP or PCP)",
    "Trust",
    "agrees",
    "its trust mode",
    [](const PortObserved& o) { return o.trust.has_value(); },
    [](const Link&, const End& e) { return std::string(to_string(*e.obs().trust)); },
    [](const Link& l, const Ends&) {
      return on_both(l, "trust " + std::string(to_string(l.a.qos().trust)),
                     "trust " + std::string(to_string(l.b.qos().trust)));
    },
    [](const Link& l, const Ends&) {
      return agree(
          l, "Trust", Both<Trust>{*l.a.obs().trust, *l.b.obs().trust}, Both<Trust>{l.a.qos().trust, l.b.qos().trust},
          [](Trust t) { return "trust " + std::string(to_string(t)); },
          [](Trust t) { return "trusts " + std::string(to_string(t)); }, trust_fix);
    },
    nullptr,
    nullptr,
};

// ---- link.dscp.mismatch

std::string dscp_fix(const End& e, const std::array<int, 2>& dscps, const DscpPriorities& got,
                     const DscpPriorities& want) {
  std::vector<std::string> said, dcb, sonic, eos, nvue;
  for (size_t i = 0; i < dscps.size(); ++i) {
    if (got[i] == want[i]) continue;
    const std::string d = std::to_string(dscps[i]), p = std::to_string(want[i]);
    said.push_back("DSCP " + d + " to priority " + p);
    dcb.push_back(d + ":" + p);
    sonic.push_back("\"" + d + "\": \"" + p + "\"");
    eos.push_back("qos map dscp " + d + " to traffic-class " + p);
    nvue.push_back("nv set qos mapping default-global dscp " + d + " switch-priority " + p);
  }
  const std::string& port = e.port.name;
  return fix_for("map " + join(said, " and ") + " on " + e.name, e,
                 {{Platform::linux_host, "dcb app replace dev " + port + " dscp-prio " + join(dcb, " ")},
                  {Platform::sonic, "set " + join(sonic, ", ") + " in the DSCP_TO_TC_MAP bound to " + port},
                  {Platform::eos, join(eos, "; ")},
                  {Platform::nvue, join(nvue, "; ")}});
}

std::optional<Finding> judge_dscp(const Link& l, const Ends&) {
  const std::array<int, 2> dscps = link_dscps(l);
  const auto of = [&](const DscpMap& m) { return dscp_priorities(m, dscps); };
  return agree(
      l, "DSCP map", Both<DscpPriorities>{of(*l.a.obs().dscp_to_priority), of(*l.b.obs().dscp_to_priority)},
      Both<DscpPriorities>{of(l.a.qos().dscp_to_priority), of(l.b.qos().dscp_to_priority)},
      [&](const DscpPriorities& p) { return "DSCP " + dscp_text(dscps, p); },
      [&](const DscpPriorities& p) { return "maps DSCP " + dscp_text(dscps, p); },
      [&](const End& e, const DscpPriorities& got, const DscpPriorities& want) {
        return dscp_fix(e, dscps, got, want);
      });
}

constexpr LinkRule kDscp{
    "link.dscp.mismatch",
    Severity::error,
    "the RoCE and CNP DSCP values map to the profile's priorities on both ends",
    "DSCP map",
    "agrees",
    "its DSCP map",
    [](const PortObserved& o) { return o.dscp_to_priority.has_value(); },
    [](const Link& l, const End& e) {
      return dscp_text(link_dscps(l), dscp_priorities(*e.obs().dscp_to_priority, link_dscps(l)));
    },
    [](const Link& l, const Ends&) {
      const std::array<int, 2> d = link_dscps(l);
      return on_both(l, dscp_text(d, dscp_priorities(l.a.qos().dscp_to_priority, d)),
                     dscp_text(d, dscp_priorities(l.b.qos().dscp_to_priority, d)));
    },
    judge_dscp,
    // Under PCP trust the DSCP map classifies nothing; port.trust.drift covers the trust mode.
    [](const End& e) { return e.qos().trust == Trust::dscp; },
    [](const Link&) { return std::string("DSCP map not used: the profile trusts PCP"); },
};

// ---- link.ecn.missing

/// The egress traffic class RoCE traffic uses on a switch end, by its intent; -1 if undefined.
int roce_tc(const End& e) {
  const QosIntent& q = e.qos();
  return valid_priority(q.roce_priority) ? q.priority_to_tc[static_cast<size_t>(q.roce_priority)] : -1;
}

/// "TC3", "TC0,3" or "none": the traffic classes an end marks.
std::string ecn_value(const Link&, const End& e) {
  std::vector<std::string> tcs;
  for (const EcnQueue& q : *e.obs().ecn) tcs.push_back(std::to_string(q.tc));
  return tcs.empty() ? "none" : "TC" + join(tcs, ",");
}

std::string ecn_fix(const End& e) {
  const std::string tc = std::to_string(roce_tc(e)), &port = e.port.name;
  return fix_for(
      "enable ECN marking on TC" + tc + " of " + e.name, e,
      {{Platform::sonic, "give QUEUE|" + port + "|" + tc + " a WRED_PROFILE with ecn ecn_all and wred_green_enable true"},
       {Platform::nvue, "nv set qos congestion-control default-global traffic-class " + tc + " ecn enable"}});
}

std::optional<Finding> judge_ecn(const Link& l, const Ends& ends) {
  return each_end(
      l, ends, "ECN missing",
      [&](const End& e) -> std::optional<std::string> {
        const int tc = roce_tc(e);
        for (const EcnQueue& q : *e.obs().ecn)
          if (q.tc == tc) return std::nullopt;
        return e.name + " does not ECN-mark TC" + std::to_string(tc) + ", the RoCE queue (marks " +
               ecn_value(l, e) + ")";
      },
      ecn_fix);
}

constexpr LinkRule kEcn{
    "link.ecn.missing",
    Severity::error,
    "each switch end ECN-marks the RoCE traffic class when the profile enables ECN",
    "ECN",
    "marked",
    "its ECN queues",
    [](const PortObserved& o) { return o.ecn.has_value(); },
    ecn_value,
    [](const Link&, const Ends& ends) {
      return at_ends(ends, [](const End& e) { return "ECN on TC" + std::to_string(roce_tc(e)); });
    },
    judge_ecn,
    [](const End& e) { return !e.is_host() && e.qos().ecn_enabled; },
    [](const Link&) { return std::string("ECN not required by profile"); },
};

// ---- link.dcqcn.missing

std::string dcqcn_value(const Link&, const End& e) {
  const DcqcnObserved& d = *e.obs().dcqcn;
  return "RP " + format_priorities(d.rp_enabled) + " NP " + format_priorities(d.np_enabled);
}

/// Which DCQCN points are off on the RoCE priority: "reaction point", "notification point", both, or "".
std::string dcqcn_off(const End& e) {
  const int p = e.qos().roce_priority;
  const DcqcnObserved& d = *e.obs().dcqcn;
  const bool rp = valid_priority(p) && d.rp_enabled[static_cast<size_t>(p)];
  const bool np = valid_priority(p) && d.np_enabled[static_cast<size_t>(p)];
  if (!rp && !np) return "reaction and notification points";
  if (!rp) return "reaction point";
  if (!np) return "notification point";
  return "";
}

std::string dcqcn_fix(const End& e) {
  const std::string p = std::to_string(e.qos().roce_priority), off = dcqcn_off(e);
  std::vector<std::string> writes;
  for (const auto& [point, name] : {std::pair{"rp", "reaction"}, std::pair{"np", "notification"}})
    if (off.find(name) != std::string::npos)
      writes.push_back("echo 1 > /sys/class/net/" + e.port.name + "/ecn/roce_" + point + "/enable/" + p);
  return fix_for("enable the DCQCN " + off + " for priority " + p + " on " + e.name, e,
                 {{Platform::linux_host, join(writes, "; ")}});
}

std::optional<Finding> judge_dcqcn(const Link& l, const Ends& ends) {
  return each_end(
      l, ends, "DCQCN off",
      [&](const End& e) -> std::optional<std::string> {
        const std::string off = dcqcn_off(e);
        if (off.empty()) return std::nullopt;
        return e.name + " has no DCQCN " + off + " on priority " + std::to_string(e.qos().roce_priority) + " (" +
               dcqcn_value(l, e) + ")";
      },
      dcqcn_fix);
}

constexpr LinkRule kDcqcn{
    "link.dcqcn.missing",
    Severity::error,
    "the host end has the DCQCN reaction and notification points on the RoCE priority when the profile asks",
    "DCQCN",
    "on",
    "its DCQCN state",
    [](const PortObserved& o) { return o.dcqcn.has_value(); },
    dcqcn_value,
    [](const Link&, const Ends& ends) {
      return at_ends(ends,
                     [](const End& e) { return "RP and NP on priority " + std::to_string(e.qos().roce_priority); });
    },
    judge_dcqcn,
    [](const End& e) { return e.is_host() && e.qos().dcqcn.enabled; },
    [](const Link& l) {
      return std::string(l.a.is_host() || l.b.is_host() ? "DCQCN not required by profile"
                                                        : "DCQCN not applicable between switches");
    },
};

// ---- link.watchdog.missing

std::string watchdog_fix(const End& e) {
  const Watchdog& w = e.qos().watchdog;
  const std::string& port = e.port.name;
  return fix_for("enable the PFC watchdog on " + e.name, e,
                 {{Platform::sonic, "config pfcwd start --action " + std::string(to_string(w.action)) +
                                        " --restoration-time " + std::to_string(w.restoration_ms) + " " + port +
                                        " " + std::to_string(w.detection_ms)},
                  {Platform::eos, "interface " + port + ", priority-flow-control pause watchdog"},
                  {Platform::nvue, "nv set interface " + port + " qos pfc-watchdog"}});
}

constexpr LinkRule kWatchdog{
    "link.watchdog.missing",
    Severity::warning,
    "each switch end with PFC runs the PFC watchdog when the profile enables it",
    "PFC watchdog",
    "on",
    "its PFC watchdog",
    [](const PortObserved& o) { return o.watchdog.has_value(); },
    [](const Link&, const End& e) { return std::string(e.obs().watchdog->enabled ? "on" : "off"); },
    [](const Link&, const Ends& ends) { return at_ends(ends, [](const End&) { return std::string("watchdog on"); }); },
    [](const Link& l, const Ends& ends) {
      return each_end(
          l, ends, "PFC watchdog off",
          [](const End& e) -> std::optional<std::string> {
            if (e.obs().watchdog->enabled) return std::nullopt;
            return e.name + " has no PFC watchdog";
          },
          watchdog_fix);
    },
    // The watchdog guards lossless queues: a port without PFC has nothing for it to watch.
    [](const End& e) {
      return !e.is_host() && e.qos().watchdog.enabled && !e.qos().lossless_priorities().empty();
    },
    [](const Link&) { return std::string("PFC watchdog not required by profile"); },
};

// ---- link.speed.mismatch

/// Each end's expected speed; an end without one takes its peer's, since both must be equal.
Both<std::optional<int>> speed_wants(const Link& l) {
  const std::optional<int> a = l.a.port.speed_mbps ? l.a.port.speed_mbps : l.b.port.speed_mbps;
  const std::optional<int> b = l.b.port.speed_mbps ? l.b.port.speed_mbps : l.a.port.speed_mbps;
  return {a, b};
}

std::string speed_text(const std::optional<int>& v) { return v ? format_mbps(*v) : "any"; }

std::string speed_fix(const End& e, int mbps) {
  const std::string& port = e.port.name;
  return fix_for("bring " + e.name + " to " + format_mbps(mbps) + ": check its optic, cable and autonegotiation", e,
                 {{Platform::linux_host, "ethtool " + port},
                  {Platform::sonic, "config interface speed " + port + " " + std::to_string(mbps)},
                  {Platform::nvue, "nv set interface " + port + " link speed " + format_mbps(mbps)}});
}

std::optional<Finding> judge_speed(const Link& l, const Ends&) {
  const Both<int> got{*l.a.obs().speed_mbps, *l.b.obs().speed_mbps};
  const Both<std::optional<int>> want = speed_wants(l);
  const bool a_ok = !want.a || got.a == *want.a, b_ok = !want.b || got.b == *want.b;
  if (got.a == got.b && a_ok && b_ok) return std::nullopt;

  std::string expected;
  if (want.a && want.a == want.b)
    expected = ", expected " + format_mbps(*want.a);
  else if (want.a)
    expected = ", expected " + format_mbps(*want.a) + " at " + l.a.name + " and " + format_mbps(*want.b) + " at " +
               l.b.name;
  std::string m = "Speed mismatch: ";
  std::vector<std::string> fixes;
  if (got.a == got.b) {
    m += l.a.name + " and " + l.b.name + " both run at " + format_mbps(got.a) + expected;
  } else {
    const bool a_slow = got.a < got.b;
    const End& slow = a_slow ? l.a : l.b;
    const End& fast = a_slow ? l.b : l.a;
    // The slow end is the culprit unless it runs at the expected speed and its peer exceeds it.
    const bool slow_ok = want.a && (a_slow ? a_ok : b_ok);
    m += l.a.name + " runs at " + format_mbps(got.a) + ", " + l.b.name + " at " + format_mbps(got.b) + expected +
         (slow_ok ? ": " + fast.name + " runs faster than expected" : ": the slow end is " + slow.name);
    // Without any expected speed the slow end is the one to bring up to its peer.
    if (!want.a) fixes.push_back(speed_fix(slow, std::max(got.a, got.b)));
  }
  if (!a_ok) fixes.push_back(speed_fix(l.a, *want.a));
  if (!b_ok) fixes.push_back(speed_fix(l.b, *want.b));
  return Finding{m, hint_of(fixes)};
}

constexpr LinkRule kSpeed{
    "link.speed.mismatch",
    Severity::error,
    "both ends run at the same speed, the expected one",
    "Speed",
    "agrees",
    "its speed",
    [](const PortObserved& o) { return o.speed_mbps.has_value(); },
    [](const Link&, const End& e) { return format_mbps(*e.obs().speed_mbps); },
    [](const Link& l, const Ends&) {
      const Both<std::optional<int>> w = speed_wants(l);
      return w.a ? on_both(l, speed_text(w.a), speed_text(w.b)) : std::string("equal on both ends");
    },
    judge_speed,
    nullptr,
    nullptr,
};

// ---- link.oper.down

std::string oper_fix(const End& e) {
  const std::string& port = e.port.name;
  return fix_for("bring up " + e.name + ": check the cable, the optics and that it is admin up", e,
                 {{Platform::linux_host, "ip link set dev " + port + " up"},
                  {Platform::sonic, "config interface startup " + port},
                  {Platform::eos, "interface " + port + ", no shutdown"},
                  {Platform::nvue, "nv set interface " + port + " link state up"}});
}

constexpr LinkRule kOper{
    "link.oper.down",
    Severity::error,
    "both ends are operationally up",
    "Link",
    "up",
    "its link state",
    [](const PortObserved& o) { return o.oper_up.has_value(); },
    [](const Link&, const End& e) { return std::string(*e.obs().oper_up ? "up" : "down"); },
    [](const Link& l, const Ends&) { return on_both(l, "up", "up"); },
    [](const Link& l, const Ends& ends) {
      return each_end(
          l, ends, "Link down",
          [](const End& e) -> std::optional<std::string> {
            if (*e.obs().oper_up) return std::nullopt;
            return e.name + " is down";
          },
          oper_fix);
    },
    nullptr,
    nullptr,
};

}  // namespace

std::vector<Check> link_checks() {
  return {check_of<kMtu>(),   check_of<kPfc>(),      check_of<kTrust>(), check_of<kDscp>(), check_of<kEcn>(),
          check_of<kDcqcn>(), check_of<kWatchdog>(), check_of<kSpeed>(), check_of<kOper>()};
}

}  // namespace fabricctl
