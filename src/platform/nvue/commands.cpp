// The lines of commands.nvue (as its template lays them out) and the tree walk that finds which of
// them a switch's applied configuration does not satisfy yet. commands.h says what the tree model is.
#include "platform/nvue/commands.h"

#include <regex>
#include <sstream>

#include "platform/nvue/ranges.h"
#include "platform/platform.h"
#include "util/text.h"

namespace fabricctl::nvue {
namespace {

using nlohmann::json;

std::string str(const json& v) { return v.get<std::string>(); }

/// The explicit profile's lines: templates/nvue/commands.nvue.mustache's {{^roce}} section.
void explicit_lines(const json& c, std::vector<std::string>& out) {
  const std::string map = "nv set qos mapping default-global ";
  out.emplace_back("nv unset qos roce");
  out.push_back(map + "trust " + str(c["trust"]));
  for (const json& m : c["dscp_map"])
    out.push_back(map + "dscp " + str(m["dscp"]) + " switch-priority " + str(m["priority"]));
  for (const json& m : c["pcp_map"])
    out.push_back(map + "pcp " + str(m["pcp"]) + " switch-priority " + str(m["priority"]));
  const json& pfc = c["pfc"];
  if (pfc.is_object()) {
    out.emplace_back("nv set qos traffic-pool default-lossless memory-percent 50");
    out.emplace_back("nv set qos traffic-pool default-lossy memory-percent 50");
    out.push_back("nv set qos pfc default-global switch-priority " + str(pfc["priorities"]));
    if (pfc["lossy"].is_string()) out.push_back("nv unset qos pfc default-global switch-priority " + str(pfc["lossy"]));
    out.emplace_back("nv set qos pfc default-global tx enable");
    out.emplace_back("nv set qos pfc default-global rx enable");
    if (pfc["cable_length"].is_string())
      out.push_back("nv set qos pfc default-global cable-length " + str(pfc["cable_length"]));
  } else {
    out.emplace_back("nv unset qos pfc default-global");
    out.emplace_back("nv unset qos traffic-pool default-lossless memory-percent");
    out.emplace_back("nv unset qos traffic-pool default-lossy memory-percent");
  }
  for (const json& m : c["egress_queue_map"])
    out.push_back("nv set qos egress-queue-mapping default-global switch-priority " + str(m["priority"]) +
                  " traffic-class " + str(m["tc"]));
  const std::string sched = "qos egress-scheduler default-global traffic-class ";
  for (const json& s : c["schedulers"]) {
    out.push_back("nv set " + sched + str(s["tc"]) + " mode " + str(s["mode"]));
    if (s["bw_percent"].is_string())
      out.push_back("nv set " + sched + str(s["tc"]) + " bw-percent " + str(s["bw_percent"]));
    else out.push_back("nv unset " + sched + str(s["tc"]) + " bw-percent");
  }
  const std::string cc = "qos congestion-control default-global traffic-class ";
  for (const json& e : c["ecn"]) {
    const std::string tc = str(e["tc"]);
    out.push_back("nv set " + cc + tc + " ecn enable");
    out.push_back("nv set " + cc + tc + " min-threshold " + str(e["min"]));
    out.push_back("nv set " + cc + tc + " max-threshold " + str(e["max"]));
    out.push_back("nv set " + cc + tc + " probability " + str(e["probability"]));
  }
  if (c["ecn_unset"].is_string()) out.push_back("nv unset " + cc + str(c["ecn_unset"]));
  for (const json& e : c["ecn_disabled"]) out.push_back("nv set " + cc + str(e["tc"]) + " ecn disable");
}

/// Paths whose last word is a key set without a value (tests/lab/emulators/nvue.py PRESENCE).
bool presence(const std::vector<std::string>& path) {
  static const std::regex node(R"(qos pfc \S+ switch-priority \d|interface \S+ qos pfc-watchdog)");
  return std::regex_match(join(path, " "), node);
}

/// The node at `path`, or nullptr.
const json* find(const json& tree, const std::vector<std::string>& path) {
  const json* node = &tree;
  for (const std::string& w : path) {
    if (!node->is_object()) return nullptr;
    const auto it = node->find(w);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

/// A leaf as the word `nv set` would give it: a JSON string as is, a number as its digits.
bool leaf_is(const json* node, const std::string& word) {
  if (node == nullptr) return false;
  if (node->is_string()) return node->get_ref<const std::string&>() == word;
  if (node->is_number_integer()) return node->dump() == word;
  return false;
}

/// Whether two subtrees hold the same settings, a leaf compared as `nv set` words (9100 and "9100" alike).
bool equivalent(const json& a, const json& b) {
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (const auto& [k, v] : a.items()) {
      const auto it = b.find(k);
      if (it == b.end() || !equivalent(v, *it)) return false;
    }
    return true;
  }
  if (a.is_object() || b.is_object()) return false;
  if (a.is_string()) return leaf_is(&b, a.get_ref<const std::string&>());
  if (b.is_string()) return leaf_is(&a, b.get_ref<const std::string&>());
  return a == b;
}

/// One member of a line: `nv set` or `nv unset`, and the path (for a set with a value, its last word
/// is the value).
struct Member {
  bool set = true;
  std::vector<std::string> words;
};

void apply_member(json& tree, const Member& m) {
  std::vector<std::string> path = m.words;
  json value = json::object();
  if (m.set && !presence(path)) {
    value = json(path.back());
    path.pop_back();
  }
  json* node = &tree;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    if (!node->is_object()) {
      if (!m.set) return;
      *node = json::object();
    }
    if (!m.set && !node->contains(path[i])) return;
    node = &(*node)[path[i]];
  }
  if (!node->is_object()) {
    if (!m.set) return;
    *node = json::object();
  }
  if (m.set) (*node)[path.back()] = value;
  else node->erase(path.back());
}

/// Whether `tree` already has what the set member configures.
bool holds(const json& tree, const Member& m) {
  if (presence(m.words)) {
    const json* n = find(tree, m.words);
    return n != nullptr && n->is_object();
  }
  const std::vector<std::string> leaf(m.words.begin(), m.words.end() - 1);
  if (leaf_is(find(tree, leaf), m.words.back())) return true;
  // `nv set qos roce` (no mode) is RoCE lossless mode. RoCE turned off (`enable off`, `state disabled`)
  // is not satisfied by it: the `enable on` / `state enabled` line before it turns RoCE on again.
  if (join(m.words, " ") == "qos roce mode lossless") {
    const json* roce = find(tree, {"qos", "roce"});
    return roce != nullptr && roce->is_object() && !roce->contains("mode");
  }
  return false;
}

struct Line {
  bool set = true;
  std::vector<std::string> words;  // after `nv set` / `nv unset`
  std::vector<std::vector<std::string>> members;
  int list_word = -1;  // the only word with a comma list, or -1 (none, or more than one)
};

Expected<Line> parse_line(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  if (words.size() < 3 || words[0] != "nv" || (words[1] != "set" && words[1] != "unset"))
    return unexpected("not an nv set or nv unset line: " + std::string(text));
  Line l;
  l.set = words[1] == "set";
  l.words.assign(words.begin() + 2, words.end());
  if (l.set && l.words.size() < 2 && !presence(l.words))
    return unexpected("nv set without a value: " + std::string(text));
  l.members = {{}};
  int lists = 0;
  for (size_t i = 0; i < l.words.size(); ++i) {
    std::vector<std::string> parts;
    std::istringstream list(l.words[i]);
    for (std::string m; std::getline(list, m, ',');)
      if (!m.empty()) parts.push_back(m);
    if (parts.empty()) return unexpected("an empty word in: " + std::string(text));
    if (parts.size() > 1) {
      ++lists;
      l.list_word = static_cast<int>(i);
    }
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : l.members)
      for (const std::string& m : parts) {
        next.push_back(prefix);
        next.back().push_back(m);
      }
    l.members = std::move(next);
  }
  if (lists != 1) l.list_word = -1;
  return l;
}

/// The line with only `needed` of its members.
std::vector<std::string> narrowed(const Line& l, const std::vector<size_t>& needed) {
  const std::string verb = l.set ? "nv set " : "nv unset ";
  if (needed.size() == l.members.size()) return {verb + join(l.words, " ")};
  std::vector<std::string> out;
  if (l.list_word < 0) {
    for (size_t i : needed) out.push_back(verb + join(l.members[i], " "));
    return out;
  }
  const auto w = static_cast<size_t>(l.list_word);
  std::vector<std::string> list;
  list.reserve(needed.size());
  for (size_t i : needed) list.push_back(l.members[i][w]);
  std::vector<std::string> words = l.words;
  words[w] = join(list, ",");
  return {verb + join(words, " ")};
}

}  // namespace

