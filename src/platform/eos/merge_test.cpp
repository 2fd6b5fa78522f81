// EOS removals: a session merges into the running config, so session.cfg must state every setting it
// manages, as a value or as its removal. Proved on a model of that merge (a line sets its key, its `no`
// form removes it, a `no` of what is not there changes nothing): applying the render of any intent after
// the render of any other leaves exactly what the second alone leaves on a switch with none of it.
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "fidelity_support.h"
#include "regex_cache.h"
#include "text_lines.h"

using namespace fabricctl;

namespace {

/// A running config: "<block>|<key>" -> value; the block is "" (global), the interface, or the interface
/// and its queue.
using Running = std::map<std::string, std::string>;

std::vector<std::string> numbers_in(const std::string& list) {
  std::vector<std::string> out;
  static const std::regex number(R"(\d+)");
  for (auto it = std::sregex_iterator(list.begin(), list.end(), number); it != std::sregex_iterator(); ++it)
    out.push_back(it->str());
  return out;
}

/// One line of the session merged into `running` under `block`; false for a line the model does not know.
bool merge_line(Running& running, const std::string& block, const std::string& line) {
  std::smatch m;
  auto set = [&](const std::string& key, const std::string& value) { running[block + "|" + key] = value; };
  auto remove = [&](const std::string& key) { running.erase(block + "|" + key); };
  if (std::regex_match(line, m, test::re(R"(qos map dscp ([\d ]+) to traffic-class (\d))"))) {
    for (const std::string& d : numbers_in(m[1])) set("qos map dscp " + d, m[2]);
  } else if (std::regex_match(line, m, test::re(R"(qos map cos (\d) to traffic-class (\d))"))) {
    set("qos map cos " + m[1].str(), m[2]);
  } else if (std::regex_match(line, m, test::re(R"(qos map traffic-class ([\d ]+) to (?:uc-)?tx-queue (\d))"))) {
    for (const std::string& p : numbers_in(m[1])) set("qos map traffic-class " + p, m[2]);
  } else if (std::regex_match(line, m,
                              test::re(R"(priority-flow-control pause watchdog (default \S+|action) (\S+))"))) {
    set("watchdog " + m[1].str(), m[2]);
  } else if (std::regex_match(line, m, test::re(R"(no priority-flow-control pause watchdog (default \S+|action))"))) {
    remove("watchdog " + m[1].str());
  } else if (std::regex_match(line, m, test::re(R"(mtu (\d+))"))) {
    set("mtu", m[1]);
  } else if (std::regex_match(line, m, test::re(R"(qos trust (\S+))"))) {
    set("qos trust", m[1]);
  } else if (line == "priority-flow-control on") {
    set("pfc", "on");
  } else if (line == "no priority-flow-control") {
    remove("pfc");
  } else if (std::regex_match(line, m, test::re(R"((no )?priority-flow-control priority (\d) no-drop)"))) {
    if (m[1].matched) remove("pfc priority " + m[2].str());
    else set("pfc priority " + m[2].str(), "no-drop");
  } else if (std::regex_match(line, m, test::re(R"((no )?priority-flow-control pause watchdog)"))) {
    if (m[1].matched) remove("watchdog");
    else set("watchdog", "on");
  } else if (line == "priority strict" || line == "no priority") {
    set("scheduling", line);
  } else if (std::regex_match(line, m, test::re(R"(bandwidth percent (\d+))"))) {
    set("bandwidth", m[1]);
  } else if (line == "no bandwidth percent") {
    remove("bandwidth");
  } else if (std::regex_match(line, m, test::re(R"(random-detect ecn (minimum-threshold .*))"))) {
    set("ecn", m[1]);
  } else if (line == "no random-detect ecn minimum-threshold") {
    remove("ecn");
  } else {
    return false;
  }
  return true;
}

/// `session` merged into `running`, as `configure session` + commit would; fails the test on a line
/// the model does not know.
Running merged(Running running, const std::string& session) {
  std::string interface, queue;
  for (const std::string& raw : test::lines_of(session)) {
    const size_t indent = raw.find_first_not_of(' ');
    const std::string line = raw.substr(indent);
    if (indent == 0 && line.rfind('!', 0) == 0) {  // a comment or the end of an interface
      interface.clear();
      queue.clear();
    } else if (indent == 3 && line == "!") {
      queue.clear();
    } else if (indent == 0 && line.rfind("interface ", 0) == 0) {
      interface = line;
    } else if (indent == 3 && std::regex_match(line, test::re(R"((uc-)?tx-queue \d)"))) {
      queue = line;
    } else {
      const std::string block = interface.empty() ? "" : queue.empty() ? interface : interface + "|" + queue;
      CHECK_MESSAGE(merge_line(running, block, line), "the merge model does not know: " << raw);
    }
  }
  return running;
}

std::string session_of(const std::function<void(DeviceDesired&)>& change) {
  DeviceDesired d = test::example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1"});
  change(d);
  return test::render_template_of("eos/session.cfg.mustache", eos_context(d));
}

/// `session` without its removals: what it would be if it only wrote the values it wants.
std::string without_removals(const std::string& session) {
  std::string out;
  static const std::regex removal(R"(\s*no (priority-flow-control (priority|pause)|bandwidth|random-detect).*)");
  for (const std::string& line : test::lines_of(session))
    if (!std::regex_match(line, removal)) out += line + "\n";
  return out;
}

}  // namespace

TEST_CASE("eos removals: any intent's session after any other's leaves what it alone leaves") {
  const auto variants = test::intent_variants();
  // Each variant's session rendered and merged alone once: the pairs below reuse them.
  std::vector<std::string> sessions;
  std::vector<Running> alone;
  for (const auto& v : variants) {
    sessions.push_back(session_of(v.second));
    alone.push_back(merged({}, sessions.back()));
  }
  size_t pairs = 0;
  for (size_t from = 0; from < variants.size(); ++from)
    for (size_t to = 0; to < variants.size(); ++to) {
      CAPTURE(variants[from].first);
      CAPTURE(variants[to].first);
      const Running both = merged(alone[from], sessions[to]);
      CHECK_MESSAGE(both == alone[to], test::map_difference(both, alone[to]));
      ++pairs;
    }
  CHECK(pairs == variants.size() * variants.size());
}

TEST_CASE("eos removals: the model can fail: without its no lines a session leaves an earlier intent behind") {
  // Two lossless priorities and a second ECN queue, then the plain profile: priority 4 stays no-drop and
  // queue 4 keeps marking unless the session removes them.
  const auto variants = test::intent_variants();
  const auto& two = variants[4];
  REQUIRE(two.first == "two lossless priorities, a second ECN queue");
  const std::string plain = session_of(variants[0].second);
  const Running after = merged(merged({}, session_of(two.second)), without_removals(plain));
  CHECK(after != merged({}, plain));
  CHECK(after.count("interface Ethernet1/1|pfc priority 4") == 1);
  CHECK(after.count("interface Ethernet1/1|uc-tx-queue 4|ecn") == 1);
  CHECK(merged(merged({}, session_of(two.second)), plain).count("interface Ethernet1/1|pfc priority 4") == 0);
}
