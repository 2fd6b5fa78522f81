// Test-only helpers for the NVUE adapter: commands.nvue as `fabricctl render` writes it, and what
// `nv config show -o json` would print after a switch with an empty configuration applied it. The
// model of NVUE's tree is merge_test.cpp's (`nv set PATH VALUE` sets a leaf, `nv unset PATH` removes the
// node, a comma list stands for each member; a key set without a value is an empty object), and NVUE is
// assumed to give an interface it creates `type: swp` and to print numbers as JSON integers
// (nvue/config_reader.h). tests/lab/emulators/nvue.py builds the same tree.
// Included by *_test.cpp only.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fidelity_support.h"
#include "platform/raw_outputs.h"
#include "state/observed.h"
#include "text_lines.h"

namespace fabricctl::nvue::testing {

/// commands.nvue of `device`.
inline std::string commands_of(const DeviceDesired& device) {
  return fabricctl::test::render_template_of("nvue/commands.nvue.mustache", nvue_context(device));
}

/// `tree` after the `nv set` / `nv unset` lines of `commands` (comments skipped).
inline nlohmann::ordered_json applied(nlohmann::ordered_json tree, const std::string& commands) {
  static const std::regex presence(R"(qos pfc \S+ switch-priority \d|interface \S+ qos pfc-watchdog)");
  for (const std::string& line : fabricctl::test::lines_of(commands)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    REQUIRE_MESSAGE((words.size() >= 3 && words[0] == "nv" && (words[1] == "set" || words[1] == "unset")), line);
    std::vector<std::vector<std::string>> paths{{}};
    for (size_t i = 2; i < words.size(); ++i) {
      std::vector<std::vector<std::string>> next;
      std::istringstream list(words[i]);
      for (std::string m; std::getline(list, m, ',');)
        for (auto p : paths) {
          p.push_back(m);
          next.push_back(std::move(p));
        }
      paths = std::move(next);
    }
    for (std::vector<std::string> path : paths) {
      std::string text;
      for (const std::string& w : path) text += (text.empty() ? "" : " ") + w;
      const bool set = words[1] == "set";
      nlohmann::ordered_json value = nlohmann::ordered_json::object();
      if (set && !std::regex_match(text, presence)) {
        const std::string leaf = path.back();
        path.pop_back();
        const bool number = !leaf.empty() && leaf.find_first_not_of("0123456789") == std::string::npos;
        value = number ? nlohmann::ordered_json(std::stoll(leaf)) : nlohmann::ordered_json(leaf);
      }
      nlohmann::ordered_json* node = &tree;
      for (size_t i = 0; i + 1 < path.size() && node != nullptr; ++i) {
        if (!set && !node->contains(path[i])) node = nullptr;
        else node = &(*node)[path[i]];
      }
      if (node == nullptr) continue;
      if (set) (*node)[path.back()] = value;
      else if (node->is_object()) node->erase(path.back());
      if (set && path.size() > 2 && path[0] == "interface") tree["interface"][path[1]]["type"] = "swp";
    }
  }
  return tree;
}

/// What `nv config show -o json` prints after `commands` were applied to an empty configuration.
inline std::string config_show(const std::string& commands) {
  nlohmann::ordered_json tree = applied(nlohmann::ordered_json::object(), commands);
  // What a switch has besides: secrets the collector must not keep.
  tree["system"]["aaa"]["user"]["cumulus"]["hashed-password"] = "$6$s3cret-hash";
  tree["service"]["snmp-server"]["readonly-community"]["s3cret-community"]["access"]["any"] =
      nlohmann::ordered_json::object();
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  out.push_back(
      {{"header",
        {{"model", "SN5600"}, {"nvue-api-version", "nvue_v1"}, {"rev-id", 1.0}, {"version", "Cumulus Linux 5.14.0"}}}});
  out.push_back({{"set", tree}});
  return out.dump(2);
}

/// `nv show interface -o json` and the LLDP view (`nv show interface --view=lldp`) of a switch whose
/// ports are `ports`: each up or down, at its speed and MTU, with its neighbour; plus the management port.
inline RawOutputs show_outputs(const std::vector<PortObserved>& ports) {
  nlohmann::ordered_json ifs = nlohmann::ordered_json::object();
  std::string lldp =
      "Interface  Speed  Type  Remote Host      Remote Port      \n"
      "---------  -----  ----  ---------------  -----------------\n";
  for (const PortObserved& p : ports) {
    ifs[p.name] = {{"type", "swp"},
                   {"link",
                    {{"oper-status", p.oper_up.value_or(false) ? "up" : "down"},
                     {"speed", std::to_string(p.speed_mbps.value_or(0) / 1000) + "G"},
                     {"mtu", p.mtu.value_or(9216)}}}};
    if (!p.lldp) continue;
    std::string row = p.name;
    row.resize(11, ' ');
    row += "400G   swp   " + p.lldp->system_name;
    row.resize(11 + 13 + 17, ' ');
    lldp += row + p.lldp->port_id + "\n";
  }
  ifs["eth0"] = {{"type", "eth"}, {"link", {{"oper-status", "up"}, {"speed", "1G"}, {"mtu", 1500}}}};
  return {{"interfaces.json", ifs.dump()}, {"lldp.txt", lldp}};
}

}  // namespace fabricctl::nvue::testing
