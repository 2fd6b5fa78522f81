#include "platform/nxos/running_config.h"

#include <array>
#include <optional>
#include <set>
#include <vector>

#include "platform/cli_text.h"
#include "util/diag.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nxos {
namespace {

constexpr size_t kMaxBytes = size_t{32} << 20;  // a large switch's running-config is a few MB
constexpr size_t kMaxLines = 1'000'000;
constexpr size_t kMaxLineBytes = 4096;
constexpr size_t kMaxDepth = 8;  // NX-OS nests three levels in what fabricctl reads
constexpr int kDefaultMtu = 1500;

/// NX-OS's watchdog defaults where no line sets them (UNCONFIRMED: commonly quoted, docs/reference-nxos.md
/// A.2): a 100 ms interval, detection after 1 interval, restoration after 10.
constexpr int kDefaultWatchdogIntervalMs = 100;
constexpr int kDefaultShutdownMultiplier = 1;
constexpr int kDefaultAutoRestoreMultiplier = 10;

/// The lines of `text` without their line ends and trailing spaces (NX-OS pads some: `version ... `).
std::vector<std::string_view> trimmed_lines(std::string_view text) {
  std::vector<std::string_view> out = text_lines(text);
  for (std::string_view& line : out)
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  return out;
}

bool skipped(std::string_view line) {
  const size_t text = line.find_first_not_of(' ');
  return text == std::string_view::npos || line[text] == '!' || line.rfind("version ", 0) == 0;
}

/// A malformed line fabricctl reads: "`LINE`: WHY".
struct BadLine {
  std::string message;
};

[[noreturn]] void bad(std::string_view line, const std::string& why) {
  throw BadLine{"`" + printable(line, 120) + "`: " + why};
}

int number(std::string_view line, std::string_view word, int lo, int hi) {
  const std::optional<int64_t> n =
      !word.empty() && word.find_first_not_of("0123456789") == std::string_view::npos ? parse_int(word) : std::nullopt;
  if (!n) bad(line, quote(word) + " is not a number");
  if (*n < lo || *n > hi) bad(line, quote(word) + " is out of range " + std::to_string(lo) + "-" + std::to_string(hi));
  return static_cast<int>(*n);
}

/// "24-31,33,48" -> {24..31, 33, 48}, each within [lo, hi].
std::vector<int> number_list(std::string_view line, std::string_view list, int lo, int hi) {
  std::vector<int> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string_view::npos) end = list.size();
    const std::string_view item = list.substr(start, end - start);
    const size_t dash = item.find('-');
    if (dash == std::string_view::npos) {
      out.push_back(number(line, item, lo, hi));
    } else {
      const int a = number(line, item.substr(0, dash), lo, hi), b = number(line, item.substr(dash + 1), lo, hi);
      if (a > b) bad(line, quote(item) + " is not a range");
      for (int v = a; v <= b; ++v) out.push_back(v);
    }
    start = end + 1;
  }
  return out;
}

bool is(const std::vector<std::string_view>& w, std::initializer_list<std::string_view> prefix) {
  if (w.size() < prefix.size()) return false;
  size_t i = 0;
  for (std::string_view p : prefix)
    if (w[i++] != p) return false;
  return true;
}

// ---- what the configuration defines, by name

/// A class map: the DSCPs or CoS values it matches.
struct ClassMap {
  std::set<int> dscp, cos;
  std::string error;  // its first bad line
};

/// One class of a qos policy, in order: the class map it names ("class-default": every packet) and the
/// qos-group it sets.
struct QosClass {
  std::string class_map;
  std::optional<int> qos_group;
};
struct QosPolicy {
  std::vector<QosClass> classes;
  std::string error;
};

/// A network-qos or queuing class of one qos-group.
struct GroupClass {
  std::set<int> pause_cos;  // network-qos `pause ... pfc-cos N`
  std::optional<int> priority_level;
  std::optional<int> bandwidth_pct;
  std::optional<EcnQueue> ecn;
};
using GroupPolicy = std::map<int, GroupClass>;  // by qos-group

