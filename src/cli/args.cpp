#include "cli/args.h"

#include <iostream>

#include "cli/command.h"

namespace fabricctl {

namespace po = boost::program_options;

bool parse_args(const std::vector<std::string>& args, const po::options_description& desc, std::string_view usage,
                int& exit) {
  po::options_description all(desc);
  all.add_options()("help,h", "show this help");
  po::variables_map vm;
  po::positional_options_description positional;
  if (desc.find_nothrow("inventory", false)) positional.add("inventory", 1);  // `validate inventory/lab`
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << "usage: " << usage << "\n\n" << all;
      exit = kExitOk;
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "fabricctl: error: " << e.what() << "\nusage: " << usage << "\n";
    exit = kExitInvalid;
    return false;
  }
  return true;
}

}  // namespace fabricctl