std::vector<std::string> command_lines(const DeviceDesired& device) {
  const json c = nvue_context(device);
  std::vector<std::string> out;
  if (c["roce"].is_object()) {
    const json& r = c["roce"];
    for (const char* path :
         {"qos pfc default-global", "qos egress-queue-mapping default-global", "qos egress-scheduler default-global",
          "qos congestion-control default-global", "qos traffic-pool default-lossless memory-percent",
          "qos traffic-pool default-lossy memory-percent", "qos mapping default-global pcp",
          "qos mapping default-global dscp"})
      out.push_back(std::string("nv unset ") + path);
    out.emplace_back("nv set qos roce mode lossless");
    out.push_back("nv set qos roce " + str(r["on"]));
    if (r["cable_length"].is_string()) out.push_back("nv set qos roce cable-length " + str(r["cable_length"]));
    out.push_back("nv set qos mapping default-global trust " + str(c["trust"]));
    for (const json& a : r["dscp_adjustments"])
      out.push_back("nv set qos mapping default-global dscp " + str(a["dscps"]) + " switch-priority " +
                    str(a["priority"]));
  } else {
    explicit_lines(c, out);
  }
  const json& wd = c["watchdog"];
  if (wd.is_object()) {
    out.push_back("nv set qos pfc-watchdog polling-interval " + str(wd["polling_interval"]));
    out.push_back("nv set qos pfc-watchdog robustness " + str(wd["robustness"]));
  } else {
    out.emplace_back("nv unset qos pfc-watchdog");
  }
  for (const json& i : c["interfaces"]) {
    const std::string itf = "interface " + str(i["name"]);
    out.push_back("nv set " + itf + " link mtu " + str(i["mtu"]));
    const bool on = i["pfc_watchdog"].is_object() || i["pfc_watchdog"] == true;  // a Mustache section's truth
    out.push_back(on ? "nv set " + itf + " qos pfc-watchdog state enable" : "nv unset " + itf + " qos pfc-watchdog");
  }
  return out;
}

