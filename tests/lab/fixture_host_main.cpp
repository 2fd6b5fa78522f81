// fabricctl_fixture_host: the real fabricctl CLI with the kernel replaced by its model over the fixture
// tree named by --root (tests/unit/fixture_kernel.h): what the lab's hosts and tests/cli/host_apply.sh
// run, so that their sysfs/configfs writes are parsed, refused and shown back as the kernel would.
// Everything else (rtnetlink, the saved DCB replies of --dcb-from, the transaction record) is as in
// fabricctl itself. Never installed: a test tool.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/internal_error.h"
#include "fixture_kernel.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string root;
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--root") root = args[i + 1];
  if (root.empty() || root == "/") {
    std::cerr << "fabricctl_fixture_host: needs --root DIR, a fixture tree (it models no live kernel)\n";
    return 2;
  }
  static fabricctl::test::FixtureKernel kernel(root);
  fabricctl::ops::install_attribute_files(kernel);
  return fabricctl::run_guarded([&] { return fabricctl::run_cli(args); }, std::cerr);
}