struct Parsed {
  std::map<std::string, ClassMap, std::less<>> class_maps;
  std::map<std::string, QosPolicy, std::less<>> qos_policies;
  std::map<std::string, std::pair<GroupPolicy, std::string>, std::less<>> network_qos, queuing;  // policy, error
  std::string system_network_qos, system_queuing;
  std::optional<bool> watchdog;
  std::optional<int> watchdog_interval_ms, shutdown_multiplier, auto_restore_multiplier;
  std::vector<const ConfigBlock*> interfaces;
};

/// The qos-group of a system-defined class name: c-8q-nq3 -> 3, c-out-8q-q-default -> 0.
std::optional<int> group_of(std::string_view name, std::string_view prefix) {
  if (name.rfind(prefix, 0) != 0) return std::nullopt;
  const std::string_view rest = name.substr(prefix.size());
  if (rest == "-default") return 0;
  if (rest.size() == 1 && rest[0] >= '1' && rest[0] <= '7') return rest[0] - '0';
  return std::nullopt;
}

/// Bytes from an NX-OS threshold: bytes, kbytes or mbytes (1024 to the unit: UNCONFIRMED).
uint64_t threshold_bytes(std::string_view line, std::string_view value, std::string_view unit) {
  const auto n = static_cast<uint64_t>(number(line, value, 0, 1 << 30));
  if (unit == "bytes") return n;
  if (unit == "kbytes") return n * 1024;
  if (unit == "mbytes") return n * 1024 * 1024;
  bad(line, quote(unit) + " is not a unit (bytes, kbytes, mbytes)");
}

/// `random-detect minimum-threshold A U maximum-threshold B U drop-probability P weight W ecn`: the
/// marking of qos-group `tc`; without `ecn` it drops, which is no ECN.
std::optional<EcnQueue> random_detect(std::string_view line, const std::vector<std::string_view>& w, int tc) {
  if (w.size() < 10 || w[1] != "minimum-threshold" || w[4] != "maximum-threshold" || w[7] != "drop-probability")
    bad(line, "not a random-detect line fabricctl reads");
  EcnQueue e;
  e.tc = tc;
  e.min_bytes = threshold_bytes(line, w[2], w[3]);
  e.max_bytes = threshold_bytes(line, w[5], w[6]);
  e.probability_pct = number(line, w[8], 0, 100);
  if (w.back() != "ecn") return std::nullopt;
  return e;
}

void read_class_map(const ConfigBlock& b, const std::vector<std::string_view>& head, Parsed& p) {
  ClassMap& m = p.class_maps[std::string(head.back())];
  for (const ConfigBlock& c : b.children) {
    const auto w = words_of(c.line);
    try {
      if (is(w, {"match", "dscp"}) && w.size() == 3)
        for (int d : number_list(c.line, w[2], 0, 63)) m.dscp.insert(d);
      else if (is(w, {"match", "cos"}) && w.size() == 3)
        for (int v : number_list(c.line, w[2], 0, 7)) m.cos.insert(v);
      else if (!w.empty() && w[0] == "match")
        bad(c.line, "a match fabricctl does not read (it reads match dscp and match cos)");
    } catch (const BadLine& e) {
      if (m.error.empty()) m.error = e.message;
    }
  }
}

void read_qos_policy(const ConfigBlock& b, const std::vector<std::string_view>& head, Parsed& p) {
  QosPolicy& policy = p.qos_policies[std::string(head.back())];
  for (const ConfigBlock& cls : b.children) {
    const auto w = words_of(cls.line);
    // `class NAME`, or NX-OS's long form of the same, `class type qos NAME`.
    const bool long_form = w.size() == 4 && w[0] == "class" && w[1] == "type" && w[2] == "qos";
    if (!long_form && (w.size() != 2 || w[0] != "class")) continue;
    QosClass qc{std::string(w.back()), std::nullopt};
    for (const ConfigBlock& s : cls.children) {
      const auto sw = words_of(s.line);
      try {
        if (is(sw, {"set", "qos-group"}) && sw.size() == 3) qc.qos_group = number(s.line, sw[2], 0, 7);
      } catch (const BadLine& e) {
        if (policy.error.empty()) policy.error = e.message;
      }
    }
    policy.classes.push_back(std::move(qc));
  }
}

