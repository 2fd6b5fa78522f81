// port.*: drift of each port from its intent. Every check compares one desired field of a port with the
// same field observed on that port; both ends of a link are compared by the link.* checks instead.
// Each check is one PortRule (port_compare.h): scope, expected text, judgement, hint.
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

std::string mtu_hint(const PortView& v) {
  const std::string& n = v.port.name;
  const std::string m = num(v.port.mtu);
  if (!v.is_switch()) return host_fix(cat("set the NIC MTU to ", m), cat("ip link set dev ", n, " mtu ", m));
  return switch_fix(v.device.platform, cat("set the port MTU to ", m), cat("config interface mtu ", n, " ", m),
                    cat("interface ", n, ", mtu ", m), cat("nv set interface ", n, " link mtu ", m));
}

constexpr PortRule kMtu{"port.mtu.drift", Severity::error, "port MTU equals the intended MTU",
                        any_port, mtu_expected, mtu_judge, mtu_hint};

// ---- port.speed.drift

bool has_speed(const PortView& v) { return v.port.speed_mbps.has_value(); }

std::string speed_expected(const PortView& v) { return format_mbps(*v.port.speed_mbps); }

Verdict speed_judge(const PortView& v, const PortObserved& o) {
  if (!o.speed_mbps) return not_collected("speed");
  const int want = *v.port.speed_mbps;
  const int got = *o.speed_mbps;
  std::string seen = format_mbps(got);
  if (got == want) return pass(seen, cat("speed ", seen, " as intended"));
  std::string detail = cat("speed ", seen, " is ", got < want ? "slower" : "faster", " than the expected ",
                           format_mbps(want));
  return fail(std::move(seen), std::move(detail));
}

std::string speed_hint(const PortView& v) {
  const std::string& n = v.port.name;
  const int want = *v.port.speed_mbps;
  const std::string what = cat("check the optic and cable on both ends, then set the port to ", format_mbps(want));
  if (!v.is_switch()) return host_fix(what, cat("ethtool ", n, " shows speed and link partner modes"));
  return switch_fix(v.device.platform, what, cat("config interface speed ", n, " ", num(want)), cat("interface ", n, ", speed"),
                    cat("nv set interface ", n, " link speed ", format_mbps(want)));
}

constexpr PortRule kSpeed{"port.speed.drift", Severity::error, "port speed equals the expected speed",
                          has_speed, speed_expected, speed_judge, speed_hint};

// ---- port.oper.down

std::string oper_expected(const PortView&) { return "up"; }

Verdict oper_judge(const PortView& v, const PortObserved& o) {
  if (!o.oper_up) return not_collected("link state");
  if (*o.oper_up) return pass("up", "link up");
  return fail("down", cat("link down, cabled to ", v.port.peer_device, ":", v.port.peer_port));
}

std::string oper_hint(const PortView& v) {
  const std::string& n = v.port.name;
  const std::string what =
      cat("bring the link up: check admin state, optic and cable to ", v.port.peer_device, ":", v.port.peer_port);
  if (!v.is_switch()) return host_fix(what, cat("ip link set dev ", n, " up"));
  return switch_fix(v.device.platform, what, cat("config interface startup ", n), cat("interface ", n, ", no shutdown"),
                    cat("nv set interface ", n, " link state up"));
}

constexpr PortRule kOper{"port.oper.down", Severity::error, "a cabled port is operationally up",
                         cabled_port, oper_expected, oper_judge, oper_hint};

// ---- port.trust.drift

std::string trust_text(Trust t) { return std::string(to_string(t)); }

std::string trust_expected(const PortView& v) { return trust_text(v.qos().trust); }

Verdict trust_judge(const PortView& v, const PortObserved& o) {
  return same("trust mode", v.qos().trust, o.trust, trust_text);
}

std::string trust_hint(const PortView& v) {
  const bool dscp = v.qos().trust == Trust::dscp;
  const std::string what = cat("trust ", dscp ? "DSCP" : "PCP", " on the port");
  if (!v.is_switch()) return host_fix(what, cat("mlnx_qos -i ", v.port.name, " --trust ", dscp ? "dscp" : "pcp"));
  return switch_fix(v.device.platform, what, dscp ? "PORT_QOS_MAP dscp_to_tc_map" : "PORT_QOS_MAP dot1p_to_tc_map",
                    dscp ? "qos trust dscp" : "qos trust cos",
                    cat("nv set qos mapping default-global trust ", dscp ? "l3" : "l2"));
}

