// The grammar read here is what session.cfg writes (context.cpp) and what EOS prints of it, plus the
// forms AVD renders for the same settings (qos profiles, per-port watchdog timers, `drop` priorities).
// Units: `mtu` is the L3 MTU in bytes; watchdog times are seconds with up to three decimals, held in
// milliseconds; ECN thresholds are read in bytes, kbytes and mbytes (a kbyte taken as 1024 bytes: no
// Arista document says which, and fabricctl itself writes bytes); thresholds in segments (chip buffer
// cells) or milliseconds have no byte value fabricctl can know, so such a queue makes its port unreadable.
#include "platform/eos/running_config.h"

#include <algorithm>
#include <cctype>

#include "platform/eos/config_lines.h"
#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::eos {
namespace {

// The highest traffic class or queue number a `qos map traffic-class` line may name: EOS platforms with
// more than 8 (the priorities fabricctl classifies into) list them in `show running-config all`; how
// many a platform has is UNCONFIRMED, this only bounds what is read.
constexpr int kMaxEosTrafficClass = 63;

using Words = std::vector<std::string_view>;

/// A bad line: "running-config line N: what".
struct LineError {
  std::string message;
};

[[noreturn]] void bad(const ConfigLine& l, const std::string& what) {
  throw LineError{"running-config line " + std::to_string(l.number) + ": " + what};
}

int number(const ConfigLine& l, std::string_view s, int lo, int hi, std::string_view what) {
  const std::optional<int64_t> n = s.size() <= 10 ? parse_int(s) : std::nullopt;
  if (!n || *n < lo || *n > hi)
    bad(l, quote(s) + " is not " + std::string(what) + " " + std::to_string(lo) + "-" + std::to_string(hi));
  return static_cast<int>(*n);
}

/// EOS seconds ("0.2", "10.001", "1") as milliseconds, up to an hour.
int milliseconds(const ConfigLine& l, std::string_view s) {
  const size_t dot = s.find('.');
  const std::string_view whole = s.substr(0, dot), frac = dot == std::string_view::npos ? "" : s.substr(dot + 1);
  const auto digits = [](std::string_view d) {
    return std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (whole.empty() || whole.size() > 4 || !digits(whole) || frac.size() > 3 || !digits(frac) ||
      (dot != std::string_view::npos && frac.empty()))
    bad(l, quote(s) + " is not a time in seconds (up to 3 decimals)");
  std::string ms(frac);
  ms.append(3 - ms.size(), '0');
  const int64_t v = *parse_int(whole) * 1000 + *parse_int(ms);
  if (v > 3'600'000) bad(l, quote(s) + " is more than 3600 seconds");
  return static_cast<int>(v);
}

/// `drop` (the only action session.cfg writes) or `no-drop`, which lets the stuck traffic through: our
/// `forward`.
WatchdogAction action(const ConfigLine& l, std::string_view s) {
  if (s == "drop") return WatchdogAction::drop;
  if (s == "no-drop") return WatchdogAction::forward;
  bad(l, quote(s) + " is not a watchdog action (drop, no-drop)");
}

bool starts(const Words& w, std::initializer_list<std::string_view> prefix) {
  if (w.size() < prefix.size()) return false;
  size_t i = 0;
  for (const std::string_view p : prefix)
    if (w[i++] != p) return false;
  return true;
}

/// `<list> to` from word `from`: the numbers before "to" (each in [0, hi]), and the index of "to".
std::pair<std::vector<int>, size_t> list_to(const ConfigLine& l, size_t from, int hi, std::string_view what) {
  std::vector<int> out;
  size_t i = from;
  for (; i < l.words.size() && l.words[i] != "to"; ++i) out.push_back(number(l, l.words[i], 0, hi, what));
  if (out.empty() || i + 2 >= l.words.size()) bad(l, quote(l.text) + " is not `... <list> to <map> <n>`");
  return {out, i};
}

// Byte multipliers of the ECN threshold units that have one.
constexpr std::pair<std::string_view, uint64_t> kByteUnits[] = {
    {"bytes", 1}, {"kbytes", 1024}, {"mbytes", 1024 * 1024}};

uint64_t threshold_bytes(const ConfigLine& l, std::string_view value, std::string_view unit) {
  const int n = number(l, value, 0, 2'000'000'000, "a threshold");
  for (const auto& [name, bytes] : kByteUnits)
    if (unit == name) return static_cast<uint64_t>(n) * bytes;
  if (unit == "segments" || unit == "milliseconds" || unit == "microseconds")
    bad(l, "ECN threshold in " + quote(unit) + ": not a unit fabricctl can read as bytes");
  bad(l, quote(unit) + " is not an ECN threshold unit (bytes, kbytes, mbytes)");
}

/// `random-detect ecn minimum-threshold A U maximum-threshold B U [max-mark-probability P] [weight W]`.
EcnQueue ecn_of(const ConfigLine& l, int tc) {
  const Words& w = l.words;
  if (w.size() < 8 || w[5] != "maximum-threshold") bad(l, quote(l.text) + " is not a complete ECN line");
  EcnQueue e;
  e.tc = tc;
  e.min_bytes = threshold_bytes(l, w[3], w[4]);
  e.max_bytes = threshold_bytes(l, w[6], w[7]);
  e.probability_pct = 100;  // EOS's default max-mark-probability
  for (size_t i = 8; i < w.size(); i += 2) {
    if (i + 1 >= w.size()) bad(l, quote(w[i]) + " has no value");
    if (w[i] == "max-mark-probability") e.probability_pct = number(l, w[i + 1], 1, 100, "a probability");
    else if (w[i] == "weight") number(l, w[i + 1], 0, 15, "a weight");  // not part of observed state
    else bad(l, quote(w[i]) + " is not an ECN option (max-mark-probability, weight)");
  }
  return e;
}

void queue_line(const ConfigLine& l, QueueLines& q, int tc) {
  const Words& w = l.words;
  if (w == Words{"priority", "strict"}) q.strict = true;
  else if (w == Words{"no", "priority"}) q.strict = false;
  else if (w.size() == 3 && starts(w, {"bandwidth", "percent"})) q.bandwidth_pct = number(l, w[2], 1, 100, "a percent");
  else if (starts(w, {"no", "bandwidth", "percent"})) q.bandwidth_pct.reset();
  else if (starts(w, {"random-detect", "ecn", "minimum-threshold"})) q.ecn = ecn_of(l, tc);
  else if (starts(w, {"no", "random-detect", "ecn"})) q.ecn.reset();
  // Anything else (`bandwidth guaranteed`, `shape rate`, `random-detect ecn count`, drop thresholds) is
  // not observed state.
}

/// `... pause watchdog port timer timeout S polling-interval auto|S recovery-time S [forced]`.
void port_timer(const ConfigLine& l, BlockLines& b) {
  const Words& w = l.words;
  for (size_t i = 5; i < w.size(); i += 2) {
    if (w[i] == "forced" && i + 1 == w.size()) break;
    if (i + 1 >= w.size()) bad(l, quote(w[i]) + " has no value");
    if (w[i] == "timeout") b.watchdog_timeout_ms = milliseconds(l, w[i + 1]);
    else if (w[i] == "recovery-time") b.watchdog_recovery_ms = milliseconds(l, w[i + 1]);
    else if (w[i] == "polling-interval")
      b.watchdog_poll_ms = w[i + 1] == "auto" ? std::optional<int>() : milliseconds(l, w[i + 1]);
    else bad(l, quote(w[i]) + " is not a watchdog timer (timeout, polling-interval, recovery-time)");
  }
}

void block_line(const ConfigLine& l, BlockLines& b) {
  const Words& w = l.words;
  if (w.size() == 2 && w[0] == "mtu") b.mtu = number(l, w[1], 68, 65535, "an MTU");
  else if (w.size() == 3 && starts(w, {"qos", "trust"})) {
    if (w[2] == "dscp") b.trust = Trust::dscp;
    else if (w[2] == "cos") b.trust = Trust::pcp;
    else bad(l, quote(w[2]) + " is not a trust mode (dscp, cos)");
  } else if (w == Words{"no", "qos", "trust"}) b.trust = std::optional<Trust>();
  else if (w == Words{"no", "switchport"}) b.routed = true;
  else if (w == Words{"switchport"}) b.routed = false;
  else if (w == Words{"priority-flow-control", "on"}) b.pfc = true;
  else if (w == Words{"no", "priority-flow-control"} || w == Words{"priority-flow-control", "off"}) b.pfc = false;
  else if (starts(w, {"priority-flow-control", "priority"}) || starts(w, {"no", "priority-flow-control", "priority"})) {
    const bool no = w[0] == "no";
    const size_t at = no ? 3 : 2;
    // `no priority-flow-control priority N`, without drop|no-drop, is how older releases' `show
    // running-config all` prints a priority that is not no-drop.
    if (no && w.size() == at + 1) {
      b.no_drop.at(static_cast<size_t>(number(l, w[at], 0, kPriorities - 1, "a priority"))) = false;
      return;
    }
    if (w.size() != at + 2 || (w[at + 1] != "no-drop" && w[at + 1] != "drop"))
      bad(l, quote(l.text) + " is not `priority-flow-control priority <0-7> no-drop|drop`");
    b.no_drop.at(static_cast<size_t>(number(l, w[at], 0, kPriorities - 1, "a priority"))) =
        !no && w[at + 1] == "no-drop";
  } else if (w == Words{"priority-flow-control", "pause", "watchdog"}) b.watchdog = true;
  else if (w == Words{"no", "priority-flow-control", "pause", "watchdog"}) b.watchdog = false;
  else if (w.size() == 6 && starts(w, {"priority-flow-control", "pause", "watchdog", "port", "action"}))
    b.watchdog_action = action(l, w[5]);
  else if (starts(w, {"priority-flow-control", "pause", "watchdog", "port", "timer"})) port_timer(l, b);
  else if (w.size() == 2 && w[0] == "service-profile") b.service_profile = std::string(w[1]);
}

void global_line(const ConfigLine& l, GlobalLines& g) {
  const Words& w = l.words;
  if (starts(w, {"qos", "map", "dscp"})) {
    const auto [dscps, to] = list_to(l, 3, kDscpValues - 1, "a DSCP");
    if (w[to + 1] != "traffic-class") bad(l, quote(l.text) + " is not `qos map dscp <list> to traffic-class <0-7>`");
    if (w.size() != to + 3 && !(w.size() == to + 5 && w[to + 3] == "drop-precedence"))
      bad(l, quote(l.text) + " is not `qos map dscp <list> to traffic-class <0-7>`");
    const int p = number(l, w[to + 2], 0, kPriorities - 1, "a traffic-class");
    for (const int d : dscps) g.dscp_to_priority.at(static_cast<size_t>(d)) = p;
  } else if (starts(w, {"qos", "map", "traffic-class"})) {
    // A switch may have more traffic classes than the 8 priorities fabricctl classifies into (`show
    // running-config all` of older releases lists them all): those no priority reaches are not read.
    const auto [classes, to] = list_to(l, 3, kMaxEosTrafficClass, "a traffic-class");
    if (w[to + 1] != "tx-queue" && w[to + 1] != "uc-tx-queue") return;  // to dscp, cos, mc-tx-queue: not read
    const int q = number(l, w[to + 2], 0, kMaxEosTrafficClass, "a queue");
    for (const int p : classes)
      if (p < kPriorities) {
        if (q >= kTrafficClasses)
          bad(l, "traffic-class " + std::to_string(p) + " to queue " + std::to_string(q) +
                     ": fabricctl reads queues 0-" + std::to_string(kTrafficClasses - 1));
        g.priority_to_tc.at(static_cast<size_t>(p)) = q;
      }
  } else if (w.size() == 6 && starts(w, {"priority-flow-control", "pause", "watchdog", "default"})) {
    const int ms = milliseconds(l, w[5]);
    if (w[4] == "timeout") g.watchdog_timeout_ms = ms;
    else if (w[4] == "recovery-time") g.watchdog_recovery_ms = ms;
    else if (w[4] == "polling-interval") g.watchdog_poll_ms = ms;
    else bad(l, quote(w[4]) + " is not a watchdog timer (timeout, recovery-time, polling-interval)");
  } else if (w.size() == 5 && starts(w, {"priority-flow-control", "pause", "watchdog", "action"})) {
    g.watchdog_action = action(l, w[4]);
  }
}

constexpr size_t kMaxBlocks = 20000;

}  // namespace

Expected<RunningConfig> parse_running_config(std::string_view text) {
  RunningConfig c;
  std::map<std::string, size_t, std::less<>> interface_at;
  BlockLines* block = nullptr;
  QueueLines* queue = nullptr;
  int queue_tc = 0;
  std::string global_error;
  const auto walked = walk_config(text, [&](const ConfigLine& l) {
    if (l.separator || !global_error.empty()) return;
    try {
      if (l.scope == Scope::top) {
        block = nullptr;
        queue = nullptr;
        if (l.words.size() == 2 && l.words[0] == "interface") {
          const std::string name(l.words[1]);
          auto it = interface_at.find(name);
          if (it == interface_at.end()) {
            if (c.interfaces.size() == kMaxBlocks) bad(l, "more than " + std::to_string(kMaxBlocks) + " interfaces");
            it = interface_at.emplace(name, c.interfaces.size()).first;
            c.interfaces.emplace_back(name, BlockLines{});
          }
          block = &c.interfaces[it->second].second;
        } else if (l.words.size() == 3 && l.words[0] == "qos" && l.words[1] == "profile") {
          if (c.profiles.size() == kMaxBlocks) bad(l, "more than " + std::to_string(kMaxBlocks) + " qos profiles");
          block = &c.profiles[std::string(l.words[2])];
        } else if (l.words == Words{"end"}) {
          c.ended = true;
        } else {
          global_line(l, c.global);
        }
        return;
      }
      if (block == nullptr || !block->error.empty()) return;
      try {
        if (l.scope == Scope::block) {
          queue = nullptr;
          if (queue_header(l.words)) {
            queue_tc = number(l, l.words[1], 0, kTrafficClasses - 1, "a queue");
            queue = &block->queues[queue_tc];
          } else {
            block_line(l, *block);
          }
        } else if (l.scope == Scope::queue && queue != nullptr) {
          queue_line(l, *queue, queue_tc);
        }
      } catch (const LineError& e) {
        block->error = e.message;  // that port (or the ports of that profile) unreadable, the others read
      }
    } catch (const LineError& e) {
      global_error = e.message;
    }
  });
  if (!walked) return unexpected(walked.error());
  if (!global_error.empty()) return unexpected(global_error);
  return c;
}

namespace {

// EOS's defaults where no line is written, as far as known (the reference notes; context.cpp writes
// every value it manages for the same reason):
// - DSCP d lands in the traffic-class of COS d/8, and COS 0 in traffic-class 1, COS 1 in 0, COS n in n.
// - traffic-class (our priority) n goes to queue n.
// - trust: DSCP on a routed port (`no switchport`), COS on a switched one.
// - PFC off; every priority drop; queues strict priority without ECN.
// - The watchdog runs on a port with PFC on once its global timeout is set, unless the port says
//   `no priority-flow-control pause watchdog`; action drop.
int default_priority_of_dscp(int dscp) {
  const int cos = dscp / 8;
  return cos == 0 ? 1 : cos == 1 ? 0 : cos;
}

template <typename T>
void over(std::optional<T>& base, const std::optional<T>& top) {
  if (top) base = top;
}

/// The port's lines over those of its qos profile: what the interface writes wins.
BlockLines merged(const BlockLines& profile, const BlockLines& own) {
  BlockLines b = profile;
  over(b.mtu, own.mtu);
  over(b.trust, own.trust);
  b.routed = own.routed;
  over(b.pfc, own.pfc);
  for (size_t p = 0; p < b.no_drop.size(); ++p) over(b.no_drop.at(p), own.no_drop.at(p));
  over(b.watchdog, own.watchdog);
  over(b.watchdog_action, own.watchdog_action);
  over(b.watchdog_timeout_ms, own.watchdog_timeout_ms);
  over(b.watchdog_recovery_ms, own.watchdog_recovery_ms);
  over(b.watchdog_poll_ms, own.watchdog_poll_ms);
  for (const auto& [tc, q] : own.queues) {
    QueueLines& into = b.queues[tc];
    over(into.strict, q.strict);
    over(into.bandwidth_pct, q.bandwidth_pct);
    over(into.ecn, q.ecn);
  }
  return b;
}

/// The port's watchdog; nothing when a timer it runs with is not known (`polling-interval auto`, or a
/// timer EOS defaults that no line sets: EOS's own default values are not in the reference).
std::optional<Watchdog> watchdog_of(const GlobalLines& g, const BlockLines& b, bool pfc) {
  Watchdog w;
  const std::optional<int> timeout = b.watchdog_timeout_ms ? b.watchdog_timeout_ms : g.watchdog_timeout_ms;
  w.enabled = pfc && b.watchdog.value_or(true) && timeout.has_value();
  if (!w.enabled) return Watchdog{};
  w.detection_ms = *timeout;
  const std::optional<int> recovery = b.watchdog_recovery_ms ? b.watchdog_recovery_ms : g.watchdog_recovery_ms;
  const std::optional<int> poll = b.watchdog_poll_ms ? *b.watchdog_poll_ms : g.watchdog_poll_ms;
  if (!recovery || !poll) return std::nullopt;
  w.restoration_ms = *recovery;
  w.poll_interval_ms = *poll;
  w.action = b.watchdog_action.value_or(g.watchdog_action.value_or(WatchdogAction::drop));
  return w;
}

}  // namespace

Expected<PortObserved> port_from_running_config(const RunningConfig& config, std::string_view name) {
  static const BlockLines kNone;
  const BlockLines* own = &kNone;
  for (const auto& [n, b] : config.interfaces)
    if (n == name) own = &b;
  if (!own->error.empty()) return unexpected(own->error);
  BlockLines b = *own;
  if (own->service_profile) {
    const auto it = config.profiles.find(*own->service_profile);
    if (it == config.profiles.end())
      return unexpected("service-profile " + quote(*own->service_profile) +
                        " is not a qos profile of the running-config");
    if (!it->second.error.empty()) return unexpected("qos profile " + quote(it->first) + ": " + it->second.error);
    b = merged(it->second, *own);
  }
  const GlobalLines& g = config.global;
  PortObserved p;
  p.name = std::string(name);
  p.mtu = b.mtu;
  p.trust = b.trust ? *b.trust : std::optional<Trust>(b.routed ? Trust::dscp : Trust::pcp);
  p.dscp_to_priority.emplace();
  for (int d = 0; d < kDscpValues; ++d)
    p.dscp_to_priority->at(static_cast<size_t>(d)) =
        g.dscp_to_priority.at(static_cast<size_t>(d)).value_or(default_priority_of_dscp(d));
  p.priority_to_tc.emplace();
  for (int prio = 0; prio < kPriorities; ++prio)
    p.priority_to_tc->at(static_cast<size_t>(prio)) = g.priority_to_tc.at(static_cast<size_t>(prio)).value_or(prio);
  const bool pfc = b.pfc.value_or(false);
  p.lossless.emplace();
  for (size_t prio = 0; prio < kPriorities; ++prio) p.lossless->at(prio) = pfc && b.no_drop.at(prio).value_or(false);
  p.watchdog = watchdog_of(g, b, pfc);
  p.tc.emplace();
  p.ecn.emplace();
  for (int tc = 0; tc < kTrafficClasses; ++tc) {
    TcSchedule& s = p.tc->at(static_cast<size_t>(tc));
    s.used = std::find(p.priority_to_tc->begin(), p.priority_to_tc->end(), tc) != p.priority_to_tc->end();
    const auto q = b.queues.find(tc);
    s.strict = q == b.queues.end() || q->second.strict.value_or(true);
    s.bandwidth_pct = s.strict || q == b.queues.end() ? 0 : q->second.bandwidth_pct.value_or(0);
    if (q != b.queues.end() && q->second.ecn) p.ecn->push_back(*q->second.ecn);
  }
  return p;
}

namespace {

/// A line that may hold a credential, whatever block it is in.
bool secret_like(std::string_view line) {
  std::string lower(line);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const std::string_view w : {"key", "secret", "password", "community"})
    if (lower.find(w) != std::string::npos) return true;
  return false;
}

/// The first words of the lines parse_running_config() reads, by scope.
bool kept(const ConfigLine& l) {
  const Words& w = l.words;
  switch (l.scope) {
    case Scope::top:
      return w == Words{"end"} || starts(w, {"interface"}) || starts(w, {"qos", "profile"}) ||
             starts(w, {"qos", "map", "dscp"}) || starts(w, {"qos", "map", "traffic-class"}) ||
             starts(w, {"priority-flow-control", "pause", "watchdog"});
    case Scope::block:
      return queue_header(w) || starts(w, {"mtu"}) || starts(w, {"qos", "trust"}) ||
             starts(w, {"no", "qos", "trust"}) || w == Words{"no", "switchport"} || w == Words{"switchport"} ||
             starts(w, {"priority-flow-control"}) || starts(w, {"no", "priority-flow-control"}) ||
             starts(w, {"service-profile"});
    case Scope::queue:
      return starts(w, {"priority"}) || starts(w, {"no", "priority"}) || starts(w, {"bandwidth", "percent"}) ||
             starts(w, {"random-detect", "ecn", "minimum-threshold"});
    case Scope::elsewhere: return false;
  }
  return false;
}

}  // namespace

std::string keep_running_config(std::string_view text) {
  std::string out;
  const auto walked = walk_config(text, [&](const ConfigLine& l) {
    if (secret_like(l.text)) return;
    if (l.separator && l.text.rfind("!!", 0) == 0) return;  // comments may say anything
    if (l.separator ? l.scope == Scope::top || l.scope == Scope::block : kept(l)) {
      out.append(l.scope == Scope::top ? 0 : l.scope == Scope::queue ? 6 : 3, ' ');
      out.append(l.separator ? "!" : l.text);  // a comment after `!` may say anything
      out += '\n';
    }
  });
  return walked ? out : std::string();
}

}  // namespace fabricctl::eos