void read_group_policy(const ConfigBlock& b, const std::vector<std::string_view>& head, std::string_view class_prefix,
                       std::map<std::string, std::pair<GroupPolicy, std::string>, std::less<>>& into) {
  auto& [policy, error] = into[std::string(head.back())];
  for (const ConfigBlock& cls : b.children) {
    const auto w = words_of(cls.line);
    if (w.size() != 4 || w[0] != "class") continue;
    const std::optional<int> group = group_of(w[3], class_prefix);
    if (!group) continue;  // a 4-queue or user class: no qos-group fabricctl configures
    GroupClass& g = policy[*group];
    for (const ConfigBlock& s : cls.children) {
      const auto sw = words_of(s.line);
      try {
        if (sw.size() >= 3 && sw[0] == "pause") {
          size_t i = 1;
          while (i < sw.size() && sw[i] != "pfc-cos") ++i;
          if (i + 1 >= sw.size()) bad(s.line, "no pfc-cos value");
          for (size_t j = i + 1; j < sw.size(); ++j)
            for (int v : number_list(s.line, sw[j], 0, 7)) g.pause_cos.insert(v);
        } else if (is(sw, {"priority", "level"}) && sw.size() == 3) {
          g.priority_level = number(s.line, sw[2], 1, 8);
        } else if (is(sw, {"priority"}) && sw.size() == 1) {
          g.priority_level = 1;
        } else if (is(sw, {"bandwidth", "remaining", "percent"}) && sw.size() == 4) {
          g.bandwidth_pct = number(s.line, sw[3], 0, 100);
        } else if (is(sw, {"bandwidth", "percent"}) && sw.size() == 3) {
          g.bandwidth_pct = number(s.line, sw[2], 0, 100);
        } else if (!sw.empty() && sw[0] == "random-detect") {
          g.ecn = random_detect(s.line, sw, *group);
        }
      } catch (const BadLine& e) {
        if (error.empty()) error = e.message;
      }
    }
  }
}

void read_global(const ConfigBlock& b, Parsed& p) {
  const auto w = words_of(b.line);
  if (is(w, {"priority-flow-control", "watch-dog-interval"}) && w.size() == 3) {
    if (w[2] != "on" && w[2] != "off") bad(b.line, quote(w[2]) + " is not on or off");
    p.watchdog = w[2] == "on";
  } else if (is(w, {"priority-flow-control", "watch-dog", "interval"}) && w.size() == 4) {
    p.watchdog_interval_ms = number(b.line, w[3], 100, 1000);
  } else if (is(w, {"priority-flow-control", "watch-dog", "shutdown-multiplier"}) && w.size() == 4) {
    p.shutdown_multiplier = number(b.line, w[3], 1, 10);
  } else if (is(w, {"priority-flow-control", "auto-restore", "multiplier"}) && w.size() == 4) {
    p.auto_restore_multiplier = number(b.line, w[3], 0, 100);
  }
}

Expected<Parsed> read(const Config& config) {
  Parsed p;
  try {
    for (const ConfigBlock& b : config) {
      const auto w = words_of(b.line);
      if (is(w, {"class-map", "type", "qos"}) && w.size() >= 4) read_class_map(b, w, p);
      else if (is(w, {"policy-map", "type", "qos"}) && w.size() == 4) read_qos_policy(b, w, p);
      else if (is(w, {"policy-map", "type", "network-qos"}) && w.size() == 4)
        read_group_policy(b, w, "c-8q-nq", p.network_qos);
      else if (is(w, {"policy-map", "type", "queuing"}) && w.size() == 4)
        read_group_policy(b, w, "c-out-8q-q", p.queuing);
      else if (is(w, {"system", "qos"}) && w.size() == 2)
        for (const ConfigBlock& s : b.children) {
          const auto sw = words_of(s.line);
          if (is(sw, {"service-policy", "type", "network-qos"}) && sw.size() == 4) p.system_network_qos = sw[3];
          if (is(sw, {"service-policy", "type", "queuing", "output"}) && sw.size() == 5) p.system_queuing = sw[4];
        }
      else if (is(w, {"interface"}) && w.size() == 2) p.interfaces.push_back(&b);
      else if (!w.empty() && w[0] == "priority-flow-control") read_global(b, p);
    }
  } catch (const BadLine& e) {
    return unexpected("show running-config: " + e.message);
  }
  return p;
}

