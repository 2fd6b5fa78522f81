// How a session line is judged held (EOS's `show running-config` prints only what differs from its
// defaults; switch-nos.md, EOS: "compare semantically, not as text"):
// - lines are compared word by word (EOS's spacing is not ours), block by block, and blocks and lines
//   are looked up, not taken in order (the order of running-config blocks changes between releases);
// - a line that states a default (kDefaults) is held when the block has none of the lines that would set
//   something else; a `no X` removal when the block has no line X (nor X with more words), except the
//   `no` lines EOS prints itself because they are not its default (kPrinted);
// - `qos map` lines are compared per DSCP / traffic-class with the running maps, EOS's defaults filled in
//   (running_config.cpp), and narrowed to the values that differ; the global watchdog lines are compared
//   by value in milliseconds ("0.2" and "0.200" are the same timer).
#include "platform/eos/session_lines.h"

#include <algorithm>
#include <map>

#include "platform/eos/config_lines.h"
#include "platform/eos/running_config.h"
#include "platform/platform.h"
#include "util/diag.h"
#include "util/text.h"

namespace fabricctl::eos {
namespace {

using nlohmann::json;

std::string str(const json& j) { return j.get<std::string>(); }

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  for (size_t i = 0; i <= s.size();) {
    const size_t end = std::min(s.find(sep, i), s.size());
    if (end > i) out.push_back(s.substr(i, end - i));
    i = end + 1;
  }
  return out;
}

/// A block's lines, words joined by one space; its queue blocks by header.
struct Block {
  std::string header;
  std::vector<std::string> lines;
  std::vector<std::pair<std::string, std::vector<std::string>>> queues;
};

struct Layout {
  std::vector<std::string> global;
  std::vector<Block> blocks;
};

std::string joined(const std::vector<std::string_view>& words) {
  std::string out;
  for (const std::string_view w : words) out += (out.empty() ? "" : " ") + std::string(w);
  return out;
}

Expected<Layout> layout_of(std::string_view text) {
  Layout l;
  std::map<std::string, size_t, std::less<>> index;  // block header -> its place in l.blocks
  Block* block = nullptr;
  std::vector<std::string>* queue = nullptr;
  const auto walked = walk_config(text, [&](const ConfigLine& c) {
    if (c.separator) return;
    const std::string line = joined(c.words);
    if (c.scope == Scope::top) {
      queue = nullptr;
      block = nullptr;
      if ((c.words.size() == 2 && c.words[0] == "interface") ||
          (c.words.size() == 3 && c.words[0] == "qos" && c.words[1] == "profile")) {
        // A block printed twice (a config pasted in parts) is one block, as EOS reads it.
        const auto [at, added] = index.emplace(line, l.blocks.size());
        if (added) l.blocks.push_back({line, {}, {}});
        block = &l.blocks[at->second];
      } else if (line != "end") {
        l.global.push_back(line);
      }
    } else if (c.scope == Scope::block && block != nullptr) {
      queue = nullptr;
      if (queue_header(c.words)) {
        block->queues.emplace_back(line, std::vector<std::string>{});
        queue = &block->queues.back().second;
      } else {
        block->lines.push_back(line);
      }
    } else if (c.scope == Scope::queue && queue != nullptr) {
      queue->push_back(line);
    }
  });
  if (!walked) return unexpected(walked.error());
  return l;
}

bool has_prefix(const std::string& line, const std::string& prefix) {
  return line == prefix || line.rfind(prefix + " ", 0) == 0;
}

/// A line stating EOS's default, and the lines (or line prefixes) that would set something else.
struct Default {
  std::string_view line;
  std::vector<std::string_view> conflicts;
};
const Default kDefaults[] = {
    {"priority-flow-control pause watchdog", {"no priority-flow-control pause watchdog"}},
    {"priority strict", {"no priority"}},
    // COS trust is the default of a switched port; a routed one (`no switchport`) trusts DSCP.
    {"qos trust cos", {"qos trust", "no qos trust", "no switchport"}},
};

/// `no` lines that set something other than the default: EOS prints them, so they are held only as
/// lines of the block.
constexpr std::string_view kPrinted[] = {"no priority", "no priority-flow-control pause watchdog", "no qos trust",
                                         "no switchport"};

/// `no X` lines whose X is the first words of other settings: what they remove.
const std::pair<std::string_view, std::vector<std::string_view>> kRemovals[] = {
    {"no priority-flow-control", {"priority-flow-control on"}},
};

bool held(const std::string& line, const std::vector<std::string>& block) {
  if (std::find(block.begin(), block.end(), line) != block.end()) return true;
  const auto any_prefix = [&](const std::vector<std::string_view>& prefixes) {
    return std::any_of(block.begin(), block.end(), [&](const std::string& b) {
      return std::any_of(prefixes.begin(), prefixes.end(),
                         [&](std::string_view p) { return has_prefix(b, std::string(p)); });
    });
  };
  for (const Default& d : kDefaults)
    if (line == d.line) return !any_prefix(d.conflicts);
  if (std::find(std::begin(kPrinted), std::end(kPrinted), line) != std::end(kPrinted)) return false;
  for (const auto& [removal, removes] : kRemovals)
    if (line == removal) return !any_prefix(removes);
  if (line.rfind("no ", 0) == 0) return !any_prefix({std::string_view(line).substr(3)});
  return false;
}

/// What the global watchdog lines set, in milliseconds; the action with EOS's default (drop) filled in.
std::vector<std::optional<int>> watchdog_values(const GlobalLines& g) {
  return {g.watchdog_timeout_ms, g.watchdog_recovery_ms, g.watchdog_poll_ms,
          static_cast<int>(g.watchdog_action.value_or(WatchdogAction::drop))};
}

/// A global line of the session held by `running`, or the part of it (a narrowed map) that is not.
Expected<std::string> global_unheld(const std::string& line, const RunningConfig& running, const PortObserved& maps,
                                    const std::vector<std::string>& running_lines) {
  const std::vector<std::string> words = split(line, ' ');
  const bool dscp_map = line.rfind("qos map dscp ", 0) == 0, tc_map = line.rfind("qos map traffic-class ", 0) == 0;
  if (dscp_map || tc_map) {
    const auto to = std::find(words.begin(), words.end(), "to");
    if (to == words.end() || to + 2 >= words.end() || to + 3 != words.end())
      return unexpected("session line " + quote(line) + " is not `qos map ... <list> to ... <n>`");
    const auto value = parse_int(*(to + 2));
    std::vector<std::string> differ;
    for (auto w = words.begin() + 3; w != to; ++w) {
      const auto n = parse_int(*w);
      if (!n || !value || *n < 0 || *n >= (dscp_map ? kDscpValues : kPriorities))
        return unexpected("session line " + quote(line) + ": " + quote(*w) + " is out of range");
      const int now = dscp_map ? maps.dscp_to_priority->at(static_cast<size_t>(*n))
                               : maps.priority_to_tc->at(static_cast<size_t>(*n));
      if (now != *value) differ.push_back(*w);
    }
    if (differ.empty()) return std::string();
    return join({words.begin(), words.begin() + 3}, " ") + " " + join(differ, " ") + " " + join({to, words.end()}, " ");
  }
  if (line.rfind("priority-flow-control pause watchdog ", 0) == 0) {
    auto alone = parse_running_config(line + "\nend\n");
    if (!alone) return unexpected("session line " + quote(line) + ": " + alone.error());
    // The line applied over running: held when nothing it sets changes.
    GlobalLines after = running.global;
    const GlobalLines& g = alone->global;
    if (g.watchdog_timeout_ms) after.watchdog_timeout_ms = g.watchdog_timeout_ms;
    if (g.watchdog_recovery_ms) after.watchdog_recovery_ms = g.watchdog_recovery_ms;
    if (g.watchdog_poll_ms) after.watchdog_poll_ms = g.watchdog_poll_ms;
    if (g.watchdog_action) after.watchdog_action = g.watchdog_action;
    return watchdog_values(after) == watchdog_values(running.global) ? std::string() : line;
  }
  if (line == "no priority-flow-control pause watchdog action")
    return running.global.watchdog_action.value_or(WatchdogAction::drop) == WatchdogAction::drop ? std::string() : line;
  return held(line, running_lines) ? std::string() : line;
}

const Block* find_block(const std::vector<Block>& blocks, const std::string& header) {
  for (const Block& b : blocks)
    if (b.header == header) return &b;
  return nullptr;
}

const std::vector<std::string>* find_queue(const Block* b, const std::string& header) {
  if (b == nullptr) return nullptr;
  for (const auto& [h, lines] : b->queues)
    if (h == header) return &lines;
  return nullptr;
}

}  // namespace

