// port.*: drift of each port from its intent. Every check compares one desired field of a port with the
// same field observed on that port; both ends of a link are compared by the link.* checks instead.
// Each check is one PortRule (port_compare.h): scope, the setting its fix sets, expected text, judgement.
// These are the compared fields, each defined once: link.* adds only what is about two ends.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "util/text.h"
#include "verify/checks/checks.h"
#include "verify/checks/port_compare.h"
#include "verify/format.h"

namespace fabricctl {
namespace {

using namespace port_compare;

size_t at(int i) { return static_cast<size_t>(i); }

std::string num(int v) { return std::to_string(v); }
std::string num(uint64_t v) { return std::to_string(v); }

/// "10" or "6.5": a percentage or a number of seconds without trailing zeros.
std::string decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// Findings stay one line even when a whole map differs: the first few items, then "+N more".
std::string capped(const std::vector<std::string>& items, std::string_view sep = ", ") {
  constexpr size_t kMaxListed = 8;
  if (items.size() <= kMaxListed) return join(items, sep);
  std::vector<std::string> head(items.begin(), items.begin() + kMaxListed);
  return cat(join(head, sep), sep, "+", std::to_string(items.size() - kMaxListed), " more");
}

/// A key -> value map as "24-31->3, 48->6, others->0": the most common value is "others".
template <size_t N>
std::string map_text(const std::array<int, N>& m) {
  std::map<int, std::vector<int>> keys_of;
  for (size_t k = 0; k < N; ++k) keys_of[m[k]].push_back(static_cast<int>(k));
  auto common = keys_of.begin();
  for (auto it = keys_of.begin(); it != keys_of.end(); ++it)
    if (it->second.size() > common->second.size()) common = it;
  std::vector<std::string> parts;
  for (const auto& [value, keys] : keys_of)
    if (value != common->first) parts.push_back(cat(ranges(keys), "->", num(value)));
  parts.push_back(cat(parts.empty() ? "all" : "others", "->", num(common->first)));
  return join(parts, ", ");
}

/// The egress traffic classes of the lossless priorities, ascending.
std::vector<int> lossless_tcs(const QosIntent& q) {
  std::vector<int> tcs;
  for (int p : q.lossless_priorities()) tcs.push_back(q.priority_to_tc[at(p)]);
  std::sort(tcs.begin(), tcs.end());
  tcs.erase(std::unique(tcs.begin(), tcs.end()), tcs.end());
  return tcs;
}

std::string tc_list(const std::vector<int>& tcs) {
  std::vector<std::string> parts;
  for (int tc : tcs) parts.push_back(cat("tc", num(tc)));
  return parts.empty() ? "none" : join(parts, ",");
}

// ---- port.mtu.drift

std::string mtu_expected(const PortView& v) { return num(v.port.mtu); }

Verdict mtu_judge(const PortView& v, const PortObserved& o) {
  return same("MTU", v.port.mtu, o.mtu, [](int m) { return num(m); });
}

constexpr PortRule kMtu{"port.mtu.drift", Severity::error, "port MTU equals the intended MTU", Setting::mtu, any_port,
                        mtu_expected,     mtu_judge};

// ---- port.speed.drift

/// Ports not cabled to another device; a cabled port's speed is judged on its link, both ends at once.
bool uncabled_with_speed(const PortView& v) { return v.port.speed_mbps.has_value() && v.port.peer_device.empty(); }

std::string speed_expected(const PortView& v) { return format_mbps(*v.port.speed_mbps); }

Verdict speed_judge(const PortView& v, const PortObserved& o) {
  if (!o.speed_mbps) return not_collected("speed");
  const int want = *v.port.speed_mbps;
  const int got = *o.speed_mbps;
  std::string seen = format_mbps(got);
  if (got == want) return pass();
  std::string detail =
      cat("speed ", seen, " is ", got < want ? "slower" : "faster", " than the expected ", format_mbps(want));
  return fail(std::move(seen), std::move(detail));
}

constexpr PortRule kSpeed{"port.speed.drift", Severity::error,     "port speed equals the expected speed",
                          Setting::speed,     uncabled_with_speed, speed_expected,
                          speed_judge};

// ---- port.trust.drift

std::string trust_text(Trust t) { return std::string(to_string(t)); }

std::string trust_expected(const PortView& v) { return trust_text(v.qos().trust); }

Verdict trust_judge(const PortView& v, const PortObserved& o) {
  return same("trust mode", v.qos().trust, o.trust, trust_text);
}

constexpr PortRule kTrust{"port.trust.drift", Severity::error, "port trust mode (DSCP or PCP) equals the intent",
                          Setting::trust,     any_port,        trust_expected,
                          trust_judge};

// ---- port.dscp.drift

/// The DSCP map classifies only when the port trusts DSCP.
bool trusts_dscp(const PortView& v) { return v.qos().trust == Trust::dscp; }

std::string dscp_expected(const PortView& v) { return map_text(v.qos().dscp_to_priority); }

Verdict dscp_judge(const PortView& v, const PortObserved& o) {
  if (!o.dscp_to_priority) return not_collected("DSCP map");
  const auto& want = v.qos().dscp_to_priority;
  const auto& got = *o.dscp_to_priority;
  std::vector<int> differing;
  std::vector<std::string> diffs;
  for (int d = 0; d < kDscpValues; ++d) {
    if (got[at(d)] == want[at(d)]) continue;
    differing.push_back(d);
    diffs.push_back(cat(num(d), "->", num(got[at(d)]), " (want ", num(want[at(d)]), ")"));
  }
  if (differing.empty()) return pass();
  std::string seen = capped(diffs);
  return fail(seen, cat("DSCP map differs: ", seen), std::move(differing));
}

constexpr PortRule kDscp{"port.dscp.drift", Severity::error, "DSCP->priority map equals the intent (DSCP trust)",
                         Setting::dscp_map, trusts_dscp,     dscp_expected,
                         dscp_judge};

// ---- port.pfc.drift

std::string pfc_expected(const PortView& v) { return format_priorities(v.qos().lossless); }

Verdict pfc_judge(const PortView& v, const PortObserved& o) {
  Verdict verdict = same("PFC priorities", v.qos().lossless, o.lossless,
                         [](const std::array<bool, kPriorities>& s) { return format_priorities(s); });
  if (verdict.status == Status::fail)
    for (int p = 0; p < kPriorities; ++p)
      if (v.qos().lossless[at(p)] != (*o.lossless)[at(p)]) verdict.keys.push_back(p);
  return verdict;
}

constexpr PortRule kPfc{"port.pfc.drift", Severity::error, "lossless (PFC) priority set equals the intent",
                        Setting::pfc,     any_port,        pfc_expected,
                        pfc_judge};

// ---- port.ets.drift

std::string sched_text(const TcSchedule& s) { return s.strict ? "strict" : cat("ets ", num(s.bandwidth_pct), "%"); }

bool same_sched(const TcSchedule& want, const TcSchedule& got) {
  return want.strict == got.strict && (want.strict || want.bandwidth_pct == got.bandwidth_pct);
}

/// "prio->tc 3->3, 6->6, others->0; tc0 ets 50%, tc3 ets 50%, tc6 strict": the schedules of the TCs
/// the intent uses.
std::string ets_text(const std::array<int, kPriorities>& prio_tc, const std::array<TcSchedule, kTrafficClasses>& tcs,
                     const std::array<TcSchedule, kTrafficClasses>& intent) {
  std::vector<std::string> sched;
  for (int tc = 0; tc < kTrafficClasses; ++tc)
    if (intent[at(tc)].used) sched.push_back(cat("tc", num(tc), " ", sched_text(tcs[at(tc)])));
  return cat("prio->tc ", map_text(prio_tc), "; ", join(sched, ", "));
}

std::string ets_expected(const PortView& v) { return ets_text(v.qos().priority_to_tc, v.qos().tc, v.qos().tc); }

/// Whether traffic can reach priority `p`: with DSCP trust only the priorities some DSCP maps to (a
/// switch may keep another map for a priority nothing is classified into: EOS keeps traffic-class 7 for
/// its own control traffic); with PCP trust every priority, since the sender's PCP picks it.
bool carries_traffic(const QosIntent& q, int p) {
  return q.trust != Trust::dscp ||
         std::find(q.dscp_to_priority.begin(), q.dscp_to_priority.end(), p) != q.dscp_to_priority.end();
}

Verdict ets_judge(const PortView& v, const PortObserved& o) {
  if (!o.priority_to_tc) return not_collected("priority->TC map");
  if (!o.tc) return not_collected("TC scheduling");
  const QosIntent& q = v.qos();
  std::vector<std::string> diffs;
  for (int p = 0; p < kPriorities; ++p)
    if (carries_traffic(q, p) && (*o.priority_to_tc)[at(p)] != q.priority_to_tc[at(p)])
      diffs.push_back(
          cat("prio ", num(p), "->tc ", num((*o.priority_to_tc)[at(p)]), " (want ", num(q.priority_to_tc[at(p)]), ")"));
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& want = q.tc[at(tc)];
    const TcSchedule& got = (*o.tc)[at(tc)];
    if (want.used && !same_sched(want, got))
      diffs.push_back(cat("tc", num(tc), " ", sched_text(got), " (want ", sched_text(want), ")"));
  }
  if (diffs.empty()) return pass();
  return fail(ets_text(*o.priority_to_tc, *o.tc, q.tc), cat("ETS differs: ", capped(diffs)));
}

constexpr PortRule kEts{
    "port.ets.drift", Severity::error, "priority->TC map and TC scheduling (strict/ETS %) equal the intent",
    Setting::ets,     any_port,        ets_expected,
    ets_judge};

// ---- port.ecn.drift

std::string ecn_text(const EcnQueue& e) {
  return cat("tc", num(e.tc), " min ", num(e.min_bytes), " B max ", num(e.max_bytes), " B prob ",
             num(e.probability_pct), "%");
}

const EcnQueue* ecn_queue(const std::vector<EcnQueue>& queues, int tc) {
  for (const EcnQueue& e : queues)
    if (e.tc == tc) return &e;
  return nullptr;
}

/// Switch ASICs program thresholds in buffer cells, so a threshold may differ from intent by up to
/// `pct` percent of the desired value.
bool within(uint64_t got, uint64_t want, double pct) {
  const double diff = std::fabs(static_cast<double>(got) - static_cast<double>(want));
  return diff <= static_cast<double>(want) * pct / 100.0;
}

std::string ecn_expected(const PortView& v) {
  const QosIntent& q = v.qos();
  if (!q.ecn_enabled) return cat("no ECN on lossless ", tc_list(lossless_tcs(q)));
  std::vector<std::string> parts;
  for (const EcnQueue& e : q.ecn) parts.push_back(ecn_text(e));
  return parts.empty() ? "none" : join(parts, "; ");
}

/// ECN enabled in intent: every desired queue marks, thresholds within tolerance, same probability.
Verdict ecn_on_judge(const PortView& v, const std::vector<EcnQueue>& observed) {
  const double tol = v.ctx.tolerance.ecn_threshold_pct;
  const std::string tol_text = cat(" ±", decimal(tol), "%");
  std::vector<std::string> seen, diffs;
  std::vector<int> tcs;
  for (const EcnQueue& want : v.qos().ecn) {
    const std::string tc = cat("tc", num(want.tc));
    const EcnQueue* got = ecn_queue(observed, want.tc);
    const size_t before = diffs.size();
    if (!got) {
      seen.push_back(cat(tc, " off"));
      diffs.push_back(cat(tc, " not ECN-marked"));
      tcs.push_back(want.tc);
      continue;
    }
    seen.push_back(ecn_text(*got));
    if (!within(got->min_bytes, want.min_bytes, tol))
      diffs.push_back(cat(tc, " min ", num(got->min_bytes), " B (want ", num(want.min_bytes), " B", tol_text, ")"));
    if (!within(got->max_bytes, want.max_bytes, tol))
      diffs.push_back(cat(tc, " max ", num(got->max_bytes), " B (want ", num(want.max_bytes), " B", tol_text, ")"));
    if (got->probability_pct != want.probability_pct)
      diffs.push_back(cat(tc, " probability ", num(got->probability_pct), "% (want ", num(want.probability_pct), "%)"));
    if (diffs.size() > before) tcs.push_back(want.tc);
  }
  // A queue that marks though the intent lists it not (NVUE marks TC0 unless told otherwise): the
  // hosts' ECN-capable traffic there is marked as well. Softer than a missing or wrong marking.
  std::vector<std::string> extra;
  for (const EcnQueue& got : observed) {
    if (v.qos().ecn_queue(got.tc)) continue;  // the intent marks it: compared above
    seen.push_back(ecn_text(got));
    extra.push_back(cat("tc", num(got.tc), " marks, which the intent leaves unmarked"));
    tcs.push_back(got.tc);
  }
  if (diffs.empty() && extra.empty()) return pass();
  const bool only_extra = diffs.empty();
  diffs.insert(diffs.end(), extra.begin(), extra.end());
  Verdict verdict = fail(seen.empty() ? "none" : join(seen, "; "), cat("ECN differs: ", capped(diffs)), std::move(tcs));
  if (only_extra) verdict.severity = Severity::warning;
  return verdict;
}

/// ECN disabled in intent: a queue that marks anyway (lossless, or NVUE's default on TC0) is drift, but a
/// softer one.
Verdict ecn_off_judge(const PortView& v, const std::vector<EcnQueue>& observed) {
  const std::vector<int> lossless = lossless_tcs(v.qos());
  std::vector<int> marking;
  bool all_lossless = true;
  for (const EcnQueue& e : observed) {
    marking.push_back(e.tc);
    all_lossless = all_lossless && std::find(lossless.begin(), lossless.end(), e.tc) != lossless.end();
  }
  if (marking.empty()) return pass();
  std::sort(marking.begin(), marking.end());
  Verdict verdict = fail(
      cat("ECN on ", tc_list(marking)),
      cat("ECN marks ", all_lossless ? "lossless " : "", tc_list(marking), " though the intent has ECN off"), marking);
  verdict.severity = Severity::warning;
  return verdict;
}

Verdict ecn_judge(const PortView& v, const PortObserved& o) {
  if (!o.ecn) return not_collected("ECN");
  return v.qos().ecn_enabled ? ecn_on_judge(v, *o.ecn) : ecn_off_judge(v, *o.ecn);
}

constexpr PortRule kEcn{
    "port.ecn.drift", Severity::error, "switch ECN marking per queue equals the intent (thresholds within tolerance)",
    Setting::ecn,     switch_port,     ecn_expected,
    ecn_judge};

// ---- port.watchdog.drift

std::string watchdog_params(const Watchdog& w) {
  return cat("poll ", num(w.poll_interval_ms), " ms, detection ", num(w.detection_ms), " ms, restoration ",
             num(w.restoration_ms), " ms, action ", to_string(w.action));
}

std::string watchdog_text(const Watchdog& w) { return w.enabled ? cat("on, ", watchdog_params(w)) : "off"; }

std::string watchdog_expected(const PortView& v) { return watchdog_text(v.qos().watchdog); }

Verdict watchdog_judge(const PortView& v, const PortObserved& o) {
  if (!o.watchdog) return not_collected("PFC watchdog");
  const Watchdog& want = v.qos().watchdog;
  const Watchdog& got = *o.watchdog;
  std::vector<std::string> diffs;
  if (got.enabled != want.enabled) {
    diffs.push_back(cat(got.enabled ? "on" : "off", " (want ", want.enabled ? "on" : "off", ")"));
  } else if (want.enabled) {
    auto ms = [&](std::string_view name, int g, int w) {
      if (g != w) diffs.push_back(cat(name, " ", num(g), " ms (want ", num(w), " ms)"));
    };
    ms("poll", got.poll_interval_ms, want.poll_interval_ms);
    ms("detection", got.detection_ms, want.detection_ms);
    if (want.restoration_configurable) ms("restoration", got.restoration_ms, want.restoration_ms);
    if (got.action != want.action)
      diffs.push_back(cat("action ", to_string(got.action), " (want ", to_string(want.action), ")"));
  }
  if (diffs.empty()) return pass();
  return fail(watchdog_text(got), cat("PFC watchdog differs: ", join(diffs, ", ")));
}

constexpr PortRule kWatchdog{"port.watchdog.drift", Severity::error, "switch PFC watchdog settings equal the intent",
                             Setting::watchdog,     switch_port,     watchdog_expected,
                             watchdog_judge};

// ---- port.dcqcn.drift

std::string dcqcn_text(const std::array<bool, kPriorities>& rp, const std::array<bool, kPriorities>& np) {
  return cat("RP on ", format_priorities(rp), ", NP on ", format_priorities(np));
}

std::string dcqcn_expected(const PortView& v) {
  const auto on = v.qos().dcqcn_priorities();
  return dcqcn_text(on, on);
}

Verdict dcqcn_judge(const PortView& v, const PortObserved& o) {
  if (!o.dcqcn) return not_collected("DCQCN");
  const DcqcnObserved& got = *o.dcqcn;
  const auto want = v.qos().dcqcn_priorities();
  std::vector<std::string> diffs;
  std::vector<int> prios;
  for (int p = 0; p < kPriorities; ++p)
    if (got.rp_enabled[at(p)] != want[at(p)] || got.np_enabled[at(p)] != want[at(p)]) prios.push_back(p);
  if (prios.empty()) return pass();
  const std::string want_text = format_priorities(want);
  if (got.rp_enabled != want)
    diffs.push_back(cat("reaction point on ", format_priorities(got.rp_enabled), " (want ", want_text, ")"));
  if (got.np_enabled != want)
    diffs.push_back(cat("notification point on ", format_priorities(got.np_enabled), " (want ", want_text, ")"));
  return fail(dcqcn_text(got.rp_enabled, got.np_enabled), cat("DCQCN differs: ", join(diffs, ", ")), std::move(prios));
}

constexpr PortRule kDcqcn{"port.dcqcn.drift",
                          Severity::error,
                          "NIC DCQCN reaction/notification points are on exactly on the intended priorities",
                          Setting::dcqcn,
                          host_port,
                          dcqcn_expected,
                          dcqcn_judge};

// ---- port.dcqcn.params.drift

bool dcqcn_on(const PortView& v) { return v.device.role == Role::host && v.qos().dcqcn.enabled; }

/// Only the parameters the profile sets are judged: the others are the firmware's, whatever they are.
bool dcqcn_params_set(const PortView& v) {
  return dcqcn_on(v) && (!v.qos().dcqcn.rp.empty() || v.qos().dcqcn.np_min_time_between_cnps);
}

std::string param_text(std::string_view name, int value) { return cat(name, " ", num(value)); }

std::string dcqcn_params_expected(const PortView& v) {
  const Dcqcn& d = v.qos().dcqcn;
  std::vector<std::string> parts;
  for (const auto& [name, value] : d.rp) parts.push_back(param_text(name, value));
  if (d.np_min_time_between_cnps) parts.push_back(param_text("min_time_between_cnps", *d.np_min_time_between_cnps));
  return capped(parts);
}

Verdict dcqcn_params_judge(const PortView& v, const PortObserved& o) {
  if (!o.dcqcn) return not_collected("DCQCN");
  const Dcqcn& want = v.qos().dcqcn;
  std::vector<std::string> seen, diffs, unread;
  std::vector<int> keys;
  auto compare = [&](std::string_view name, int key, int w, const std::optional<int>& got) {
    if (!got) {
      unread.emplace_back(name);
      return;
    }
    seen.push_back(param_text(name, *got));
    if (*got == w) return;
    diffs.push_back(cat(name, " ", num(*got), " (want ", num(w), ")"));
    keys.push_back(key);
  };
  for (const auto& [name, w] : want.rp) {
    const auto it = o.dcqcn->rp.find(name);
    const auto index = std::find(kDcqcnRpParams.begin(), kDcqcnRpParams.end(), name) - kDcqcnRpParams.begin();
    compare(name, static_cast<int>(index), w, it == o.dcqcn->rp.end() ? std::nullopt : std::optional<int>(it->second));
  }
  if (want.np_min_time_between_cnps)
    compare("min_time_between_cnps", kDcqcnNpGapKey, *want.np_min_time_between_cnps, o.dcqcn->min_time_between_cnps);
  if (!unread.empty()) return not_collected(cat("DCQCN parameter ", join(unread, ", ")));
  if (diffs.empty()) return pass();
  return fail(capped(seen), cat("DCQCN parameters differ: ", capped(diffs)), std::move(keys));
}

constexpr PortRule kDcqcnParams{
    "port.dcqcn.params.drift", Severity::error,  "NIC DCQCN parameters the profile sets have the profile's values",
    Setting::dcqcn_params,     dcqcn_params_set, dcqcn_params_expected,
    dcqcn_params_judge};

// ---- port.cnp.drift

std::string cnp_text(const std::optional<int>& dscp, const std::optional<int>& prio) {
  return cat("DSCP ", format_opt(dscp), " priority ", format_opt(prio));
}

std::string cnp_expected(const PortView& v) { return cnp_text(v.qos().cnp_dscp, v.qos().cnp_priority); }

Verdict cnp_judge(const PortView& v, const PortObserved& o) {
  if (!o.dcqcn || !o.dcqcn->cnp_dscp) return not_collected("CNP DSCP");
  if (!o.dcqcn->cnp_priority) return not_collected("CNP priority");
  const QosIntent& q = v.qos();
  const int dscp = *o.dcqcn->cnp_dscp, prio = *o.dcqcn->cnp_priority;
  if (dscp == q.cnp_dscp && prio == q.cnp_priority) return pass();
  std::vector<std::string> diffs;
  if (dscp != q.cnp_dscp) diffs.push_back(cat("DSCP ", num(dscp), " (want ", num(q.cnp_dscp), ")"));
  if (prio != q.cnp_priority) diffs.push_back(cat("priority ", num(prio), " (want ", num(q.cnp_priority), ")"));
  return fail(cnp_text(dscp, prio), cat("CNPs sent with ", join(diffs, ", ")));
}

constexpr PortRule kCnp{"port.cnp.drift", Severity::error, "the NIC sends CNPs with the intended DSCP and priority",
                        Setting::cnp,     dcqcn_on,        cnp_expected,
                        cnp_judge};

}  // namespace

std::vector<Check> drift_checks() {
  return {check<kMtu>(), check<kSpeed>(),    check<kTrust>(), check<kDscp>(),        check<kPfc>(), check<kEts>(),
          check<kEcn>(), check<kWatchdog>(), check<kDcqcn>(), check<kDcqcnParams>(), check<kCnp>()};
}

}  // namespace fabricctl
