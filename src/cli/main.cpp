#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/internal_error.h"
#include "cli/read_options.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  // -j may reach thousands of devices, each a descriptor or two: the hard limit, not the soft 1024.
  fabricctl::raise_descriptor_limit();
  // Exit 4 for a bug, distinct from 3 (device state missing): see cli/internal_error.h.
  return fabricctl::run_guarded([&] { return fabricctl::run_cli(args); }, std::cerr);
}