constexpr PortRule kTrust{"port.trust.drift", Severity::error, "port trust mode (DSCP or PCP) equals the intent",
                          any_port, trust_expected, trust_judge, trust_hint};

// ---- port.dscp.drift

/// The DSCP map classifies only when the port trusts DSCP.
bool trusts_dscp(const PortView& v) { return v.qos().trust == Trust::dscp; }

std::string dscp_expected(const PortView& v) { return map_text(v.qos().dscp_to_priority); }

/// The fix for the differing DSCPs, in the words of the port's role.
std::string dscp_fix(const PortView& v, const std::vector<int>& dscps) {
  const auto& want = v.qos().dscp_to_priority;
  std::vector<std::string> pairs, linux_pairs;
  for (int d : dscps) {
    pairs.push_back(cat(num(d), "->", num(want[at(d)])));
    linux_pairs.push_back(cat(num(d), ":", num(want[at(d)])));
  }
  const std::string what = cat("map DSCP->priority ", capped(pairs));
  if (!v.is_switch())
    return host_fix(what, cat("dcb app replace dev ", v.port.name, " dscp-prio ", capped(linux_pairs, " ")));
  const std::string d = num(dscps.front());
  const std::string p = num(want[at(dscps.front())]);
  return switch_fix(v.device.platform, what, cat("DSCP_TO_TC_MAP \"", d, "\": \"", p, "\""),
                    cat("qos map dscp ", d, " to traffic-class ", p),
                    cat("nv set qos mapping default-global dscp ", d, " switch-priority ", p));
}

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
  if (differing.empty()) return pass(map_text(got), "DSCP map as intended");
  std::string seen = capped(diffs);
  return fail(seen, cat("DSCP map differs: ", seen), dscp_fix(v, differing));
}

std::string dscp_hint(const PortView& v) {
  // Only reached for a failure without its own hint, which dscp_judge never produces.
  return dscp_fix(v, {v.qos().roce_dscp});
}

constexpr PortRule kDscp{"port.dscp.drift", Severity::error, "DSCP->priority map equals the intent (DSCP trust)",
                         trusts_dscp, dscp_expected, dscp_judge, dscp_hint};

// ---- port.pfc.drift

std::string pfc_expected(const PortView& v) { return format_priorities(v.qos().lossless); }

Verdict pfc_judge(const PortView& v, const PortObserved& o) {
  return same("PFC priorities", v.qos().lossless, o.lossless,
              [](const std::array<bool, kPriorities>& s) { return format_priorities(s); });
}

std::string pfc_hint(const PortView& v) {
  const std::string& n = v.port.name;
  const std::vector<int> prios = v.qos().lossless_priorities();
  if (prios.empty()) {
    if (!v.is_switch())
      return host_fix("turn PFC off on every priority", cat("dcb pfc set dev ", n, " prio-pfc all:off"));
    return switch_fix(v.device.platform, "turn PFC off on every priority", "remove PORT_QOS_MAP pfc_enable", "no priority-flow-control",
                      "nv unset qos pfc default-global");
  }
  const std::string set = format_priorities(v.qos().lossless);
  const std::string what = cat("set PFC on priority ", set, " and off on all others");
  std::vector<std::string> eos, linux_on;
  for (int p : prios) {
    eos.push_back(cat("priority-flow-control priority ", num(p), " no-drop"));
    linux_on.push_back(cat(num(p), ":on"));
  }
  if (!v.is_switch())
    return host_fix(what, cat("dcb pfc set dev ", n, " prio-pfc all:off ", join(linux_on, " ")));
  return switch_fix(v.device.platform, what, cat("PORT_QOS_MAP pfc_enable ", set), join(eos, "; "),
                    cat("nv set qos pfc default-global switch-priority ", set));
}

constexpr PortRule kPfc{"port.pfc.drift", Severity::error, "lossless (PFC) priority set equals the intent",
                        any_port, pfc_expected, pfc_judge, pfc_hint};

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