std::string session_text(const DeviceDesired& device) {
  const json c = eos_context(device);
  std::string o = "! fabricctl: " + str(c["device"]) + " profile " + str(c["profile"]) + "\n!\n";
  for (const json& m : c["dscp_maps"])
    o += "qos map dscp " + str(m["dscps"]) + " to traffic-class " + str(m["priority"]) + "\n";
  for (const json& m : c["cos_maps"])
    o += "qos map cos " + str(m["cos"]) + " to traffic-class " + str(m["priority"]) + "\n";
  for (const json& m : c["tc_maps"]) o += str(m["line"]) + "\n";
  o += "!\n";
  const json& wd = c["watchdog"];
  if (wd.is_object()) {
    o += "priority-flow-control pause watchdog default timeout " + str(wd["timeout"]) + "\n";
    o += "priority-flow-control pause watchdog default recovery-time " + str(wd["recovery_time"]) + "\n";
    o += "priority-flow-control pause watchdog default polling-interval " + str(wd["polling_interval"]) + "\n";
    o += "priority-flow-control pause watchdog action " + str(wd["action"]) + "\n";
  } else {
    for (const char* k : {"default timeout", "default recovery-time", "default polling-interval", "action"})
      o += std::string("no priority-flow-control pause watchdog ") + k + "\n";
  }
  o += "!\n";
  for (const json& i : c["interfaces"]) {
    o += "interface " + str(i["name"]) + "\n   mtu " + str(i["mtu"]) + "\n   qos trust " + str(c["trust"]) + "\n   " +
         str(c["pfc"]) + "\n";
    for (const json& p : c["priorities"]) o += "   " + str(p) + "\n";
    o += "   " + str(c["pfc_watchdog"]) + "\n";
    for (const json& q : c["queues"])
      o += "   !\n   " + str(c["queue_keyword"]) + " " + str(q["id"]) + "\n      " + str(q["priority"]) + "\n      " +
           str(q["bandwidth"]) + "\n      " + str(q["ecn"]) + "\n";
    o += "!\n";
  }
  return o;
}

