#include "platform/junos/running.h"

#include <algorithm>
#include <array>
#include <optional>
#include <regex>
#include <set>

#include "platform/cli_text.h"
#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::junos {
namespace {

constexpr size_t kMaxBytes = size_t{32} << 20;  // a large switch's configuration is a few MB
constexpr size_t kMaxLines = 1'000'000;
constexpr size_t kMaxLineBytes = 4096;
constexpr int kDefaultMediaMtu = 1514;  // Junos's default on Ethernet ports (docs/reference-junos.md)
// The watchdog's defaults where `pfc-watchdog` sets none: a 100 ms poll, detection after 2 polls,
// recovery after 200 ms (Juniper, "PFC Watchdog").
constexpr int kDefaultPollMs = 100;
constexpr int kDefaultDetectionPolls = 2;
constexpr int kDefaultRecoveryMs = 200;

using Words = std::vector<std::string_view>;

/// A line without the CR and trailing spaces a CLI may print after it.
std::string_view trimmed(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  return line;
}

/// A malformed statement fabricctl reads: "`set ...`: WHY".
struct BadStatement {
  std::string message;
};

[[noreturn]] void bad(std::string_view statement, const std::string& why) {
  throw BadStatement{"`set " + printable(statement, 120) + "`: " + why};
}

int number(std::string_view statement, std::string_view word, int lo, int hi) {
  const std::optional<int64_t> n =
      !word.empty() && word.find_first_not_of("0123456789") == std::string_view::npos ? parse_int(word) : std::nullopt;
  if (!n) bad(statement, quote(word) + " is not a number");
  if (*n < lo || *n > hi)
    bad(statement, quote(word) + " is out of range " + std::to_string(lo) + "-" + std::to_string(hi));
  return static_cast<int>(*n);
}

/// The values of a leaf list: one word, or `[ a b ... ]`.
Words members(std::string_view statement, const Words& w, size_t from) {
  if (from >= w.size()) bad(statement, "a value is missing");
  if (w[from] != "[") return {w[from]};
  Words out;
  for (size_t i = from + 1; i < w.size(); ++i) {
    if (w[i] == "]") return out;
    out.push_back(w[i]);
  }
  bad(statement, "a list is not closed by `]`");
}

// Junos's predefined code point aliases (RFC 2474/2597/3246 names; docs/reference-junos.md, "DSCP
// classifiers and code points"); a configuration may define more (code-point-aliases).
constexpr std::array<std::pair<std::string_view, int>, 23> kDscpAliases = {{
    {"be", 0},    {"cs1", 8},  {"af11", 10}, {"af12", 12}, {"af13", 14}, {"cs2", 16}, {"af21", 18}, {"af22", 20},
    {"af23", 22}, {"cs3", 24}, {"af31", 26}, {"af32", 28}, {"af33", 30}, {"cs4", 32}, {"af41", 34}, {"af42", 36},
    {"af43", 38}, {"cs5", 40}, {"ef", 46},   {"cs6", 48},  {"cs7", 56},  {"nc1", 48}, {"nc2", 56},
}};
// IEEE 802.1p aliases (UNCONFIRMED: Junos's default 802.1p alias table, as commonly printed).
constexpr std::array<std::pair<std::string_view, int>, 8> kPcpAliases = {{
    {"be", 0},
    {"be1", 1},
    {"ef", 2},
    {"ef1", 3},
    {"af11", 4},
    {"af12", 5},
    {"nc1", 6},
    {"nc2", 7},
}};

struct ForwardingClass {
  int queue = -1;
  bool no_loss = false;
  std::optional<int> pfc_priority;
};

struct Cnp {
  std::set<int> dscp_pfc;                  // input dscp code points with pfc
  std::set<int> pcp_pfc;                   // input ieee-802.1 code points with pfc
  std::map<int, std::vector<int>> output;  // priority -> flow-control queues
  bool watchdog = false;
  int poll_ms = kDefaultPollMs;
  int detection_polls = kDefaultDetectionPolls;
  int recovery_ms = kDefaultRecoveryMs;
  WatchdogAction action = WatchdogAction::drop;
};

struct DropProfile {
  std::vector<int> fill;         // percent
  std::vector<int> probability;  // percent
};

struct Scheduler {
  std::optional<int> rate_pct;
  bool strict = false;
  bool ecn = false;
  std::string drop_profile;
};

struct Binding {
  std::optional<std::string> cnp, scheduler_map, classifier_kind, classifier;
};

/// Everything the statements say, by name; a malformed statement is kept as the error of the object it
/// belongs to, so that only what leads to it is unreadable.
struct Parsed {
  std::map<std::string, std::map<std::string, int>> aliases;  // kind -> alias -> value (user-defined)
  std::map<std::string, ForwardingClass, std::less<>> classes;
  std::map<std::string, std::map<int, std::string>, std::less<>> classifiers;  // "dscp NAME" -> code -> class
  std::map<std::string, Cnp, std::less<>> cnps;
  std::map<std::string, DropProfile, std::less<>> drop_profiles;
  std::map<std::string, Scheduler, std::less<>> schedulers;
  std::map<std::string, std::map<std::string, std::string>, std::less<>> scheduler_maps;  // fc -> scheduler
  std::map<std::string, Binding, NaturalLess> bindings;  // interface or wildcard -> its bindings
  std::map<std::string, int, NaturalLess> media_mtu;
  std::map<std::string, std::string, std::less<>> errors;  // "scheduler NAME" -> why
};

int code_point(const Parsed& p, std::string_view statement, std::string_view kind, std::string_view word) {
  const size_t bits = kind == "dscp" || kind == "dscp-ipv6" ? 6 : 3;
  if (word.size() == bits && word.find_first_not_of("01") == std::string_view::npos) {
    int v = 0;
    for (char c : word) v = v * 2 + (c - '0');
    return v;
  }
  if (const auto k = p.aliases.find(std::string(kind)); k != p.aliases.end())
    if (const auto a = k->second.find(std::string(word)); a != k->second.end()) return a->second;
  if (kind == "dscp") {
    for (const auto& [alias, v] : kDscpAliases)
      if (alias == word) return v;
  } else {
    for (const auto& [alias, v] : kPcpAliases)
      if (alias == word) return v;
  }
  bad(statement, quote(word) + " is neither " + std::to_string(bits) + " bits nor a code point alias");
}

void read_class(Parsed& p, std::string_view s, const Words& w) {  // forwarding-classes class NAME ...
  ForwardingClass& fc = p.classes[std::string(w[3])];
  for (size_t i = 4; i < w.size(); ++i) {
    if (w[i] == "no-loss") fc.no_loss = true;
    else if (w[i] == "queue-num" && i + 1 < w.size()) fc.queue = number(s, w[++i], 0, 15);
    else if (w[i] == "pfc-priority" && i + 1 < w.size()) fc.pfc_priority = number(s, w[++i], 0, 7);
    else if (w[i] == "priority" && i + 1 < w.size()) ++i;  // a class's fabric priority: not QoS fabricctl reads
    else bad(s, quote(w[i]) + " is not a forwarding class setting fabricctl reads");
  }
}

void read_classifier(Parsed& p, std::string_view s, const Words& w) {
  // classifiers KIND NAME forwarding-class FC loss-priority LP code-points CP|[ ... ]
  if (w.size() < 5) return;  // `classifiers dscp NAME` alone, or an import: nothing classified
  auto& table = p.classifiers[std::string(w[2]) + " " + std::string(w[3])];
  if (w[4] == "import") bad(s, "an imported classifier is not read by fabricctl");
  if (w[4] != "forwarding-class" || w.size() < 6) bad(s, "expected `forwarding-class NAME`");
  const std::string fc(w[5]);
  size_t i = 6;
  if (i < w.size() && w[i] == "loss-priority") i += 2;
  if (i >= w.size()) return;
  if (w[i] != "code-points") bad(s, quote(w[i]) + " is not a classifier setting fabricctl reads");
  for (std::string_view m : members(s, w, i + 1)) table[code_point(p, s, w[2], m)] = fc;
}

void read_cnp(Parsed& p, std::string_view s, const Words& w) {  // congestion-notification-profile NAME ...
  Cnp& c = p.cnps[std::string(w[2])];
  if (w.size() < 4) return;
  if (w[3] == "pfc-watchdog") {
    c.watchdog = true;
    if (w.size() < 6) return;
    if (w[4] == "poll-interval") c.poll_ms = number(s, w[5], 1, 65535);
    else if (w[4] == "detection") c.detection_polls = number(s, w[5], 1, 1'000'000);
    else if (w[4] == "recovery") c.recovery_ms = number(s, w[5], 1, 65535);
    else if (w[4] == "watchdog-action" && (w[5] == "drop" || w[5] == "forward"))
      c.action = w[5] == "drop" ? WatchdogAction::drop : WatchdogAction::forward;
    else bad(s, quote(w[4]) + " " + quote(w[5]) + " is not a watchdog setting fabricctl reads");
    return;
  }
  // input dscp|ieee-802.1 code-point B pfc [mru N] [xon N]; output ieee-802.1 code-point B flow-control-queue Q
  if (w[3] == "input" && w.size() >= 5 && w[4] == "cable-length") return;  // headroom: not read
  if (w.size() < 8 || w[5] != "code-point") bad(s, "expected `" + std::string(w[3]) + " KIND code-point BITS ...`");
  if (w[3] == "input" && (w[4] == "dscp" || w[4] == "ieee-802.1")) {
    const int v = code_point(p, s, w[4], w[6]);
    if (w[7] == "pfc") (w[4] == "dscp" ? c.dscp_pfc : c.pcp_pfc).insert(v);
    else if (w[7] != "mru" && w[7] != "xon") bad(s, quote(w[7]) + " is not a code point setting fabricctl reads");
    return;
  }
  if (w[3] == "output" && w[4] == "ieee-802.1" && w[7] == "flow-control-queue") {
    std::vector<int>& queues = c.output[code_point(p, s, w[4], w[6])];
    for (std::string_view m : members(s, w, 8)) queues.push_back(number(s, m, 0, 7));
    return;
  }
  bad(s, "not a congestion notification setting fabricctl reads");
}

void read_drop_profile(Parsed& p, std::string_view s, const Words& w) {  // drop-profiles NAME interpolate ...
  DropProfile& d = p.drop_profiles[std::string(w[2])];
  if (w.size() < 5) return;
  if (w[3] != "interpolate" || (w[4] != "fill-level" && w[4] != "drop-probability"))
    bad(s, "not a drop profile setting fabricctl reads");
  std::vector<int>& list = w[4] == "fill-level" ? d.fill : d.probability;
  for (std::string_view m : members(s, w, 5)) list.push_back(number(s, m, 0, 100));
}

void read_scheduler(Parsed& p, std::string_view s, const Words& w) {  // schedulers NAME ...
  Scheduler& sch = p.schedulers[std::string(w[2])];
  if (w.size() < 4) return;
  if (w[3] == "transmit-rate" && w.size() >= 6 && w[4] == "percent") sch.rate_pct = number(s, w[5], 0, 100);
  else if (w[3] == "priority" && w.size() >= 5) sch.strict = w[4] == "strict-high";
  else if (w[3] == "explicit-congestion-notification") sch.ecn = true;
  else if (w[3] == "drop-profile-map" && w.size() >= 10 && w[8] == "drop-profile") sch.drop_profile = std::string(w[9]);
  else if (w[3] == "buffer-size" || w[3] == "shaping-rate" || w[3] == "excess-rate" || w[3] == "transmit-rate" ||
           w[3] == "excess-priority" || w[3] == "buffer-dynamic-threshold" || w[3] == "ecn-enhanced") {
    // Buffers, shaping and excess bandwidth: not part of fabricctl's model, kept unread.
  } else bad(s, quote(w[3]) + " is not a scheduler setting fabricctl reads");
}

void read_interface(Parsed& p, std::string_view s, const Words& w) {  // interfaces IF ...
  Binding& b = p.bindings[std::string(w[2])];
  if (w.size() == 5 && w[3] == "congestion-notification-profile") b.cnp = std::string(w[4]);
  else if (w.size() == 5 && w[3] == "scheduler-map") b.scheduler_map = std::string(w[4]);
  else if (w.size() == 8 && w[3] == "unit" && (w[4] == "0" || w[4] == "*") && w[5] == "classifiers") {
    b.classifier_kind = std::string(w[6]);
    b.classifier = std::string(w[7]);
  }
  // Other bindings (rewrite rules, forwarding-class-sets, other units): not read.
  (void)s;
}

/// Which object a class-of-service statement belongs to, for its error: "schedulers NAME".
std::string object_of(const Words& w) {
  if (w.size() < 3) return "class-of-service";
  if (w[1] == "classifiers" && w.size() >= 4) return "classifiers " + std::string(w[2]) + " " + std::string(w[3]);
  if (w[1] == "forwarding-classes" && w.size() >= 4) return "forwarding-classes " + std::string(w[3]);
  return std::string(w[1]) + " " + std::string(w[2]);
}

Parsed parse(const Statements& statements) {
  Parsed p;
  // Aliases first: a classifier may name one defined after it.
  for (const std::string& st : statements) {
    const Words w = words_of(st);
    if (w.size() != 5 || w[0] != "class-of-service" || w[1] != "code-point-aliases") continue;
    try {
      p.aliases[std::string(w[2])][std::string(w[3])] = code_point(p, st, w[2], w[4]);
    } catch (const BadStatement& e) {
      p.errors.emplace("code-point-aliases " + std::string(w[2]) + " " + std::string(w[3]), e.message);
    }
  }
  for (const std::string& st : statements) {
    const Words w = words_of(st);
    if (w.size() >= 4 && w[0] == "interfaces" && w[2] == "mtu") {
      try {
        p.media_mtu[std::string(w[1])] = number(st, w[3], 256, 65535);
      } catch (const BadStatement& e) {
        p.errors.insert_or_assign("mtu " + std::string(w[1]), e.message);
      }
      continue;
    }
    if (w.size() < 3 || w[0] != "class-of-service") continue;
    const std::string object = object_of(w);
    try {
      if (w[1] == "forwarding-classes" && w[2] == "class" && w.size() >= 4) read_class(p, st, w);
      else if (w[1] == "classifiers" && w.size() >= 4) read_classifier(p, st, w);
      else if (w[1] == "congestion-notification-profile") read_cnp(p, st, w);
      else if (w[1] == "drop-profiles") read_drop_profile(p, st, w);
      else if (w[1] == "schedulers") read_scheduler(p, st, w);
      else if (w[1] == "scheduler-maps" && w.size() >= 7 && w[3] == "forwarding-class" && w[5] == "scheduler")
        p.scheduler_maps[std::string(w[2])][std::string(w[4])] = std::string(w[6]);
      else if (w[1] == "interfaces" && w.size() >= 4) read_interface(p, st, w);
    } catch (const BadStatement& e) {
      p.errors.emplace(object, e.message);  // the first error of an object
    }
  }
  return p;
}

/// Whether a binding's interface (a name, a wildcard such as `et-*`, or `all`) covers `port`.
bool covers(std::string_view pattern, std::string_view port) {
  if (pattern == "all" || pattern == port) return true;
  const size_t star = pattern.find('*');
  if (star == std::string_view::npos) return false;
  const std::string_view head = pattern.substr(0, star), tail = pattern.substr(star + 1);
  return port.size() >= head.size() + tail.size() && port.substr(0, head.size()) == head &&
         port.substr(port.size() - tail.size()) == tail && tail.find('*') == std::string_view::npos;
}

/// The port's bindings: its own statements over those of wildcards (UNCONFIRMED precedence).
Binding binding_of(const Parsed& p, std::string_view port) {
  Binding out;
  auto merge = [&](const Binding& b) {
    if (b.cnp) out.cnp = b.cnp;
    if (b.scheduler_map) out.scheduler_map = b.scheduler_map;
    if (b.classifier) {
      out.classifier = b.classifier;
      out.classifier_kind = b.classifier_kind;
    }
  };
  for (const auto& [pattern, b] : p.bindings)
    if (pattern != port && covers(pattern, port)) merge(b);
  if (const auto own = p.bindings.find(std::string(port)); own != p.bindings.end()) merge(own->second);
  return out;
}

template <typename Map>
const typename Map::mapped_type& named(const Parsed& p, const Map& map, std::string_view what,
                                       const std::string& name) {
  if (const auto e = p.errors.find(std::string(what) + " " + name); e != p.errors.end()) throw BadStatement{e->second};
  const auto it = map.find(name);
  if (it == map.end()) throw BadStatement{std::string(what) + " " + quote(name) + " is not defined"};
  return it->second;
}

const ForwardingClass& forwarding_class(const Parsed& p, const std::string& name) {
  const ForwardingClass& fc = named(p, p.classes, "forwarding-classes", name);
  if (fc.queue < 0) throw BadStatement{"forwarding class " + quote(name) + " has no queue-num"};
  return fc;
}

/// The priority a class stands for: its PFC priority, else its queue (a class per priority).
int priority_of(const ForwardingClass& fc) { return fc.pfc_priority.value_or(std::min(fc.queue, kPriorities - 1)); }

PortObserved port_state(const Parsed& p, const std::string& name) {
  if (const auto e = p.errors.find("mtu " + name); e != p.errors.end()) throw BadStatement{e->second};
  const Binding b = binding_of(p, name);
  PortObserved port;
  port.name = name;
  const auto mtu = p.media_mtu.find(name);
  port.mtu = (mtu == p.media_mtu.end() ? kDefaultMediaMtu : mtu->second) - kMediaMtuOverhead;

  // Classification. Without a classifier: IEEE 802.1p, each priority its own queue (UNCONFIRMED default).
  std::array<int, kPriorities> p2t{};
  for (int pr = 0; pr < kPriorities; ++pr) p2t[static_cast<size_t>(pr)] = pr;
  for (const auto& [fc_name, fc] : p.classes)
    if (fc.queue >= 0 && fc.queue < kTrafficClasses && priority_of(fc) < kPriorities)
      p2t[static_cast<size_t>(priority_of(fc))] = fc.queue;
  std::array<int, kDscpValues> dscp{};
  std::array<std::string, kDscpValues> dscp_class;  // the forwarding class of each DSCP, "" unlisted
  port.trust = Trust::pcp;
  if (b.classifier) {
    const std::string key = *b.classifier_kind + " " + *b.classifier;
    const auto& table = named(p, p.classifiers, "classifiers", key);
    if (*b.classifier_kind == "dscp") {
      port.trust = Trust::dscp;
      // A code point the classifier does not list: best effort, priority 0 (UNCONFIRMED).
      for (const auto& [code, fc] : table)
        if (code < kDscpValues) {
          dscp[static_cast<size_t>(code)] = priority_of(forwarding_class(p, fc));
          dscp_class[static_cast<size_t>(code)] = fc;
        }
    } else if (*b.classifier_kind == "ieee-802.1") {
      for (const auto& [code, fc] : table)
        if (code < kPriorities) p2t[static_cast<size_t>(code)] = forwarding_class(p, fc).queue;
    } else {
      throw BadStatement{"classifier kind " + quote(*b.classifier_kind) + " is not read by fabricctl"};
    }
  }
  port.dscp_to_priority = dscp;
  port.priority_to_tc = p2t;

  // PFC: the profile enables it on input for the priority and honours it on output, and the priority's
  // class is no-loss.
  std::array<bool, kPriorities> lossless{};
  Watchdog wd;
  if (b.cnp) {
    const Cnp& c = named(p, p.cnps, "congestion-notification-profile", *b.cnp);
    for (int pr = 0; pr < kPriorities; ++pr) {
      const auto out = c.output.find(pr);
      if (out == c.output.end() || out->second.empty()) continue;
      // The priority's lossless class, and pause frames sent for all its packets: each DSCP classified
      // to that class has `pfc` on input (DSCP trust; none classified is none missing), or the
      // priority's 802.1 code point has (PCP trust).
      std::set<std::string> classes;
      for (const auto& [fc_name, fc] : p.classes)
        if (fc.no_loss && priority_of(fc) == pr) classes.insert(fc_name);
      bool input = !classes.empty() && (port.trust == Trust::dscp || c.pcp_pfc.count(pr) > 0);
      if (port.trust == Trust::dscp)
        for (int d = 0; d < kDscpValues; ++d)
          input = input && (!classes.count(dscp_class[static_cast<size_t>(d)]) || c.dscp_pfc.count(d) > 0);
      const bool no_loss = !classes.empty();
      lossless[static_cast<size_t>(pr)] = input && no_loss;
    }
    wd.enabled = c.watchdog;
    wd.poll_interval_ms = c.poll_ms;
    wd.detection_ms = static_cast<int>(std::min<int64_t>(int64_t{c.poll_ms} * c.detection_polls, 1'000'000'000));
    wd.restoration_ms = c.recovery_ms;
    wd.action = c.action;
  }
  port.lossless = lossless;
  port.watchdog = wd;

  // Scheduling and ECN, from the scheduler map. Without one: no queue scheduled by fabricctl's terms.
  std::array<TcSchedule, kTrafficClasses> tc{};
  std::vector<EcnQueue> ecn;
  bool ecn_known = true;
  if (b.scheduler_map) {
    for (const auto& [fc_name, sch_name] : named(p, p.scheduler_maps, "scheduler-maps", *b.scheduler_map)) {
      const ForwardingClass& fc = forwarding_class(p, fc_name);
      if (fc.queue >= kTrafficClasses) continue;  // a multidestination queue
      const Scheduler& s = named(p, p.schedulers, "schedulers", sch_name);
      TcSchedule& t = tc[static_cast<size_t>(fc.queue)];
      t.used = true;
      t.strict = s.strict;
      t.bandwidth_pct = s.strict ? 0 : s.rate_pct.value_or(0);
      if (!s.ecn || s.drop_profile.empty()) continue;
      const DropProfile& d = named(p, p.drop_profiles, "drop-profiles", s.drop_profile);
      const std::optional<uint64_t> buffer = ecn_buffer_of(s.drop_profile);
      if (!buffer) {
        // A site's own drop profile: its fill levels are percents of a buffer no output states, so its
        // thresholds cannot be told in bytes; ECN is then not known (plan replaces it with fabricctl's).
        ecn_known = false;
        continue;
      }
      if (d.fill.empty() || d.probability.empty())
        throw BadStatement{"drop profile " + quote(s.drop_profile) + " has no fill levels or probabilities"};
      ecn.push_back({fc.queue, d.fill.front() * *buffer / 100, d.fill.back() * *buffer / 100, d.probability.back()});
    }
  }
  std::sort(ecn.begin(), ecn.end(), [](const EcnQueue& a, const EcnQueue& z) { return a.tc < z.tc; });
  port.tc = tc;
  if (ecn_known) port.ecn = ecn;
  return port;
}

}  // namespace

bool front_panel_port(std::string_view name) {
  static const std::regex kPort(R"((et|xe|ge)-[0-9]{1,2}/[0-9]{1,2}/[0-9]{1,3}(:[0-9]{1,2})?)");
  return name.size() <= 32 && std::regex_match(name.begin(), name.end(), kPort);
}

std::string keep_configuration(std::string_view text) {
  std::string out;
  for (std::string_view line : text_lines(text)) {
    line = trimmed(line);
    if (line.size() > kMaxLineBytes) continue;
    bool keep = false;
    for (std::string_view verb : {"set", "deactivate"}) {
      if (line.rfind(verb, 0) != 0 || line.size() <= verb.size() || line[verb.size()] != ' ') continue;
      const Words w = words_of(line.substr(verb.size() + 1));
      // A set statement of a port's MTU has 4 words; what deactivates it, 2 (the port) or 3 (its mtu).
      const bool mtu =
          w.size() >= 2 && w[0] == "interfaces" &&
          (verb == "set" ? w.size() == 4 && w[2] == "mtu" : w.size() == 2 || (w.size() == 3 && w[2] == "mtu"));
      keep = keep || (!w.empty() && w[0] == "class-of-service") || mtu;
    }
    if (!keep) continue;
    out.append(line);
    out += '\n';
  }
  return out;
}

Expected<Statements> read_statements(std::string_view output, std::vector<std::string>* deactivated) {
  if (output.size() > kMaxBytes) return unexpected("over " + std::to_string(kMaxBytes) + " bytes");
  if (output.find('\0') != std::string_view::npos) return unexpected("holds a NUL byte");
  const std::vector<std::string_view> lines = text_lines(output);
  if (lines.size() > kMaxLines) return unexpected("over " + std::to_string(kMaxLines) + " lines");
  Statements set;
  std::vector<std::string> inactive;
  for (std::string_view line : lines) {
    line = trimmed(line);
    if (line.empty() || line.front() == '{' || line.front() == '#') continue;  // a prompt, a comment
    if (line.size() > kMaxLineBytes)
      return unexpected("a line of over " + std::to_string(kMaxLineBytes) +
                        " bytes: " + quote(printable(line.substr(0, 64), 64)));
    if (line.rfind("set ", 0) == 0) set.emplace_back(line.substr(4));
    else if (line.rfind("deactivate ", 0) == 0) inactive.emplace_back(line.substr(11));
    else return unexpected("not a `set` statement: " + quote(printable(line, 80)));
  }
  if (deactivated) *deactivated = inactive;
  // A deactivated statement, and all under it, is in the configuration but not in effect.
  std::erase_if(set, [&](const std::string& s) {
    return std::any_of(inactive.begin(), inactive.end(), [&](const std::string& path) {
      return s.rfind(path, 0) == 0 && (s.size() == path.size() || s[path.size()] == ' ');
    });
  });
  return set;
}

std::optional<uint64_t> ecn_buffer_of(std::string_view drop_profile) {
  if (drop_profile.rfind(kDropProfilePrefix, 0) != 0 || drop_profile.size() < 4 || drop_profile.back() != 'K')
    return std::nullopt;
  const size_t dash = drop_profile.rfind('-');
  const std::string_view kib = drop_profile.substr(dash + 1, drop_profile.size() - dash - 2);
  if (dash < kDropProfilePrefix.size() || kib.empty() || kib.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  const std::optional<int64_t> k = parse_int(kib);
  if (!k || *k <= 0 || *k > (int64_t{1} << 30)) return std::nullopt;
  return static_cast<uint64_t>(*k) * 1024;
}

RunningPorts ports_from_statements(const Statements& statements, const std::vector<std::string>& also) {
  const Parsed p = parse(statements);
  std::set<std::string, NaturalLess> names(also.begin(), also.end());
  for (const auto& [name, b] : p.bindings)
    if (name.find('*') == std::string::npos && name != "all") names.insert(name);
  for (const auto& [name, mtu] : p.media_mtu) names.insert(name);
  for (const auto& [object, why] : p.errors)
    if (object.rfind("mtu ", 0) == 0) names.insert(object.substr(4));
  RunningPorts out;
  for (const std::string& name : names) {
    if (!front_panel_port(name)) {
      if (name.rfind("et-", 0) == 0 || name.rfind("xe-", 0) == 0 || name.rfind("ge-", 0) == 0)
        out.unreadable.emplace(printable(name, 64), "not a front-panel port name (et-0/0/0, et-0/0/0:1)");
      continue;  // ae, irb, lo0, em0 and the like: not ports fabricctl reads
    }
    try {
      out.ports.emplace(name, port_state(p, name));
    } catch (const BadStatement& e) {
      out.unreadable.emplace(name, "show configuration: " + e.message);
    }
  }
  return out;
}

}  // namespace fabricctl::junos