/// The attached system policy `name` of `policies`: a bad line of it fails every port.
Expected<const GroupPolicy*> system_policy(
    const std::map<std::string, std::pair<GroupPolicy, std::string>, std::less<>>& policies, const std::string& name,
    std::string_view what) {
  if (name.empty()) return static_cast<const GroupPolicy*>(nullptr);
  const auto it = policies.find(name);
  if (it == policies.end())
    return unexpected("show running-config: `system qos` attaches " + std::string(what) + " policy " + quote(name) +
                      ", which the configuration does not define");
  if (!it->second.second.empty()) return unexpected("show running-config: " + it->second.second);
  return &it->second.first;
}

/// One port's classification: the qos-group of each DSCP and CoS value, and what it matches on.
struct Classification {
  std::array<int, kDscpValues> dscp{};
  std::array<int, kPriorities> cos{};
  Trust trust = Trust::dscp;
};

Expected<Classification> classify(const Parsed& p, const std::string& policy_name) {
  Classification c;  // no policy: every packet in qos-group 0 (Cisco's QoS guide)
  if (policy_name.empty()) return c;
  const auto it = p.qos_policies.find(policy_name);
  if (it == p.qos_policies.end())
    return unexpected("its input policy " + quote(policy_name) + " is not defined in the configuration");
  const QosPolicy& policy = it->second;
  if (!policy.error.empty()) return unexpected("policy-map " + quote(policy_name) + ": " + policy.error);
  std::array<bool, kDscpValues> dscp_done{};
  std::array<bool, kPriorities> cos_done{};
  bool by_dscp = false, by_cos = false;
  // NX-OS matches class-default last, wherever a policy lists it: the other classes first, in order.
  std::vector<const QosClass*> ordered;
  for (const QosClass& qc : policy.classes)
    if (qc.class_map != "class-default") ordered.push_back(&qc);
  for (const QosClass& qc : policy.classes)
    if (qc.class_map == "class-default") ordered.push_back(&qc);
  for (const QosClass* q : ordered) {
    const QosClass& qc = *q;
    const int group = qc.qos_group.value_or(0);  // a class that sets no qos-group leaves it at 0
    if (qc.class_map == "class-default") {
      for (int d = 0; d < kDscpValues; ++d)
        if (!dscp_done[static_cast<size_t>(d)])
          c.dscp[static_cast<size_t>(d)] = group, dscp_done[static_cast<size_t>(d)] = true;
      for (int v = 0; v < kPriorities; ++v)
        if (!cos_done[static_cast<size_t>(v)])
          c.cos[static_cast<size_t>(v)] = group, cos_done[static_cast<size_t>(v)] = true;
      continue;
    }
    const auto m = p.class_maps.find(qc.class_map);
    if (m == p.class_maps.end())
      return unexpected("policy-map " + quote(policy_name) + " names class map " + quote(qc.class_map) +
                        ", which the configuration does not define");
    if (!m->second.error.empty()) return unexpected("class-map " + quote(qc.class_map) + ": " + m->second.error);
    for (int d : m->second.dscp)
      if (!dscp_done[static_cast<size_t>(d)])
        c.dscp[static_cast<size_t>(d)] = group, dscp_done[static_cast<size_t>(d)] = true;
    for (int v : m->second.cos)
      if (!cos_done[static_cast<size_t>(v)])
        c.cos[static_cast<size_t>(v)] = group, cos_done[static_cast<size_t>(v)] = true;
    by_dscp = by_dscp || !m->second.dscp.empty();
    by_cos = by_cos || !m->second.cos.empty();
  }
  if (by_dscp && by_cos)
    return unexpected("its input policy " + quote(policy_name) +
                      " classifies on both DSCP and CoS; fabricctl reads one");
  c.trust = by_cos ? Trust::pcp : Trust::dscp;
  return c;
}

/// What an interface block sets.
struct InterfaceLines {
  int mtu = kDefaultMtu;
  bool pfc = false;              // `priority-flow-control mode on` (auto and off: not on by itself)
  std::optional<bool> watchdog;  // `priority-flow-control watch-dog-interval on|off`
  std::string qos_policy;        // `service-policy type qos input NAME`
};

