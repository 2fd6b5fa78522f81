// NVUE removals: `nv set` merges into the applied configuration, so commands.nvue must state every
// setting it manages, as a value or with `nv unset`. Proved on a model of NVUE's configuration tree
// (`nv set PATH VALUE` sets a leaf, `nv unset PATH` removes it and everything under it, a comma list
// stands for each of its members, unsetting what is not there changes nothing): applying the commands
// of any intent after those of any other leaves what the second alone leaves on a switch with none of
// it, RoCE mode after an explicit profile included (it unsets the explicit default-global settings,
// nvue/context.cpp).
#include <doctest/doctest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fidelity_support.h"
#include "text_lines.h"
#include "util/text.h"

using namespace fabricctl;

namespace {

/// The configuration tree, flattened: path -> value ("" for a presence node such as a PFC priority).
using Tree = std::map<std::string, std::string>;

/// The words of a command, each comma list expanded: "a 1,2 b" -> {"a 1 b", "a 2 b"}.
std::vector<std::vector<std::string>> expanded(const std::vector<std::string>& words) {
  std::vector<std::vector<std::string>> out{{}};
  for (const std::string& w : words) {
    std::vector<std::string> members;
    std::istringstream list(w);
    for (std::string m; std::getline(list, m, ',');) members.push_back(m);
    std::vector<std::vector<std::string>> next;
    for (const auto& prefix : out)
      for (const std::string& m : members) {
        next.push_back(prefix);
        next.back().push_back(m);
      }
    out = std::move(next);
  }
  return out;
}

/// Paths whose last word is a key of a set, not a value: a PFC priority, a port's watchdog.
bool presence(const std::string& path) {
  static const std::regex node(R"(qos pfc \S+ switch-priority \d|interface \S+ qos pfc-watchdog)");
  return std::regex_match(path, node);
}

Tree applied(Tree tree, const std::string& commands) {
  for (const std::string& line : test::lines_of(commands)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    REQUIRE_MESSAGE(words.size() >= 3, line);
    const bool set = words[1] == "set";
    REQUIRE_MESSAGE((words[0] == "nv" && (set || words[1] == "unset")), line);
    for (const auto& w : expanded({words.begin() + 2, words.end()})) {
      const std::string path = join(w, " ");
      if (set && presence(path)) {
        tree[path] = "";
      } else if (set) {
        tree[join(std::vector<std::string>(w.begin(), w.end() - 1), " ")] = w.back();
      } else {
        for (auto it = tree.lower_bound(path); it != tree.end() && it->first.rfind(path, 0) == 0;)
          it = it->first == path || it->first[path.size()] == ' ' ? tree.erase(it) : std::next(it);
      }
    }
  }
  return tree;
}

std::string commands_of(const std::function<void(DeviceDesired&)>& change) {
  DeviceDesired d = test::example_switch(Platform::nvue, {"swp1", "swp2"});
  change(d);
  return test::render_template_of("nvue/commands.nvue.mustache", nvue_context(d));
}

std::string without_unsets(const std::string& commands) {
  std::string out;
  for (const std::string& line : test::lines_of(commands))
    if (line.rfind("nv unset ", 0) != 0) out += line + "\n";
  return out;
}

bool roce_mode(const std::string& commands) { return commands.find("nv set qos roce mode") != std::string::npos; }

}  // namespace

TEST_CASE("nvue removals: any intent's commands after any other's leave what they alone leave") {
  const auto variants = test::intent_variants();
  // Each variant rendered and applied alone once: the pairs below reuse them.
  std::vector<std::string> commands;
  std::vector<Tree> alone;
  for (const auto& v : variants) {
    commands.push_back(commands_of(v.second));
    alone.push_back(applied({}, commands.back()));
  }
  size_t pairs = 0, roce = 0;
  for (size_t from = 0; from < variants.size(); ++from)
    for (size_t to = 0; to < variants.size(); ++to) {
      CAPTURE(variants[from].first);
      CAPTURE(variants[to].first);
      const std::string &before = commands[from], &after = commands[to];
      roce += roce_mode(after) && !roce_mode(before);  // switching to RoCE mode: the explicit settings go
      const Tree both = applied(alone[from], after);
      CHECK_MESSAGE(both == alone[to], test::map_difference(both, alone[to]));
      ++pairs;
    }
  CHECK(roce > 0);  // the variants include RoCE mode, so both directions are exercised
  CHECK(pairs == variants.size() * variants.size());
}

TEST_CASE("nvue removals: the model can fail: without nv unset an earlier intent survives") {
  const auto variants = test::intent_variants();
  const auto& two = variants[4];
  REQUIRE(two.first == "two lossless priorities, a second ECN queue");
  const auto& no_watchdog = variants[2];
  REQUIRE(no_watchdog.first == "watchdog off");
  const std::string plain = commands_of(variants[0].second);
  const Tree left = applied(applied({}, commands_of(two.second)), without_unsets(plain));
  CHECK(left != applied({}, plain));
  CHECK(left.count("qos pfc default-global switch-priority 4") == 1);
  CHECK(applied(applied({}, commands_of(two.second)), plain).count("qos pfc default-global switch-priority 4") == 0);
  const std::string off = commands_of(no_watchdog.second);
  const Tree kept = applied(applied({}, plain), without_unsets(off));
  CHECK(kept.count("interface swp1 qos pfc-watchdog state") == 1);
  CHECK(applied(applied({}, plain), off).count("interface swp1 qos pfc-watchdog state") == 0);
}
