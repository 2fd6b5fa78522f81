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

#include "util/text.h"
#include "verify/checks/checks.h"
#include "verify/checks/link_compare.h"
#include "verify/format.h"

namespace fabricctl {
namespace {

using namespace link_compare;

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
