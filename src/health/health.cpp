#include "health/health.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>

#include "state/snapshot.h"
#include "verify/check.h"

namespace fabricctl {

namespace {

constexpr const char* kStorm = "health.pfc.storm";
constexpr const char* kPauses = "health.pfc.pauses";
constexpr const char* kErrors = "health.link.errors";
constexpr const char* kFlap = "health.link.flap";
constexpr const char* kDrops = "health.lossless.drops";
constexpr const char* kRetransmit = "health.rdma.retransmissions";
constexpr const char* kCnp = "health.dcqcn.cnp";
constexpr const char* kReaction = "health.dcqcn.reaction";
constexpr const char* kSlowNic = "health.pfc.slow_nic";
// A NIC dominates its rail's pauses when it sends at least this many per second and this many times the
// mean of the rail's other NICs: below the first, pauses are noise; the second is what "dominates" means.
constexpr double kSlowNicFloorPerS = 100, kSlowNicTimes = 5;
constexpr const char* kBaseline = "health.baseline.rate";

/// One port's two readings and the seconds between them.
struct Readings {
  const PortObserved* before = nullptr;
  const PortObserved* after = nullptr;
  double seconds = 0;

  /// The rise of `counter`, or nullopt when either reading lacks it or it fell (cleared, restarted).
  [[nodiscard]] std::optional<uint64_t> rise(const std::string& counter) const {
    if (before == nullptr || after == nullptr) return std::nullopt;
    const auto b = before->counters.find(counter);
    const auto a = after->counters.find(counter);
    if (b == before->counters.end() || a == after->counters.end() || a->second < b->second) return std::nullopt;
    return a->second - b->second;
  }
  /// The summed rise of the counters that both readings have; nullopt when none has.
  [[nodiscard]] std::optional<uint64_t> rise_of(std::initializer_list<std::string_view> counters) const {
    std::optional<uint64_t> sum;
    for (const std::string_view c : counters)
      if (const auto r = rise(std::string(c))) sum = sum.value_or(0) + *r;
    return sum;
  }
};

std::string per_second(double n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, n >= 10 ? "%.0f/s" : "%.2f/s", n);
  return buf;
}

std::string in_seconds(uint64_t n, double seconds) {
  return "+" + std::to_string(n) + " in " + std::to_string(std::lround(seconds)) + " s (" +
         per_second(static_cast<double>(n) / seconds) + ")";
}

struct Run {
  const FabricDesired& desired;
  const FabricObserved& before;
  const FabricObserved& after;
  const HealthOptions& options;
  CheckContext context;
  VerifyReport report;
  std::map<std::string, double> seconds;  // device -> seconds between its readings (readable devices only)

  Run(const FabricDesired& d, const FabricObserved& b, const FabricObserved& a, const HealthOptions& o)
      : desired(d), before(b), after(a), options(o), context(d, a, {}, o.scope.empty() ? nullptr : &o.scope) {}

  [[nodiscard]] bool in_scope(const DeviceDesired& d) const { return context.in_scope(d); }

  /// A device's two readings: the seconds between them, or why they cannot be judged.
  void time_device(const DeviceDesired& d) {
    const auto reason = [&](const FabricObserved& o, std::string_view which) -> std::optional<std::string> {
      if (const auto it = o.unreadable.find(d.name); it != o.unreadable.end())
        return std::string(which) + ": " + it->second;
      if (!o.devices.count(d.name)) return std::string(which) + ": no state";
      return std::nullopt;
    };
    if (auto why = reason(before, "first reading")) {
      report.unreadable[d.name] = *why;
      return;
    }
    if (auto why = reason(after, "second reading")) {
      report.unreadable[d.name] = *why;
      return;
    }
    const auto t0 = parse_utc_time(before.devices.find(d.name)->second.collected_at);
    const auto t1 = parse_utc_time(after.devices.find(d.name)->second.collected_at);
    if (!t0 || !t1 || *t1 <= *t0) {
      report.unreadable[d.name] = "its two readings have no collected_at in time order, so no rate";
      return;
    }
    seconds[d.name] = std::chrono::duration<double>(*t1 - *t0).count();
    ++report.devices_checked;
  }

