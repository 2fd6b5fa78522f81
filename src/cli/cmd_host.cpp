// fabricctl host collect: run on a host (as root, for DCB netlink), it prints the host's observed state
// as a snapshot on stdout. The controller runs it over SSH (`collect`, live `verify`); a fleet tool
// (systemd timer, DaemonSet) can run it on every host and ship the files to `verify --snapshots`.
#include <filesystem>
#include <iostream>
#include <iterator>
#include <set>
#include <string>

#include "cli/args.h"
#include "cli/command.h"
#include "ops/host_apply.h"
#include "ops/host_collect.h"
#include "state/snapshot.h"
#include "util/escape.h"

namespace fabricctl {
namespace {

constexpr const char* kUsage =
    "fabricctl host collect [--device NAME] [--port NETDEV]... [--root DIR] [--lldp-socket PATH] [--dcb-from DIR]";

int host_collect(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  ops::HostCollectOptions o;
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
  auto observed = ops::collect_host(o, warnings);
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

constexpr const char* kTxUsage =
    "fabricctl host apply --device NAME (--transaction ID --confirm-timeout S | --dry-run) < nic-state.json\n"
    "       fabricctl host confirm --transaction ID\n"
    "       fabricctl host rollback --transaction ID [--after S]\n"
    "       fabricctl host extend --transaction ID --confirm-timeout S\n"
    "       fabricctl host pending\n"
    "       each also takes [--root DIR] [--dcb-from DIR] [--lldp-socket PATH]";

/// What the host's side of a transaction did, printed, and its exit status: 0 done (dry run: nothing
/// would change), 1 (dry run: something would), 2 bad input, 3 a change failed (restored).
int print_tx(const ops::HostTxResult& r) {
  std::cout << r.out << std::flush;
  if (!r.error.empty()) std::cerr << "fabricctl: error: " << terminal_line(r.error) << "\n";
  switch (r.status) {
    case ops::HostTxStatus::done: return kExitOk;
    case ops::HostTxStatus::would_change: return kExitFindings;
    case ops::HostTxStatus::invalid: return kExitInvalid;
    case ops::HostTxStatus::failed: return kExitDevice;
  }
  return kExitDevice;
}

/// host apply | confirm | rollback: the host's side of a Linux transaction (ops/host_apply.h).
int host_tx(const std::string& sub, const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  ops::HostTxOptions o;
  std::string root = "/", dcb_from;
  po::options_description desc("host " + sub + " options");
  desc.add_options()("transaction", po::value(&o.transaction)->value_name("ID"), "the transaction's name")(
      "root", po::value(&root)->value_name("DIR"), "prefix of /sys, /etc and /var (a fixture tree); default /")(
      "dcb-from", po::value(&dcb_from)->value_name("DIR"),
      "DCB state as saved replies DIR/<netdev>.dcbnl, read and rewritten, instead of the kernel's")(
      "lldp-socket", po::value(&o.lldp_socket)->value_name("PATH"), "accepted for symmetry with host collect");
  if (sub == "apply" || sub == "extend")
    desc.add_options()("confirm-timeout", po::value(&o.confirm_timeout_s)->value_name("S"),
                       "revert by itself unless confirmed within S seconds (extend: from now)");
  if (sub == "apply")
    desc.add_options()("device", po::value(&o.device)->value_name("NAME"), "the host's name in the inventory")(
        "dry-run", po::bool_switch(&o.dry_run), "print what would change; exit 1 if anything would");
  if (sub == "rollback")
    desc.add_options()("after", po::value(&o.after_s)->value_name("S"), "wait S seconds first (the revert timer)");
  int exit = kExitOk;
  if (!parse_args(args, desc, kTxUsage, exit)) return exit;
  o.root = root;
  o.dcb_from = dcb_from;
  std::error_code ec;
  o.self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (sub == "confirm") return print_tx(ops::host_confirm(o));
  if (sub == "rollback") return print_tx(ops::host_rollback(o));
  if (sub == "extend") return print_tx(ops::host_extend(o));
  if (sub == "pending") return print_tx(ops::host_pending(o));
  const std::string input{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  return print_tx(ops::host_apply(o, input));
}

}  // namespace

int cmd_host(const std::vector<std::string>& args) {
  if (!args.empty() && args.front() == "collect") return host_collect({args.begin() + 1, args.end()});
  static const std::set<std::string, std::less<>> kTx = {"apply", "confirm", "rollback", "extend", "pending"};
  if (!args.empty() && kTx.contains(args.front())) return host_tx(args.front(), {args.begin() + 1, args.end()});
  if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {
    std::cout << "usage: " << kUsage << "\n       " << kTxUsage << "\n";
    return kExitOk;
  }
  std::cerr << "fabricctl: error: "
            << (args.empty() ? "fabricctl host needs a subcommand"
                             : "unknown host subcommand \"" + terminal_line(args.front()) + "\"")
            << "; the ones there are: collect, apply, confirm, rollback, extend, pending\nusage: " << kUsage
            << "\n       " << kTxUsage << "\n";
  return kExitInvalid;
}

}  // namespace fabricctl