InterfaceLines interface_lines(const ConfigBlock& b) {
  InterfaceLines l;
  for (const ConfigBlock& c : b.children) {
    const auto w = words_of(c.line);
    if (is(w, {"mtu"}) && w.size() == 2) {
      l.mtu = number(c.line, w[1], 68, 65535);
    } else if (is(w, {"priority-flow-control", "mode"}) && w.size() == 3) {
      if (w[2] != "on" && w[2] != "off" && w[2] != "auto") bad(c.line, quote(w[2]) + " is not on, off or auto");
      l.pfc = w[2] == "on";
    } else if (is(w, {"priority-flow-control", "watch-dog-interval"}) && w.size() == 3) {
      if (w[2] != "on" && w[2] != "off") bad(c.line, quote(w[2]) + " is not on or off");
      l.watchdog = w[2] == "on";
    } else if (is(w, {"service-policy", "type", "qos", "input"}) && w.size() == 5) {
      l.qos_policy = std::string(w[4]);
    }
  }
  return l;
}

}  // namespace

Expected<Config> parse_config(std::string_view text) {
  if (text.size() > kMaxBytes) return unexpected("show running-config: over " + std::to_string(kMaxBytes) + " bytes");
  if (text.find('\0') != std::string_view::npos) return unexpected("show running-config: holds a NUL byte");
  const std::vector<std::string_view> lines = trimmed_lines(text);
  if (lines.size() > kMaxLines) return unexpected("show running-config: over " + std::to_string(kMaxLines) + " lines");
  Config config;
  std::vector<std::vector<ConfigBlock>*> levels{&config};  // levels[d]: where a line at depth d goes
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string_view line = lines[i];
    const std::string at = "show running-config: line " + std::to_string(i + 1) + ": ";
    if (line.size() > kMaxLineBytes) return unexpected(at + "over " + std::to_string(kMaxLineBytes) + " bytes");
    if (skipped(line)) continue;
    const size_t spaces = line.find_first_not_of(' ');
    if (spaces % 2 != 0 || line[spaces] == '\t')
      return unexpected(at + quote(printable(line, 80)) + " is not indented by two spaces a level");
    const size_t depth = spaces / 2;
    if (depth >= levels.size() || depth >= kMaxDepth)
      return unexpected(at + quote(printable(line, 80)) + " is indented deeper than one level below the line above");
    levels.resize(depth + 1);
    levels[depth]->push_back({std::string(line.substr(spaces)), {}});
    levels.push_back(&levels[depth]->back().children);
  }
  return config;
}

std::string keep_running_config(std::string_view text) {
  static constexpr std::array<std::string_view, 5> kBlocks = {"class-map type qos ", "policy-map type qos ",
                                                              "policy-map type network-qos ",
                                                              "policy-map type queuing ", "system qos"};
  static constexpr std::array<std::string_view, 4> kInterfaceLines = {"mtu ", "priority-flow-control ",
                                                                      "service-policy type qos input ", "switchport"};
  std::string out;
  enum class Keep { none, block, interface } keep = Keep::none;
  for (const std::string_view line : trimmed_lines(text)) {
    if (skipped(line)) continue;
    const bool top = line[0] != ' ';
    const std::string_view body = line.substr(line.find_first_not_of(' '));
    // Nothing fabricctl reads names a secret or runs that long: such a line is dropped, and with a
    // block's own line its whole block, so that no line of it lands under the block before.
    bool kept = line.size() <= kMaxLineBytes;
    for (std::string_view word : words_of(body))
      for (std::string_view secret : {"secret", "password", "key", "community"}) kept = kept && word != secret;
    if (top) {
      keep = Keep::none;
      if (kept) {
        for (std::string_view b : kBlocks)
          if (body.rfind(b, 0) == 0 || body == b) keep = Keep::block;
        if (body.rfind("interface Ethernet", 0) == 0) keep = Keep::interface;
      }
      kept = kept && (keep != Keep::none || body.rfind("priority-flow-control ", 0) == 0);
    } else if (keep == Keep::interface) {
      bool wanted = false;
      for (std::string_view l : kInterfaceLines) wanted = wanted || body.rfind(l, 0) == 0;
      kept = kept && wanted;
    } else {
      kept = kept && keep == Keep::block;
    }
    if (kept) {
      out.append(line);
      out += '\n';
    }
  }
  return out;
}

