#include "cli/command.h"

#include <iostream>

#include "util/spell.h"

namespace fabricctl {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"validate", "check profiles and inventory; touches nothing", cmd_validate},
      {"render", "write native configuration for every device to a directory", cmd_render},
      {"verify", "compare observed state with intent and both ends of every link", cmd_verify},
      {"snapshot", "write device snapshots (for now: what intent implies, --from-intent)", cmd_snapshot},
  };
  return table;
}

namespace {

void usage(std::ostream& out) {
  out << "usage: fabricctl <command> [options]\n\ncommands:\n";
  for (const Command& c : commands()) {
    std::string name(c.name);
    name.resize(12, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nRun 'fabricctl <command> --help' for a command's options.\n";
}

}  // namespace

int run_cli(const std::vector<std::string>& args) {
  if (args.empty()) {
    usage(std::cerr);
    return kExitInvalid;
  }
  const std::string& name = args[0];
  if (name == "-h" || name == "--help" || name == "help") {
    usage(std::cout);
    return kExitOk;
  }
  if (name == "--version" || name == "version") {
    std::cout << "fabricctl " << FABRICCTL_VERSION << "\n";
    return kExitOk;
  }
  std::vector<std::string_view> names;
  for (const Command& c : commands()) {
    // Exact match only: a prefix that happens to be unique today breaks scripts tomorrow.
    if (c.name == name) return c.run(std::vector<std::string>(args.begin() + 1, args.end()));
    names.push_back(c.name);
  }
  std::cerr << "fabricctl: error: unknown command " << name;
  std::cerr << did_you_mean(name, names);
  std::cerr << "\n";
  usage(std::cerr);
  return kExitInvalid;
}

}  // namespace fabricctl
