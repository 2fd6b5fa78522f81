// link.roce.class, link.cnp.class: a packet class followed across each host-switch link, judged on what
// the two ends really do, not each end against its profile. RoCE must land in the same lossless priority
// on both ends whichever DSCP it carries: the DSCPs the host's RoCE leaves with (NCCL's and rdma_cm's,
// the driver's traffic class override winning over both), and the fabric's RoCE DSCP, which the switch
// forwards to the host. Only then does a pause from either end stop the queue the packet is in. CNPs
// must land in the CNP priority: those the NIC sends on the switch end, those it receives on the NIC.
// When a drift of an end, or the host's NCCL defaults, explains a wrong landing, the result is a
// consequence naming that finding; when no end drifted, the profiles of the two ends disagree.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/text.h"
#include "verify/checks/checks.h"
#include "verify/checks/link_compare.h"

namespace fabricctl {
namespace {

using namespace link_compare;

size_t at(int i) { return static_cast<size_t>(i); }

std::string num(int v) { return std::to_string(v); }

/// A RoCE DSCP on a host link and who puts it there: the host's senders, the fabric towards the host.
struct Marking {
  int dscp = 0;
  std::vector<std::string> senders;  // "NCCL", "rdma_cm": the host's traffic that leaves with it
  bool to_host = false;              // the fabric's RoCE DSCP, forwarded to the host
  std::string cause;                 // the finding that explains a DSCP other than the intended one