Verdict ets_judge(const PortView& v, const PortObserved& o) {
  if (!o.priority_to_tc) return not_collected("priority->TC map");
  if (!o.tc) return not_collected("TC scheduling");
  const QosIntent& q = v.qos();
  std::vector<std::string> diffs;
  for (int p = 0; p < kPriorities; ++p)
    if ((*o.priority_to_tc)[at(p)] != q.priority_to_tc[at(p)])
      diffs.push_back(cat("prio ", num(p), "->tc ", num((*o.priority_to_tc)[at(p)]), " (want ",
                          num(q.priority_to_tc[at(p)]), ")"));
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& want = q.tc[at(tc)];
    const TcSchedule& got = (*o.tc)[at(tc)];
    if (want.used && !same_sched(want, got))
      diffs.push_back(cat("tc", num(tc), " ", sched_text(got), " (want ", sched_text(want), ")"));
  }
  std::string seen = ets_text(*o.priority_to_tc, *o.tc, q.tc);
  if (diffs.empty()) return pass(seen, "priority->TC map and TC scheduling as intended");
  return fail(std::move(seen), cat("ETS differs: ", capped(diffs)));
}

std::string ets_hint(const PortView& v) {
  const QosIntent& q = v.qos();
  const std::string what = cat("set priority->TC and TC scheduling to ", ets_expected(v));
  if (v.is_switch())
    return switch_fix(v.device.platform, what, "TC_TO_QUEUE_MAP and SCHEDULER (STRICT or DWRR weight)",
                      "qos map traffic-class to tx-queue; tx-queue priority strict or no priority + bandwidth percent",
                      "nv set qos egress-queue-mapping and egress-scheduler default-global");
  // TCs the intent does not use are strict with 0 %, so the ETS shares sum to 100 as mlx5 requires.
  std::vector<std::string> prio_tc, tsa, bw;
  for (int p = 0; p < kPriorities; ++p) prio_tc.push_back(cat(num(p), ":", num(q.priority_to_tc[at(p)])));
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    const TcSchedule& s = q.tc[at(tc)];
    const bool ets = s.used && !s.strict;
    tsa.push_back(cat(num(tc), ets ? ":ets" : ":strict"));
    bw.push_back(cat(num(tc), ":", num(ets ? s.bandwidth_pct : 0)));
  }
  return host_fix(what, cat("dcb ets set dev ", v.port.name, " prio-tc ", join(prio_tc, " "), " tc-tsa ",
                            join(tsa, " "), " tc-bw ", join(bw, " ")));
}

constexpr PortRule kEts{"port.ets.drift", Severity::error,
                        "priority->TC map and TC scheduling (strict/ETS %) equal the intent",
                        any_port, ets_expected, ets_judge, ets_hint};

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
  for (const EcnQueue& want : v.qos().ecn) {
    const std::string tc = cat("tc", num(want.tc));
    const EcnQueue* got = ecn_queue(observed, want.tc);
    if (!got) {
      seen.push_back(cat(tc, " off"));
      diffs.push_back(cat(tc, " not ECN-marked"));
      continue;
    }
    seen.push_back(ecn_text(*got));
    if (!within(got->min_bytes, want.min_bytes, tol))
      diffs.push_back(cat(tc, " min ", num(got->min_bytes), " B (want ", num(want.min_bytes), " B", tol_text, ")"));
    if (!within(got->max_bytes, want.max_bytes, tol))
      diffs.push_back(cat(tc, " max ", num(got->max_bytes), " B (want ", num(want.max_bytes), " B", tol_text, ")"));
    if (got->probability_pct != want.probability_pct)
      diffs.push_back(cat(tc, " probability ", num(got->probability_pct), "% (want ", num(want.probability_pct), "%)"));
  }
  std::string observed_text = seen.empty() ? "none" : join(seen, "; ");
  if (diffs.empty()) return pass(std::move(observed_text), cat("ECN marking as intended (thresholds", tol_text, ")"));
  return fail(std::move(observed_text), cat("ECN differs: ", capped(diffs)));
}

/// ECN disabled in intent: a lossless queue that marks anyway is drift, but a softer one.
Verdict ecn_off_judge(const PortView& v, const std::vector<EcnQueue>& observed) {
  const std::vector<int> lossless = lossless_tcs(v.qos());
  std::vector<int> marking;
  for (int tc : lossless)
    if (ecn_queue(observed, tc)) marking.push_back(tc);
  if (marking.empty())
    return pass(cat("no ECN on lossless ", tc_list(lossless)), "no ECN on lossless queues, as intended");
  Verdict verdict = fail(cat("ECN on ", tc_list(marking)),
                         cat("ECN marks lossless ", tc_list(marking), " though the intent has ECN off"));
  verdict.severity = Severity::warning;
  return verdict;
}