  [[nodiscard]] Readings readings(const DeviceDesired& d, const PortDesired& p) const {
    const auto s = seconds.find(d.name);
    if (s == seconds.end()) return {};
    return {before.devices.find(d.name)->second.port(p.name), after.devices.find(d.name)->second.port(p.name),
            s->second};
  }

  /// A passing result of `check`, counted for it (triage says what each layer ruled out).
  void pass(const char* check) {
    ++report.pass_count;
    for (size_t i = 0; i < report.checks_run.size(); ++i)
      if (report.checks_run[i] == check) ++report.check_tallies[i].passed;
  }

  /// "<check> <object>" of the first failure that names `where` at either end, or "": what a finding on
  /// `where` is the consequence of.
  [[nodiscard]] std::string failure_at(const Endpoint& where) const {
    for (const Result& r : report.results)
      if (r.status == Status::fail && (r.a == where || (r.b && *r.b == where))) return r.check + " " + r.object();
    return "";
  }

  Result& fail(const char* check, Severity severity, Endpoint a, std::optional<Endpoint> b, std::string expected,
               std::string observed, std::string message, std::string hint) {
    Result r;
    r.check = check;
    r.status = Status::fail;
    r.severity = severity;
    r.a = std::move(a);
    r.b = std::move(b);
    r.expected = std::move(expected);
    r.observed = std::move(observed);
    r.message = std::move(message);
    r.hint = std::move(hint);
    // The cable the finding is about, host end first as verify names it, so both reports group alike.
    if (const DeviceDesired* d = context.desired_device(r.a.device))
      if (const PortDesired* p = CheckContext::desired_port(*d, r.a.port))
        if (const LinkEnds* l = context.link_of(*p)) r.link = link_ref(*l);
    report.results.push_back(std::move(r));
    return report.results.back();
  }
};

Endpoint end_of(const DeviceDesired& d, const PortDesired& p) { return {d.name, p.name}; }

/// The other end of `p`'s link, or nullptr when it is not cabled.
std::optional<Endpoint> peer_of(const CheckContext& c, const PortDesired& p) {
  const LinkEnds* l = c.link_of(p);
  if (l == nullptr) return std::nullopt;
  return l->a == &p ? Endpoint{l->b_device->name, l->b->name} : Endpoint{l->a_device->name, l->a->name};
}

/// PFC storms the switch's watchdog caught: the port's peer keeps it paused (a slow or stuck receiver);
/// the peer is named as the fault, the port as where it shows. Returns the ports with a storm.
std::set<std::string> storms(Run& run) {
  std::set<std::string> stormed;
  for (const DeviceDesired& d : run.desired.devices) {
    if (!run.in_scope(d) || d.role != Role::switch_) continue;
    for (const PortDesired& p : d.ports) {
      const Readings r = run.readings(d, p);
      uint64_t total = 0;
      std::string queues;
      bool counted = false;
      for (int q = 0; q < 16; ++q) {
        const auto n = r.rise("watchdog_storms_" + std::to_string(q));
        if (!n) continue;
        counted = true;
        if (*n == 0) continue;
        total += *n;
        queues += (queues.empty() ? "" : ", ") + std::to_string(q);
      }
      if (!counted) continue;
      if (total == 0) {
        run.pass(kStorm);
        continue;
      }
      const Endpoint here = end_of(d, p);
      const std::optional<Endpoint> source = peer_of(run.context, p);
      stormed.insert(here.str());
      const std::string who = source ? source->str() : "the device on " + here.str();
      run.fail(kStorm, Severity::error, source.value_or(here), source ? std::optional(here) : std::nullopt,
               "no PFC storm", in_seconds(total, r.seconds) + " storms on queue " + queues,
               "PFC storm on " + here.str() + " queue " + queues + ": the watchdog tripped " + std::to_string(total) +
                   " time(s); " + who + " keeps pausing it",
               "look at " + who +
                   ": a receiver that cannot drain (a stuck or slow NIC, its PCIe or host) pauses its link without "
                   "end; while stormed the watchdog drops that queue's lossless traffic");
    }
  }
  return stormed;
}

/// The larger of two readings of one thing (the pausing end's count and the paused end's), either
/// possibly missing.
std::optional<uint64_t> larger(std::optional<uint64_t> a, std::optional<uint64_t> b) {
  if (!a) return b;
  if (!b) return a;
  return std::max(*a, *b);
}

/// Pause frames (and time paused, µs) on a link in one direction, for one lossless priority of the pausing
/// device ("priority 3"), from the pausing end's count and the paused end's: the larger. Where neither end
/// counts per priority, the frames summed over the priorities ("all priorities": EOS counts no finer),
/// which a switch sends and honours on its no-drop priorities alone.
struct PauseReading {
  std::string label;
  std::optional<uint64_t> frames, micros;
};

std::vector<PauseReading> pause_readings(const DeviceDesired& d, const Readings& sender, const Readings& receiver) {
  std::vector<PauseReading> out;
  const std::vector<int> lossless = d.qos.lossless_priorities();
  for (const int prio : lossless) {
    const std::string p = std::to_string(prio);
    PauseReading r{"priority " + p, larger(sender.rise("pfc_tx_pause_" + p), receiver.rise("pfc_rx_pause_" + p)),
                   larger(sender.rise("pfc_tx_pause_duration_" + p), receiver.rise("pfc_rx_pause_duration_" + p))};
    if (r.frames || r.micros) out.push_back(std::move(r));
  }
  if (out.empty() && !lossless.empty())
    if (const auto f = larger(sender.rise("pfc_tx_pause"), receiver.rise("pfc_rx_pause")))
      out.push_back({"all priorities", f, std::nullopt});
  return out;
}

/// PFC pauses at a high rate on a link, in one direction: the sender of the pauses (a slow receiver) is
/// the fault. Read on the pausing end (pfc_tx_pause) and the paused end (pfc_rx_pause): the larger.
void pauses(Run& run, const std::set<std::string>& stormed) {
  for (const LinkEnds& l : run.context.links) {
    for (const bool a_pauses : {true, false}) {
      const DeviceDesired& sd = a_pauses ? *l.a_device : *l.b_device;
      const PortDesired& sp = a_pauses ? *l.a : *l.b;
      const DeviceDesired& rd = a_pauses ? *l.b_device : *l.a_device;
      const PortDesired& rp = a_pauses ? *l.b : *l.a;
      if (!run.in_scope(sd) && !run.in_scope(rd)) continue;
      const Readings sender = run.readings(sd, sp), receiver = run.readings(rd, rp);
      const HealthLimits& t = sd.qos.health;  // the pausing device's profile says what is too much
      const std::vector<PauseReading> readings = pause_readings(sd, sender, receiver);
      std::string worst;
      for (const auto& [label, frames, micros] : readings) {
        const double secs = sender.seconds > 0 ? sender.seconds : receiver.seconds;
        const double rate = frames ? static_cast<double>(*frames) / secs : 0;
        // Time paused cannot exceed the interval; it reads a little over when a device stamps its counters
        // later than collected_at says (the reading's time is when its answer arrived).
        const double share = micros ? std::min(1.0, static_cast<double>(*micros) / 1e6 / secs) : 0;
        if (rate > static_cast<double>(t.pauses_per_s) || share * 100 > t.pause_time_percent) {
          char buf[64];
          std::snprintf(buf, sizeof buf, "%.0f%%", share * 100);
          worst = label + ": " + (frames ? per_second(rate) + " pause frames" : "") +
                  (micros ? std::string(frames ? ", " : "") + buf + " of the time paused" : "");
          break;
        }
      }
      if (readings.empty()) continue;
      if (worst.empty()) {
        run.pass(kPauses);
        continue;
      }
      const Endpoint source = end_of(sd, sp), paused = end_of(rd, rp);
      Result& r = run.fail(kPauses, Severity::warning, source, paused,
                           "under " + per_second(static_cast<double>(t.pauses_per_s)) + " pause frames and " +
                               std::to_string(t.pause_time_percent) + "% of the time paused",
                           worst,
                           source.str() + " pauses " + paused.str() + " at a high rate (" + worst +
                               "): it receives faster than it drains",
                           "look at " + source.str() +
                               ": a slow receiver (its buffers, PCIe, CPU or a congested port behind it); its pauses "
                               "spread back-pressure to every sender through " +
                               paused.str());
      if (stormed.count(paused.str())) {
        r.status = Status::consequence;
        r.cause = std::string(kStorm) + " " + source.str() + "~" + paused.str();
      }
    }
  }
}

/// Per port of every device in scope: `judge` gives a finding or nothing for the port's readings.
template <typename Judge>
void each_port(Run& run, Judge judge) {
  for (const DeviceDesired& d : run.desired.devices) {
    if (!run.in_scope(d)) continue;
    for (const PortDesired& p : d.ports) judge(d, p, run.readings(d, p));
  }
}

void errors(Run& run) {
  each_port(run, [&](const DeviceDesired& d, const PortDesired& p, const Readings& r) {
    // FCS and symbol errors where the port counts them; else every frame received in error (NVUE's
    // in-errors, the kernel's count), of which damaged frames are the usual part.
    // What FEC could not correct, where counted (SONiC's codewords, FEC_UNCORR; mlx5's symbols,
    // rx_pcs_symbol_err_phy; a port counts one of the two): the same fault seen below the MAC, often
    // growing before the frames' errors do.
    auto n = r.rise_of({"fcs_errors", "symbol_errors"});
    if (!n) n = r.rise("rx_errors");
    const auto fec = r.rise_of({"fec_uncorrectable", "fec_uncorrectable_symbols"});
    if (!n && !fec) return;
    if (n.value_or(0) == 0 && fec.value_or(0) == 0) return run.pass(kErrors);
    const Endpoint here = end_of(d, p);
    const std::optional<Endpoint> peer = peer_of(run.context, p);
    const std::string link = peer ? peer->str() + " -> " + here.str() : here.str();
    std::string observed = n ? in_seconds(*n, r.seconds) : "";
    if (fec.value_or(0) > 0)
      observed += (observed.empty() ? "" : "; ") + std::string("FEC uncorrectable ") + in_seconds(*fec, r.seconds);
    run.fail(kErrors, Severity::error, here, peer,
             fec ? "no FCS or symbol errors, no uncorrectable FEC codewords" : "no FCS or symbol errors", observed,
             "frames arrive damaged on " + here.str() + ": " + observed,
             "the cable or optics of " + link +
                 " (clean or reseat the connectors, then swap the cable or optic); "
                 "errors counted by the receiver point at the direction toward it");
  });
}

void flaps(Run& run) {
  std::set<std::string> reported;  // a link's flap is seen by both ends: once per link
  each_port(run, [&](const DeviceDesired& d, const PortDesired& p, const Readings& r) {
    // The NIC's own count of downs where it has one (mlx5); otherwise the changes either way (EOS, the
    // kernel's carrier changes of any netdev), which a host with both also has: never the two summed.
    auto n = r.rise("link_down_events");
    const char* what = " downs";
    if (!n) {
      n = r.rise("link_changes");
      what = " link changes (a flap is two)";
    }
    if (!n) return;
    if (*n == 0) return run.pass(kFlap);
    const Endpoint here = end_of(d, p);
    const std::optional<Endpoint> peer = peer_of(run.context, p);
    if (peer && reported.count(peer->str())) return;
    reported.insert(here.str());
    run.fail(kFlap, Severity::error, here, peer, "a link that stays up", in_seconds(*n, r.seconds) + what,
             "the link " + (peer ? here.str() + "~" + peer->str() : here.str()) + " went down or up " +
                 std::to_string(*n) + " time(s)",
             "a flapping link resets every RoCE connection on it: check its cable, optics and both ends' logs");
  });
}

/// What a lossless port's headroom is sized by, for a drop's fix: its cable length, and the row of the
/// switch's buffer table that length falls in where the switch looks headroom up by length (SONiC's
/// traditional buffer model), else the headroom fabricctl derived from speed, length and MTU.
std::string headroom_basis(const DeviceDesired& d, const PortDesired& p) {
  std::string s = std::to_string(p.cable_length_m) + " m of cable in the inventory";
  if (!d.hardware.headroom_cable_rows_m.empty()) {
    const auto row = d.hardware.headroom_row(p.cable_length_m);
    return s + (row ? ", sized by the " + std::to_string(*row) + " m row of its buffer table"
                    : ", longer than every row of its buffer table: no lossless headroom at all");
  }
  if (p.headroom_bytes > 0) s += ", " + std::to_string(p.headroom_bytes) + " bytes of headroom per lossless priority";
  return s;
}

void drops(Run& run) {
  each_port(run, [&](const DeviceDesired& d, const PortDesired& p, const Readings& r) {
    bool judged = false;
    for (const int prio : d.qos.lossless_priorities()) {
      const auto n = r.rise("rx_discards_" + std::to_string(prio));
      if (!n) continue;
      judged = true;
      if (*n == 0) continue;
      run.fail(kDrops, Severity::error, end_of(d, p), peer_of(run.context, p), "no drops on a lossless priority",
               "priority " + std::to_string(prio) + ": " + in_seconds(*n, r.seconds),
               d.name + ":" + p.name + " dropped lossless traffic on priority " + std::to_string(prio) +
                   " for lack of buffer",
               "its PFC headroom is short of what the link needs: check what it is sized for (" + headroom_basis(d, p) +
                   ") against the real cable, and that PFC is on at both ends");
      return;
    }
    if (judged) run.pass(kDrops);
  });
}

void retransmissions(Run& run) {
  each_port(run, [&](const DeviceDesired& d, const PortDesired& p, const Readings& r) {
    if (d.role != Role::host) return;
    const auto n = r.rise_of(
        {"rdma_packet_seq_err", "rdma_implied_nak_seq_err", "rdma_local_ack_timeout_err", "rdma_out_of_sequence"});
    if (!n) return;
    const double rate = static_cast<double>(*n) / r.seconds;
    const auto limit = static_cast<double>(d.qos.health.retransmissions_per_s);
    if (rate <= limit) return run.pass(kRetransmit);
    run.fail(kRetransmit, Severity::warning, end_of(d, p), peer_of(run.context, p), "under " + per_second(limit),
             in_seconds(*n, r.seconds),
             "RoCE on " + d.name + ":" + p.name + " retransmits: packets are lost in a class that should lose none",
             "look for drops and errors on its path (health.lossless.drops, health.link.errors) and for RoCE "
             "outside the lossless priority (verify's link.roce.class)");
  });
}

void cnp(Run& run) {
  each_port(run, [&](const DeviceDesired& d, const PortDesired& p, const Readings& r) {
    if (d.role != Role::host) return;
    const auto marked = r.rise("ecn_marked_rx");
    const auto sent = r.rise("cnp_sent");
    if (!marked || !sent) return;
    if (*marked == 0 || *sent > 0) return run.pass(kCnp);
    run.fail(kCnp, Severity::warning, end_of(d, p), peer_of(run.context, p), "CNPs sent for ECN-marked packets",
             "ECN-marked " + in_seconds(*marked, r.seconds) + ", CNPs +0",
             d.name + ":" + p.name + " receives ECN-marked RoCE packets but sends no CNP: its senders never slow down",
             "turn on its DCQCN notification point (ecn/roce_np/enable/<priority> on mlx5) for the RoCE priority");
  });
}

/// Each port's counters against the fabric's saved normal: the counter that rose the most times faster
/// than in the baseline, once it is `baseline_factor` times. Where another finding names the port, this
/// one is its consequence: the fault is named once.
void against_baseline(Run& run) {
  const Baseline* b = run.options.baseline;
  if (b == nullptr) return;
  const double floor = run.options.baseline_floor_per_s;
  each_port(run, [&](const DeviceDesired& d, const PortDesired& p, const Readings& r) {
    const auto factor = static_cast<double>(d.qos.health.baseline_factor);
    const auto dev = b->devices.find(d.name);
    if (dev == b->devices.end() || r.seconds <= 0) return;
    const auto port = dev->second.rises.find(p.name);
    if (port == dev->second.rises.end()) return;
    bool judged = false;
    double worst = 0, rate_now = 0, rate_then = 0;
    std::string counter;
    for (const auto& [name, rise] : port->second) {
      const auto n = r.rise(name);
      if (!n) continue;
      judged = true;
      const double now = static_cast<double>(*n) / r.seconds;
      const double then = b->rate(d.name, p.name, name).value_or(0);
      const double times = now / std::max(then, floor);
      if (times >= factor && times > worst) {
        worst = times;
        counter = name;
        rate_now = now;
        rate_then = then;
      }
    }
    if (!judged) return;
    if (counter.empty()) return run.pass(kBaseline);
    const Endpoint here = end_of(d, p);
    std::string cause = run.failure_at(here);
    char times[32];
    std::snprintf(times, sizeof times, "%.0fx", worst);
    Result& f =
        run.fail(kBaseline, Severity::warning, here, peer_of(run.context, p),
                 "under " + std::to_string(static_cast<int>(factor)) + "x its baseline rate",
                 counter + ": " + per_second(rate_now) + " against " + per_second(rate_then) + " in the baseline",
                 counter + " on " + here.str() + " at " + times + " its baseline (" + per_second(rate_now) +
                     " against " + per_second(rate_then) + ")",
                 "compare with the fabric as it was when the baseline was saved" +
                     (b->saved_at.empty() ? std::string() : " (" + b->saved_at + ")") +
                     ": a new traffic pattern, a receiver that slowed, a cable or optic that degraded");
    if (!cause.empty()) {
      f.status = Status::consequence;
      f.cause = std::move(cause);
    }
  });
}

/// The NIC whose pauses dominate its rail: all-reduce moves at the pace of the slowest NIC, and that NIC
/// pauses its leaf far more than the others of its rail, even under the pause threshold. Its pause rate:
/// the frames it sends on the lossless priorities (its own count, or its leaf's received count).
void slow_nics(Run& run) {
  std::map<int, std::vector<std::pair<Endpoint, double>>> rails;  // rail -> (host port, pauses/s)
  for (const DeviceDesired& d : run.desired.devices) {
    if (d.role != Role::host) continue;
    for (const PortDesired& p : d.ports) {
      if (!p.rail) continue;
      const Readings mine = run.readings(d, p);
      if (mine.seconds <= 0) continue;
      Readings theirs;
      if (const LinkEnds* l = run.context.link_of(p))
        theirs = l->a == &p ? run.readings(*l->b_device, *l->b) : run.readings(*l->a_device, *l->a);
      std::optional<uint64_t> frames;
      for (const PauseReading& r : pause_readings(d, mine, theirs))
        if (r.frames) frames = frames.value_or(0) + *r.frames;
      if (frames) rails[*p.rail].emplace_back(end_of(d, p), static_cast<double>(*frames) / mine.seconds);
    }
  }
  for (const auto& [rail, ports] : rails) {
    if (ports.size() < 2) continue;  // a rail of one NIC has no others to be slower than
    double total = 0;
    for (const auto& [where, rate] : ports) total += rate;
    for (const auto& [where, rate] : ports) {
      const DeviceDesired* d = run.context.desired_device(where.device);
      if (d == nullptr || !run.in_scope(*d)) continue;
      const double others = (total - rate) / static_cast<double>(ports.size() - 1);
      if (rate < kSlowNicFloorPerS || rate < kSlowNicTimes * std::max(others, 1.0)) {
        run.pass(kSlowNic);
        continue;
      }
      char share[16];
      std::snprintf(share, sizeof share, "%.0f%%", 100 * rate / total);
      std::string cause = run.failure_at(where);
      std::optional<Endpoint> peer;
      if (const PortDesired* p = CheckContext::desired_port(*d, where.port)) peer = peer_of(run.context, *p);
      Result& f = run.fail(
          kSlowNic, Severity::warning, where, peer, "pauses like the rest of rail " + std::to_string(rail),
          per_second(rate) + " pause frames sent, " + share + " of rail " + std::to_string(rail) + "'s; the others " +
              per_second(others) + " each",
          where.str() + " is the slow NIC of rail " + std::to_string(rail) + ": it sends " + share +
              " of the rail's pauses",
          "look at " + where.str() +
              ": the NIC, its PCIe link and its host (CPU, memory, other load); the job's collectives move at the "
              "pace of the slowest NIC");
      if (!cause.empty()) {
        f.status = Status::consequence;
        f.cause = std::move(cause);
      }
    }
  }
}

/// CNPs that reach a host's NIC and are ignored (mlx5 rp_cnp_ignored): its reaction point is off for
/// their priority, so the flows it sends never slow down when the fabric asks them to.
void reaction(Run& run) {
  each_port(run, [&](const DeviceDesired& d, const PortDesired& p, const Readings& r) {
    if (d.role != Role::host) return;
    const auto ignored = r.rise("cnp_ignored");
    if (!ignored) return;
    if (*ignored == 0) return run.pass(kReaction);
    run.fail(kReaction, Severity::warning, end_of(d, p), peer_of(run.context, p), "no CNP ignored",
             "CNPs ignored " + in_seconds(*ignored, r.seconds),
             d.name + ":" + p.name + " ignores the CNPs it receives: what it sends never slows down for congestion",
             "turn on its DCQCN reaction point (ecn/roce_rp/enable/<priority> on mlx5) for the RoCE priority");
  });
}

}  // namespace