Expected<json> applied_tree(std::string_view text) {
  constexpr size_t kMaxBytes = size_t{32} << 20;  // what collect keeps: tens of kB for 64 ports
  if (text.size() > kMaxBytes) return unexpected("nv config show: larger than 32 MiB");
  // NVUE's trees are about ten levels deep; a deeper document is not one of them.
  bool too_deep = false;
  const json::parser_callback_t bounded = [&too_deep](int depth, json::parse_event_t, json&) {
    if (depth > 32) too_deep = true;
    return !too_deep;
  };
  json doc = json::parse(text, bounded, false);
  if (doc.is_discarded() || too_deep) return unexpected("nv config show: not JSON, or nested too deeply");
  // From 5.15 the keys may be ranges ("swp1-32"): expanded, so that every line meets its own port.
  if (doc.is_object()) return expand_ranges(doc);
  if (doc.is_array()) {
    json tree = json::object();
    for (json& e : doc) {
      if (!e.is_object()) return unexpected("nv config show: an element of the list is not an object");
      if (const auto set = e.find("set"); set != e.end()) {
        if (!set->is_object()) return unexpected("nv config show: \"set\" is not an object");
        tree = std::move(*set);
      }
    }
    return expand_ranges(tree);
  }
  return unexpected("nv config show: not a JSON object or a list of header and set");
}

Expected<std::vector<std::string>> unsatisfied(const json& tree, const std::vector<std::string>& lines) {
  std::vector<Line> parsed;
  json final_tree = tree;  // what every line leaves: an unset's path is compared with it
  for (const std::string& text : lines) {
    auto l = parse_line(text);
    if (!l) return unexpected(l.error());
    for (const auto& m : l->members) apply_member(final_tree, {l->set, m});
    parsed.push_back(std::move(*l));
  }
  std::vector<std::string> out;
  json current = tree;  // the tree after the lines chosen so far
  for (const Line& l : parsed) {
    std::vector<size_t> needed;
    for (size_t i = 0; i < l.members.size(); ++i) {
      const Member m{l.set, l.members[i]};
      bool need = false;
      if (l.set) {
        need = !holds(current, m);
      } else {
        const json* now = find(current, m.words);
        const json* end = find(final_tree, m.words);
        need = now != nullptr && (end == nullptr || !equivalent(*now, *end));
      }
      if (!need) continue;
      apply_member(current, m);
      needed.push_back(i);
    }
    if (!needed.empty())
      for (std::string& n : narrowed(l, needed)) out.push_back(std::move(n));
  }
  return out;
}

}  // namespace fabricctl::nvue