Expected<std::string> unsatisfied(std::string_view session, std::string_view running) {
  auto config = parse_running_config(running);
  if (!config) return unexpected("show running-config: " + config.error());
  if (!config->ended)
    return unexpected("show running-config: no `end` line (output cut short, or not a running-config)");
  auto have = layout_of(running);
  if (!have) return unexpected("show running-config: " + have.error());
  auto want = layout_of(session);
  if (!want) return unexpected("session: " + want.error());
  // The maps every port shares, EOS's defaults filled in: those of a port no block names.
  auto maps = port_from_running_config(*config, "");
  if (!maps) return unexpected("show running-config: " + maps.error());

  std::string out;
  for (const std::string& line : want->global) {
    auto missing = global_unheld(line, *config, *maps, have->global);
    if (!missing) return unexpected(missing.error());
    if (!missing->empty()) out += *missing + "\n";
  }
  if (!out.empty()) out += "!\n";
  static const std::vector<std::string> kEmpty;
  for (const Block& b : want->blocks) {
    const Block* now = find_block(have->blocks, b.header);
    std::string body;
    for (const std::string& line : b.lines)
      if (!held(line, now != nullptr ? now->lines : kEmpty)) body += "   " + line + "\n";
    for (const auto& [header, lines] : b.queues) {
      const std::vector<std::string>* q = find_queue(now, header);
      std::string qbody;
      for (const std::string& line : lines)
        if (!held(line, q != nullptr ? *q : kEmpty)) qbody += "      " + line + "\n";
      if (!qbody.empty()) body += "   !\n   " + header + "\n" + qbody;
    }
    if (!body.empty()) out += b.header + "\n" + body + "!\n";
  }
  return out;
}

Expected<std::string> canonical(std::string_view running) {
  auto l = layout_of(running);
  if (!l) return unexpected("show running-config: " + l.error());
  std::vector<std::string> global = l->global;
  std::sort(global.begin(), global.end());
  std::string out;
  for (const std::string& g : global) out += g + "\n";
  std::sort(l->blocks.begin(), l->blocks.end(),
            [](const Block& a, const Block& b) { return natural_less(a.header, b.header); });
  for (Block& b : l->blocks) {
    out += b.header + "\n";
    std::sort(b.lines.begin(), b.lines.end());
    for (const std::string& line : b.lines) out += "   " + line + "\n";
    std::sort(b.queues.begin(), b.queues.end());
    for (auto& [header, lines] : b.queues) {
      out += "   " + header + "\n";
      std::sort(lines.begin(), lines.end());
      for (const std::string& line : lines) out += "      " + line + "\n";
    }
  }
  return out;
}

}  // namespace fabricctl::eos
