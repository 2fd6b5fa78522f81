#include <exception>
#include <iostream>

#include "cli/command.h"

int main(int argc, char** argv) {
  try {
    return fabricctl::run_cli(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const std::exception& e) {
    std::cerr << "fabricctl: internal error: " << e.what() << "\n";
    return fabricctl::kExitDevice;
  }
}