  /// "RoCE with DSCP 0 from NCCL on host1:eth0", "... both ways (from NCCL and rdma_cm on host1:eth0)".
  [[nodiscard]] std::string label(const std::string& host) const {
    std::string s = "RoCE with DSCP " + std::to_string(dscp);
    const std::string from = join(senders, " and ") + " on " + host;
    if (senders.empty()) return s + " to " + host;
    return to_host ? s + " both ways (from " + from + ")" : s + " from " + from;
  }
};

/// Adds a sender (or, with an empty `sender`, the fabric towards the host) of `dscp`.
void add_marking(std::vector<Marking>& out, int dscp, std::string_view sender, std::string cause) {
  auto it = std::find_if(out.begin(), out.end(), [&](const Marking& m) { return m.dscp == dscp; });
  if (it == out.end()) it = out.insert(out.end(), Marking{dscp, {}, false, {}});
  if (sender.empty()) it->to_host = true;
  else it->senders.emplace_back(sender);
  if (it->cause.empty()) it->cause = std::move(cause);
}

/// The driver's traffic class override of a host port, when one is set.
std::optional<int> tos_override(const PortObserved& p) {
  if (p.rdma && p.rdma->tos_override && *p.rdma->tos_override != kNoTosOverride) return p.rdma->tos_override;
  return std::nullopt;
}

/// The ToS a host port's queue pairs of one kind leave with: the driver's override when one is set,
/// else `own` (NCCL's traffic class, rdma_cm's default); nullopt when neither was collected.
std::optional<int> effective_tos(const PortObserved& p, std::optional<int> own) {
  if (const std::optional<int> o = tos_override(p)) return o;
  return own;
}

/// The RoCE markings on a host-switch link: what the host's NCCL and rdma_cm traffic leaves with, then
/// the fabric's RoCE DSCP that the switch forwards to the host. A host end that was not observed (its
/// device or port unreadable) has no markings of its own: only the fabric's is known.
std::vector<Marking> roce_markings(const Link& l) {
  const End& h = l.host();
  const End& s = l.other(h);
  std::vector<Marking> out;
  if (h.observed) {
    const int want = h.qos().roce_tos();
    const PortObserved& p = *h.observed;
    const bool override_set = tos_override(p).has_value();
    const std::string tos_cause = "rdma.tos.drift " + h.name();
    std::optional<int> nccl_own;
    if (h.device_observed && h.device_observed->nccl) nccl_own = h.device_observed->nccl->traffic_class.value_or(0);
    if (const std::optional<int> tos = effective_tos(p, nccl_own))
      add_marking(out, *tos >> 2, "NCCL",
                  *tos == want   ? ""
                  : override_set ? tos_cause
                                 : "nccl.tc.lossy " + h.device.name);
    if (const std::optional<int> tos = effective_tos(p, p.rdma ? p.rdma->cm_tos : std::nullopt))
      add_marking(out, *tos >> 2, "rdma_cm", *tos == want ? "" : tos_cause);
  }
  add_marking(out, s.qos().roce_dscp, "", "");
  return out;
}

std::string lossless_word(const End& e, int prio) { return e.obs().lossless->at(at(prio)) ? "lossless" : "lossy"; }

/// The end, switch first, whose DSCP map puts `dscp` elsewhere than its intent: "port.dscp.drift <end>",
/// or empty when both map it as intended.
std::string dscp_drift(const Link& l, int dscp) {
  for (const End* e : {&l.other(l.host()), &l.host()})
    if (e->obs().dscp_to_priority->at(at(dscp)) != e->qos().dscp_to_priority[at(dscp)])
      return "port.dscp.drift " + e->name();
  return "";
}

/// The end, switch first, whose lossless set differs from its intent on the priority `dscp` lands in
/// there: "port.pfc.drift <end>", or empty.
std::string pfc_drift(const Link& l, int dscp) {
  for (const End* e : {&l.other(l.host()), &l.host()}) {
    const int prio = e->obs().dscp_to_priority->at(at(dscp));
    if (e->obs().lossless->at(at(prio)) != e->qos().lossless[at(prio)]) return "port.pfc.drift " + e->name();
  }
  return "";
}

/// A link whose ends classify by something else than DSCP: the trust finding explains any landing.
std::optional<Outcome> not_by_dscp(const Link& l, std::string_view what) {
  for (const End* e : {&l.host(), &l.other(l.host())}) {
    if (*e->obs().trust == Trust::dscp) continue;
    Outcome o;
    o.message = e->name() + " trusts " + std::string(to_string(*e->obs().trust)) + ": the DSCP of " +
                std::string(what) + " does not classify it there";
    o.cause = "port.trust.drift " + e->name();
    return o;
  }
  return std::nullopt;
}

/// The outcome of a rule that found `problems` (none: a pass). Ends that were not as intended, named
/// in `o.cause`, explain them; with no cause, the two profiles disagree.
std::optional<Outcome> outcome(const Link& l, Outcome o, const std::vector<std::string>& problems) {
  if (problems.empty()) return std::nullopt;
  o.message = join(problems, "; ");
  if (o.cause.empty()) o.message += profiles_disagree(l, "the RoCE classes");
  return o;
}

bool host_switch_dscp(const Link& l) {
  return l.host_switch() && l.a.qos().trust == Trust::dscp && l.b.qos().trust == Trust::dscp;
}

bool has_classes(const PortObserved& o) { return o.dscp_to_priority && o.lossless && o.trust; }

// ---- link.roce.class

std::optional<Outcome> judge_roce(const Link& l) {
  if (auto o = not_by_dscp(l, "RoCE")) return o;
  const End& h = l.host();
  const End& s = l.other(h);
  Outcome o;
  std::vector<std::string> problems;
  for (const Marking& m : roce_markings(l)) {
    const int sp = s.obs().dscp_to_priority->at(at(m.dscp));
    const int hp = h.obs().dscp_to_priority->at(at(m.dscp));
    const bool s_lossless = s.obs().lossless->at(at(sp)), h_lossless = h.obs().lossless->at(at(hp));
    if (s_lossless && h_lossless && sp == hp) continue;
    const std::string what = m.label(h.name());
    if (!s_lossless) problems.push_back(what + " lands in lossy priority " + num(sp) + " on " + s.name());
    else if (!h_lossless)
      problems.push_back(what + " is in lossy priority " + num(hp) + " on " + h.name() + ": the NIC neither pauses " +
                         s.name() + " for it nor stops when paused");
    else
      problems.push_back(what + " lands in priority " + num(sp) + " on " + s.name() + " but in priority " + num(hp) +
                         " on " + h.name() + ": each end's pauses stop the wrong queue of the other");
    // The sender's marking first, then a DSCP map, then a lossless set that differs from its intent.
    if (o.cause.empty()) o.cause = m.cause;
    if (o.cause.empty()) o.cause = dscp_drift(l, m.dscp);
    if (o.cause.empty()) o.cause = pfc_drift(l, m.dscp);
  }
  return outcome(l, std::move(o), problems);
}

constexpr LinkRule kRoce{
    "link.roce.class",
    Severity::error,
    "RoCE lands in the same lossless priority on both ends of a host link, whatever DSCP it carries: NCCL's, "
    "rdma_cm's and the fabric's",
    "RoCE classes",
    "its DSCP map, PFC priorities and trust mode",
    has_classes,
    [](const Link& l, const End& e) {
      std::vector<std::string> parts;
      for (const Marking& m : roce_markings(l)) {
        const int prio = e.obs().dscp_to_priority->at(at(m.dscp));
        parts.push_back(num(m.dscp) + "->" + num(prio) + " " + lossless_word(e, prio));
      }
      return join(parts, ", ");
    },
    [](const Link& l) {
      const QosIntent& q = l.host().qos();
      return "DSCP " + num(q.roce_dscp) + " -> lossless priority " + num(q.roce_priority) + " on both ends";
    },
    judge_roce,
    [](const Link& l) { return host_switch_dscp(l) && !l.host().port.rdma_device.empty(); },
};

// ---- link.cnp.class

std::optional<Outcome> judge_cnp(const Link& l) {
  if (auto o = not_by_dscp(l, "CNPs")) return o;
  const End& h = l.host();
  const End& s = l.other(h);
  Outcome o;
  std::vector<std::string> problems;
  // Those the NIC sends, on the switch end; then those the switch forwards to it (the fabric's CNP
  // DSCP), on the NIC.
  struct Leg {
    const End& sender;
    const End& receiver;
    std::optional<int> dscp;
    std::string users;
    std::string cause;
  };
  const std::optional<int> sent = h.obs().dcqcn ? h.obs().dcqcn->cnp_dscp : std::nullopt;
  const Leg legs[] = {
      {h, s, sent, "CNPs from " + h.name(),
       sent && *sent != h.qos().cnp_dscp ? "port.cnp.drift " + h.name() : std::string()},
      {s, h, s.qos().cnp_dscp, "CNPs to " + h.name(), ""},
  };
  for (const Leg& leg : legs) {
    if (!leg.dscp) continue;  // the NIC's CNP marking was not collected: port.cnp.drift says so
    const int prio = leg.receiver.obs().dscp_to_priority->at(at(*leg.dscp));
    const int want = leg.receiver.qos().cnp_priority;
    if (prio == want) continue;
    problems.push_back(leg.users + " (DSCP " + num(*leg.dscp) + ") land in " + lossless_word(leg.receiver, prio) +
                       " priority " + num(prio) + " on " + leg.receiver.name() + ", not in its CNP priority " +
                       num(want) + ": congestion notifications wait behind the traffic they are about");
    if (o.cause.empty()) o.cause = !leg.cause.empty() ? leg.cause : dscp_drift(l, *leg.dscp);
  }
  return outcome(l, std::move(o), problems);
}

constexpr LinkRule kCnp{
    "link.cnp.class",
    Severity::error,
    "CNPs land in the CNP priority on both ends of a host link: those the NIC sends on the switch, those it "
    "receives on the NIC",
    "CNP classes",
    "its DSCP map, PFC priorities and trust mode",
    has_classes,
    [](const Link& l, const End& e) {
      const int dscp = e.is_host() ? l.other(e).qos().cnp_dscp
                       : l.host().observed && l.host().obs().dcqcn && l.host().obs().dcqcn->cnp_dscp
                           ? *l.host().obs().dcqcn->cnp_dscp
                           : l.host().qos().cnp_dscp;
      return num(dscp) + "->" + num(e.obs().dscp_to_priority->at(at(dscp)));
    },
    [](const Link& l) {
      const QosIntent& q = l.host().qos();
      return "DSCP " + num(q.cnp_dscp) + " -> priority " + num(q.cnp_priority) + " on both ends";
    },
    judge_cnp,
    [](const Link& l) { return host_switch_dscp(l) && l.host().qos().dcqcn.enabled; },
};

}  // namespace

std::vector<Check> path_checks() { return {check_of<kRoce>(), check_of<kCnp>()}; }

}  // namespace fabricctl
