// fabricctl host collect: run on a host (as root, for DCB netlink), it prints the host's observed state
// as a snapshot on stdout. The controller runs it over SSH (`collect`, live `verify`); a fleet tool
// (systemd timer, DaemonSet) can run it on every host and ship the files to `verify --snapshots`.
#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/host_collect.h"
#include "state/snapshot.h"
#include "util/escape.h"

namespace fabricctl {
namespace {

constexpr const char* kUsage =
    "fabricctl host collect [--device NAME] [--port NETDEV]... [--root DIR] [--lldp-socket PATH] [--dcb-from DIR]";

int host_collect(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  HostCollectOptions o;
  std::string root = "/", dcb_from;
  po::options_description desc("host collect options");
  desc.add_options()("device", po::value(&o.device)->value_name("NAME"),
                     "the host's name in the inventory (default: its host name)")(
      "port", po::value(&o.ports)->value_name("NETDEV"),
      "a network interface to read; repeat it (default: all but lo)")(
      "root", po::value(&root)->value_name("DIR"), "prefix of /sys and /etc (a fixture tree); default /")(
      "lldp-socket", po::value(&o.lldp_socket)->value_name("PATH"), "lldpd's control socket (lldpcli -u)")(
      "dcb-from", po::value(&dcb_from)->value_name("DIR"),
      "read each port's DCB reply from DIR/<netdev>.dcbnl (saved netlink bytes) instead of asking the kernel");
  int exit = kExitOk;
  if (!parse_args(args, desc, kUsage, exit)) return exit;
  o.root = root;
  o.dcb_from = dcb_from;
  std::vector<std::string> warnings;
  auto observed = collect_host(o, warnings);
  for (const std::string& w : warnings) std::cerr << "fabricctl: warning: " << terminal_line(w) << "\n";
  if (!observed) {
    std::cerr << "fabricctl: error: " << terminal_line(observed.error()) << "\n";
    return kExitDevice;
  }
  for (const auto& [port, why] : observed->unreadable_ports)
    std::cerr << "fabricctl: " << observed->name << ":" << port << ": not read: " << terminal_line(why) << "\n";
  std::cout << write_snapshot(*observed);
  return kExitOk;
}

}  // namespace

int cmd_host(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() == "collect") return host_collect({args.begin() + 1, args.end()});
  if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
    std::cout << "usage: " << kUsage << "\n";
    return kExitOk;
  }
  std::cerr << "fabricctl: error: "
            << (args.empty() ? "fabricctl host needs a subcommand"
                             : "unknown host subcommand \"" + terminal_line(args.front()) + "\"")
            << "; the one there is: collect\nusage: " << kUsage << "\n";
  return kExitInvalid;
}

}  // namespace fabricctl