Expected<Config> read_running_config(std::string_view output) {
  if (output.size() > kMaxBytes) return unexpected("show running-config: over " + std::to_string(kMaxBytes) + " bytes");
  if (output.find('\0') != std::string_view::npos) return unexpected("show running-config: holds a NUL byte");
  return parse_config(keep_running_config(output));
}

Expected<RunningPorts> ports_from_config(const Config& config, const std::vector<std::string>& also) {
  auto parsed = read(config);
  if (!parsed) return unexpected(parsed.error());
  const Parsed& p = *parsed;
  auto nq = system_policy(p.network_qos, p.system_network_qos, "network-qos");
  if (!nq) return unexpected(nq.error());
  auto out_q = system_policy(p.queuing, p.system_queuing, "queuing");
  if (!out_q) return unexpected(out_q.error());

  Watchdog wd;
  wd.poll_interval_ms = p.watchdog_interval_ms.value_or(kDefaultWatchdogIntervalMs);
  wd.detection_ms = wd.poll_interval_ms * p.shutdown_multiplier.value_or(kDefaultShutdownMultiplier);
  wd.restoration_ms = wd.poll_interval_ms * p.auto_restore_multiplier.value_or(kDefaultAutoRestoreMultiplier);
  wd.action = WatchdogAction::drop;

  std::array<TcSchedule, kTrafficClasses> tc{};
  std::vector<EcnQueue> ecn;
  std::array<bool, kPriorities> paused{};
  if (*out_q)
    for (const auto& [group, g] : **out_q) {
      TcSchedule& s = tc[static_cast<size_t>(group)];
      s.used = true;
      s.strict = g.priority_level.has_value();
      s.bandwidth_pct = s.strict ? 0 : g.bandwidth_pct.value_or(0);
      if (g.ecn) ecn.push_back(*g.ecn);
    }
  if (*nq)
    for (const auto& [group, g] : **nq)
      for (int cos : g.pause_cos) paused[static_cast<size_t>(cos)] = true;

  RunningPorts out;
  std::vector<ConfigBlock> defaults;  // a block without lines for each port of `also` the config lacks
  std::set<std::string, std::less<>> have;
  for (const ConfigBlock* b : p.interfaces) have.insert(std::string(words_of(b->line)[1]));
  for (const std::string& name : also)
    if (!have.count(name)) defaults.push_back({"interface " + name, {}});
  std::vector<const ConfigBlock*> blocks = p.interfaces;
  for (const ConfigBlock& b : defaults) blocks.push_back(&b);
  for (const ConfigBlock* b : blocks) {
    const std::string name = std::string(words_of(b->line)[1]);
    if (name.rfind("Ethernet", 0) != 0) continue;
    if (!valid_port_name(name)) {
      out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    try {
      const InterfaceLines l = interface_lines(*b);
      auto cls = classify(p, l.qos_policy);
      if (!cls) {
        out.unreadable.insert_or_assign(name, "show running-config: " + cls.error());
        continue;
      }
      PortObserved port;
      port.name = name;
      port.mtu = l.mtu;
      port.trust = cls->trust;
      std::array<int, kDscpValues> dscp{};
      std::array<int, kPriorities> p2t{};
      for (int pr = 0; pr < kPriorities; ++pr) p2t[static_cast<size_t>(pr)] = pr;  // a qos-group is its own queue
      if (cls->trust == Trust::dscp) dscp = cls->dscp;
      else p2t = cls->cos;
      port.dscp_to_priority = dscp;
      port.priority_to_tc = p2t;
      std::array<bool, kPriorities> lossless{};
      for (int pr = 0; pr < kPriorities; ++pr)
        lossless[static_cast<size_t>(pr)] = l.pfc && paused[static_cast<size_t>(pr)];
      port.lossless = lossless;
      port.tc = tc;
      port.ecn = ecn;
      Watchdog w = wd;
      // A port without its own line follows the global one (UNCONFIRMED; fabricctl writes both).
      w.enabled = p.watchdog.value_or(false) && l.watchdog.value_or(true);
      port.watchdog = w;
      out.ports.insert_or_assign(name, std::move(port));
    } catch (const BadLine& e) {
      out.unreadable.insert_or_assign(name, "show running-config: " + e.message);
    }
  }
  return out;
}

}  // namespace fabricctl::nxos