Verdict ecn_judge(const PortView& v, const PortObserved& o) {
  if (!o.ecn) return not_collected("ECN");
  return v.qos().ecn_enabled ? ecn_on_judge(v, *o.ecn) : ecn_off_judge(v, *o.ecn);
}

std::string ecn_hint(const PortView& v) {
  const QosIntent& q = v.qos();
  const std::string& n = v.port.name;
  if (!q.ecn_enabled) {
    const std::vector<int> tcs = lossless_tcs(q);
    const std::string tc = tcs.empty() ? "<tc>" : num(tcs.front());
    return switch_fix(v.device.platform, cat("turn ECN marking off on lossless ", tc_list(tcs), ", or enable ECN in the profile"),
                      cat("remove wred_profile from QUEUE ", n, "|", tc),
                      cat("uc-tx-queue ", tc, ", no random-detect ecn"),
                      cat("nv set qos congestion-control default-global traffic-class ", tc, " ecn disable"));
  }
  std::vector<std::string> parts;
  for (const EcnQueue& e : q.ecn) parts.push_back(ecn_text(e));
  const std::string what = cat("mark ECN as intended: ", join(parts, "; "));
  if (q.ecn.empty()) return what;
  const EcnQueue& e = q.ecn.front();
  const std::string tc = num(e.tc), lo = num(e.min_bytes), hi = num(e.max_bytes), pr = num(e.probability_pct);
  return switch_fix(v.device.platform, what,
                    cat("WRED_PROFILE ecn ecn_all, wred_green_enable true, green_min_threshold ", lo,
                        ", green_max_threshold ", hi, ", green_drop_probability ", pr, " on QUEUE ", n, "|", tc),
                    cat("uc-tx-queue ", tc, ", random-detect ecn minimum-threshold ", lo, " bytes maximum-threshold ",
                        hi, " bytes max-mark-probability ", pr),
                    cat("nv set qos congestion-control default-global traffic-class ", tc, " min-threshold ", lo,
                        " max-threshold ", hi, " probability ", pr));
}

constexpr PortRule kEcn{"port.ecn.drift", Severity::error,
                        "switch ECN marking per queue equals the intent (thresholds within tolerance)",
                        switch_port, ecn_expected, ecn_judge, ecn_hint};

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
    ms("restoration", got.restoration_ms, want.restoration_ms);
    if (got.action != want.action)
      diffs.push_back(cat("action ", to_string(got.action), " (want ", to_string(want.action), ")"));
  }
  if (diffs.empty()) return pass(watchdog_text(got), "PFC watchdog as intended");
  return fail(watchdog_text(got), cat("PFC watchdog differs: ", join(diffs, ", ")));
}

std::string watchdog_hint(const PortView& v) {
  const Watchdog& w = v.qos().watchdog;
  const std::string& n = v.port.name;
  if (!w.enabled)
    return switch_fix(v.device.platform, "disable the PFC watchdog", cat("config pfcwd stop ", n),
                      cat("interface ", n, ", no priority-flow-control pause watchdog"),
                      cat("nv unset interface ", n, " qos pfc-watchdog"));
  const int poll = std::max(1, w.poll_interval_ms);
  const int robustness = std::max(1, (w.detection_ms + poll - 1) / poll);
  const std::string action(to_string(w.action));
  return switch_fix(v.device.platform, 
      cat("enable the PFC watchdog with ", watchdog_params(w)),
      cat("config pfcwd interval ", num(w.poll_interval_ms), "; config pfcwd start --action ", action,
          " --restoration-time ", num(w.restoration_ms), " ", n, " ", num(w.detection_ms)),
      cat("priority-flow-control pause watchdog default timeout ", decimal(w.detection_ms / 1000.0), " recovery-time ",
          decimal(w.restoration_ms / 1000.0), " polling-interval ", decimal(w.poll_interval_ms / 1000.0), ", action ",
          action, "; interface ", n, ", priority-flow-control pause watchdog"),
      cat("nv set qos pfc-watchdog polling-interval ", num(w.poll_interval_ms), " robustness ", num(robustness),
          "; nv set interface ", n, " qos pfc-watchdog"));
}

