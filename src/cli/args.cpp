#include "cli/args.h"

#include <algorithm>
#include <iostream>

#include "cli/command.h"
#include "util/diag.h"
#include "util/spell.h"

namespace fabricctl {

namespace po = boost::program_options;

namespace {

// Arguments after the one positional inventory, collected so that the first can be named.
constexpr const char* kStray = "stray-argument";

// Exact matching only: boost's default style guesses an option from any unique prefix.
constexpr int kStyle = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

/// The command named by `usage` ("fabricctl render -i ...": "render"), for its examples.
const Command* command_of(std::string_view usage) {
  constexpr std::string_view kTool = "fabricctl ";
  if (!usage.starts_with(kTool)) return nullptr;
  usage.remove_prefix(kTool.size());
  return find_command(usage.substr(0, usage.find(' ')));
}

void print_help(std::string_view usage, const po::options_description& desc) {
  std::cout << "usage: " << usage << "\n\n" << desc;
  if (const Command* c = command_of(usage); c && !c->examples.empty()) std::cout << "\nexamples:\n" << c->examples;
}

}  // namespace

std::string unknown_option_message(std::string_view option, const po::options_description& desc) {
  std::string msg = "unknown option " + std::string(option);
  if (!option.starts_with("--")) return msg;
  const std::string_view word = option.substr(2);
  std::vector<std::string> names;
  for (const auto& o : desc.options())
    if (!o->long_name().empty() && o->long_name() != kStray) names.push_back(o->long_name());
  const std::vector<std::string_view> views(names.begin(), names.end());
  // A typo or an abbreviation ("--inv": closest_match's abbreviates()); never a guess among several.
  const std::string hint = closest_match(word, views);
  if (!hint.empty()) msg += "; did you mean --" + hint + "?";
  return msg;
}

std::string check_choice(std::string_view what, std::string_view value, const std::vector<std::string_view>& allowed) {
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return "";
  std::string msg = "unknown " + std::string(what) + " " + quote(value);
  const std::string hint = closest_match(value, allowed);
  if (!hint.empty()) msg += "; did you mean " + quote(hint) + "?";
  std::string list;
  for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  return msg + " (" + list + ")";
}

bool parse_args(const std::vector<std::string>& args, const po::options_description& desc, std::string_view usage,
                int& exit, std::string_view positional_option) {
  po::options_description shown(desc);
  shown.add_options()("help,h", "show this help");
  po::options_description all(shown);
  std::vector<std::string> stray;
  all.add_options()(kStray, po::value(&stray)->composing());
  // Every positional argument is collected; the first becomes the inventory (`validate inventory/lab`)
  // unless -i gave it, and any other is named as unexpected.
  po::positional_options_description positional;
  positional.add(kStray, -1);
  const std::string inventory(positional_option);
  const bool takes_inventory = desc.find_nothrow(inventory, false) != nullptr;
  auto usage_error = [&](const std::string& message) {
    std::cerr << "fabricctl: error: " << message << "\nusage: " << usage << "\n";
    exit = kExitInvalid;
    return false;
  };
  po::variables_map vm;
  try {
    po::parsed_options parsed = po::command_line_parser(args).options(all).positional(positional).style(kStyle).run();
    bool inventory_given = false;
    for (const po::option& opt : parsed.options) inventory_given = inventory_given || opt.string_key == inventory;
    for (po::option& opt : parsed.options)
      if (takes_inventory && !inventory_given && opt.position_key >= 0) {
        opt.string_key = inventory;
        break;
      }
    po::store(parsed, vm);
    if (vm.count("help")) {
      print_help(usage, shown);
      exit = kExitOk;
      return false;
    }
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    return usage_error(unknown_option_message(e.get_option_name(), shown));
  } catch (const po::error& e) {
    return usage_error(e.what());
  }
  if (!stray.empty()) {
    std::string msg = "unexpected argument " + quote(stray.front());
    if (vm.count(inventory))
      msg += " (the " + (inventory == "inventory" ? inventory : "--" + inventory) + " is " +
             quote(vm[inventory].as<std::string>()) + "; options start with -)";
    return usage_error(msg);
  }
  return true;
}

}  // namespace fabricctl