const std::vector<HealthCheck>& health_checks() {
  static const std::vector<HealthCheck> checks = {
      {kStorm, Severity::error, "PFC storms the switch's watchdog caught, named on the port that sends the pauses"},
      {kPauses, Severity::warning, "PFC pauses at a high rate on a link, named on the end that sends them"},
      {kErrors, Severity::error,
       "FCS and symbol errors, or uncorrectable FEC codewords, arriving on a port: the cable or optics toward it"},
      {kFlap, Severity::error, "a link that went down or up, once per link"},
      {kDrops, Severity::error, "drops for lack of buffer on a lossless priority"},
      {kRetransmit, Severity::warning, "RoCE retransmissions at a high rate on a host port"},
      {kCnp, Severity::warning, "ECN-marked RoCE packets received and no CNP sent"},
      {kReaction, Severity::warning, "CNPs received and ignored: the NIC's reaction point is off"},
      {kSlowNic, Severity::warning, "the NIC whose pauses dominate its rail: the one that sets a job's pace"},
      {kBaseline, Severity::warning, "a counter rising many times faster than in the fabric's saved baseline"},
  };
  return checks;
}

VerifyReport run_health(const FabricDesired& desired, const FabricObserved& before, const FabricObserved& after,
                        const HealthOptions& options) {
  Run run(desired, before, after, options);
  run.report.tool = "health";
  for (const HealthCheck& c : health_checks())
    if (c.id != std::string_view(kBaseline) || options.baseline != nullptr) run.report.checks_run.emplace_back(c.id);
  run.report.check_tallies.resize(run.report.checks_run.size());
  for (const DeviceDesired& d : desired.devices)
    if (run.in_scope(d)) run.time_device(d);
  // Every counter's rate on every port in scope (Prometheus' gauges): one that fell is no rate.
  for (const DeviceDesired& d : desired.devices) {
    if (!run.in_scope(d)) continue;
    for (const PortDesired& p : d.ports) {
      const Readings r = run.readings(d, p);
      if (r.before == nullptr || r.after == nullptr || r.seconds <= 0) continue;
      for (const auto& [counter, value] : r.after->counters)
        if (const auto n = r.rise(counter))
          run.report.rates.push_back({end_of(d, p), counter, static_cast<double>(*n) / r.seconds});
    }
  }
  const std::set<std::string> stormed = storms(run);
  pauses(run, stormed);
  errors(run);
  flaps(run);
  drops(run);
  retransmissions(run);
  slow_nics(run);
  cnp(run);
  reaction(run);
  against_baseline(run);
  run.report.links_checked = run.context.links.size();
  return run.report;
}

}  // namespace fabricctl