constexpr PortRule kWatchdog{"port.watchdog.drift", Severity::error, "switch PFC watchdog settings equal the intent",
                             switch_port, watchdog_expected, watchdog_judge, watchdog_hint};

// ---- port.dcqcn.drift

std::string dcqcn_text(const std::array<bool, kPriorities>& rp, const std::array<bool, kPriorities>& np,
                       const std::optional<int>& cnp_dscp, const std::optional<int>& cnp_prio, bool with_cnp) {
  std::string s = cat("RP on ", format_priorities(rp), ", NP on ", format_priorities(np));
  if (with_cnp) s += cat(", CNP DSCP ", format_opt(cnp_dscp), " priority ", format_opt(cnp_prio));
  return s;
}

std::string dcqcn_expected(const PortView& v) {
  const QosIntent& q = v.qos();
  const auto on = q.dcqcn_priorities();
  return dcqcn_text(on, on, q.cnp_dscp, q.cnp_priority, q.dcqcn.enabled);
}

Verdict dcqcn_judge(const PortView& v, const PortObserved& o) {
  if (!o.dcqcn) return not_collected("DCQCN");
  const QosIntent& q = v.qos();
  const DcqcnObserved& got = *o.dcqcn;
  const bool cnp = q.dcqcn.enabled;
  if (cnp && !got.cnp_dscp) return not_collected("CNP DSCP");
  if (cnp && !got.cnp_priority) return not_collected("CNP priority");
  const auto want = q.dcqcn_priorities();
  std::vector<std::string> diffs;
  const std::string want_text = format_priorities(want);
  if (got.rp_enabled != want)
    diffs.push_back(cat("reaction point on ", format_priorities(got.rp_enabled), " (want ", want_text, ")"));
  if (got.np_enabled != want)
    diffs.push_back(cat("notification point on ", format_priorities(got.np_enabled), " (want ", want_text, ")"));
  if (cnp && *got.cnp_dscp != q.cnp_dscp)
    diffs.push_back(cat("CNP DSCP ", num(*got.cnp_dscp), " (want ", num(q.cnp_dscp), ")"));
  if (cnp && *got.cnp_priority != q.cnp_priority)
    diffs.push_back(cat("CNP priority ", num(*got.cnp_priority), " (want ", num(q.cnp_priority), ")"));
  std::string seen = dcqcn_text(got.rp_enabled, got.np_enabled, got.cnp_dscp, got.cnp_priority, cnp);
  if (diffs.empty()) return pass(std::move(seen), "DCQCN as intended");
  return fail(std::move(seen), cat("DCQCN differs: ", join(diffs, ", ")));
}

std::string dcqcn_hint(const PortView& v) {
  const QosIntent& q = v.qos();
  const std::string ecn = cat("/sys/class/net/", v.port.name, "/ecn");
  const std::vector<int> prios = q.dcqcn.enabled ? q.lossless_priorities() : std::vector<int>{};
  if (prios.empty())
    return host_fix("turn DCQCN off on every priority",
                    cat("echo 0 > ", ecn, "/roce_rp/enable/<p> and ", ecn, "/roce_np/enable/<p> for p 0-7"));
  const std::string set = format_priorities(q.dcqcn_priorities());
  const std::string p = num(prios.front());
  return host_fix(cat("enable DCQCN reaction and notification points on priority ", set, " only, CNPs with DSCP ",
                      num(q.cnp_dscp), " priority ", num(q.cnp_priority)),
                  cat("echo 1 > ", ecn, "/roce_rp/enable/", p, " and ", ecn, "/roce_np/enable/", p, "; echo ",
                      num(q.cnp_dscp), " > ", ecn, "/roce_np/cnp_dscp; echo ", num(q.cnp_priority), " > ", ecn,
                      "/roce_np/cnp_802p_prio"));
}

constexpr PortRule kDcqcn{"port.dcqcn.drift", Severity::error,
                          "NIC DCQCN reaction/notification points and CNP marking equal the intent",
                          host_port, dcqcn_expected, dcqcn_judge, dcqcn_hint};

}  // namespace

std::vector<Check> drift_checks() {
  return {check<kMtu>(), check<kSpeed>(), check<kOper>(),     check<kTrust>(), check<kDscp>(),
          check<kPfc>(), check<kEts>(),   check<kEcn>(),      check<kWatchdog>(), check<kDcqcn>()};
}

}  // namespace fabricctl
