#include "cli/command.h"

#include <iostream>

#include "util/spell.h"

namespace fabricctl {

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"validate", "check profiles and inventory; touches nothing", cmd_validate,
       "  fabricctl validate -i inventory/lab                every error as file:line:col, exit 2\n"
       "  fabricctl validate -i site/inventory -p site/profiles\n"
       "  fabricctl validate -i site/inventory -o json        diagnostics as data, for a merge-request bot\n"},
      {"design", "a rail-optimized fabric's inventory from its sizes, speeds and platforms; grow it pod by pod",
       cmd_design,
       "  fabricctl design rail-optimized designs/rail-optimized.yaml            the numbers: ports, oversubscription, "
       "optics\n"
       "  fabricctl design rail-optimized site/design.yaml --out site/inventory   write the inventory\n"
       "  fabricctl design rail-optimized site/design.yaml --grow site/inventory  more hosts, nothing renamed\n"
       "  fabricctl design rail-optimized site/design.yaml --check site/inventory exit 1 if edited by hand\n"},
      {"render", "write native configuration for every device to a directory", cmd_render,
       "  fabricctl render -i inventory/lab --out out/lab\n"
       "  fabricctl render -i site/inventory -p site/profiles --templates site/templates --out out\n"},
      {"verify", "compare observed state with intent and both ends of every link", cmd_verify,
       "  fabricctl verify -i inventory/lab --snapshots snaps/              table on stdout, exit 1 on findings\n"
       "  fabricctl verify -i inv -s snaps --limit 'rail0*' --check 'link.*'  one rail, link checks only\n"
       "  fabricctl verify -i inv -s snaps --report junit=verify.xml --report prometheus=fabric.prom\n"
       "  fabricctl verify -i inv -s snaps -o json --exit-zero                for a dashboard\n"
       "  fabricctl verify --list-checks -o json                             the check catalog\n"},
      {"health", "judge the counters between two readings as rates, on both ends of every link", cmd_health,
       "  fabricctl health -i inventory --since snaps/ --snapshots snaps-later/   two saved readings\n"
       "  fabricctl health -i inventory --since snaps/                             a saved reading and now\n"
       "  fabricctl health -i inv --since snaps/ -o prometheus > health.prom       for node_exporter\n"},
      {"triage", "name the most likely culprit: physical, config, congestion and RDMA, in that order", cmd_triage,
       "  fabricctl triage -i inventory --since snaps/                     the whole fabric, read now\n"
       "  fabricctl triage -i inv --since snaps/ --limit gpu17 --limit gpu42   a slow job's hosts, their leaves, "
       "spines\n"
       "  fabricctl triage -i inv --since snaps/ --snapshots later/ -o json    two saved readings, for a bot\n"},
      {"baseline", "save the fabric's normal: counter rates between two readings, and its state", cmd_baseline,
       "  fabricctl baseline save -i inventory --since snaps/ --out baseline/   a healthy window, read now\n"
       "  fabricctl health -i inventory --since snaps/ --baseline baseline/     rates against it\n"},
      {"acceptance", "judge the bandwidth tests of every rail's host pairs (ib_write_bw) and nccl-tests runs",
       cmd_acceptance,
       "  fabricctl acceptance -i inventory --out bw/                            run each rail's pairs, keep the reports\n"
       "  fabricctl acceptance -i inventory --from-raw bw/                       pairs at 90% of the line rate?\n"
       "  fabricctl acceptance -i inventory --from-raw bw/ --baseline baseline/  kept beside the baseline\n"},
      {"diff", "what a change to the intent does: intent changes and native diffs of two versions", cmd_diff,
       "  fabricctl diff -i inventory --base-rev origin/main            the merge request against main\n"
       "  fabricctl diff -i inventory --base ../main-checkout -o json   for a CI bot\n"},
      {"collect", "read every device (SSH, or saved raw outputs) into snapshots verify reads", cmd_collect,
       "  fabricctl collect -i inventory --out snaps/                           over SSH, host keys from known_hosts\n"
       "  fabricctl collect -i inventory --out snaps/ --accept-new-host-keys    first run: record unknown keys\n"
       "  fabricctl collect -i inventory --out replay/ --from-raw snaps/raw     parse saved outputs offline\n"},
      {"plan", "what apply would change on each device, natively, and why (only what differs)", cmd_plan,
       "  fabricctl plan -i inventory/lab                         read the devices, print the changes\n"
       "  fabricctl plan -i inv --out plan/ --detailed-exitcode   save it for review; exit 1 when it changes something\n"
       "  fabricctl plan -i inv --snapshots snaps/ -o json        from what a collect saved\n"},
      {"apply", "change the devices with each platform's transaction, verify, confirm or roll back", cmd_apply,
       "  fabricctl apply -i inventory/lab --dry-run                print the plan, change nothing\n"
       "  fabricctl apply -i inv --plan plan/ --yes                 exactly the reviewed plan\n"
       "  fabricctl apply -i inv --yes --canary 2 --max-failures 3  two devices first, then the rest\n"},
      {"host", "on a host: its NIC state (netlink, sysfs, lldpd) as a snapshot on stdout (host collect)", cmd_host,
       "  fabricctl host collect --device host1 > host1.json     as root, on the host\n"
       "  fabricctl host collect --port ens1f0np0 --port ens2f0np0\n"},
      {"snapshot", "write device snapshots (for now: what intent implies, --from-intent)", cmd_snapshot,
       "  fabricctl snapshot --from-intent -i inventory/lab --out snaps/\n"},
  };
  return table;
}

const Command* find_command(std::string_view name) {
  for (const Command& c : commands())
    if (c.name == name) return &c;
  return nullptr;
}

namespace {

void usage(std::ostream& out) {
  out << "usage: fabricctl <command> [options]\n\ncommands:\n";
  for (const Command& c : commands()) {
    std::string name(c.name);
    name.resize(12, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nRun 'fabricctl help <command>' or 'fabricctl <command> --help' for a command's options and examples.\n";
}

int unknown_command(const std::string& name) {
  std::vector<std::string_view> names;
  for (const Command& c : commands()) names.push_back(c.name);
  std::cerr << "fabricctl: error: unknown command " << name << did_you_mean(name, names) << "\n";
  usage(std::cerr);
  return kExitInvalid;
}

}  // namespace

int run_cli(const std::vector<std::string>& args) {
  if (args.empty()) {
    usage(std::cerr);
    return kExitInvalid;
  }
  const std::string& name = args[0];
  if (name == "-h" || name == "--help" || (name == "help" && args.size() == 1)) {
    usage(std::cout);
    return kExitOk;
  }
  if (name == "help") {  // `fabricctl help render` is `fabricctl render --help`
    if (args.size() > 2) {
      std::cerr << "fabricctl: error: help takes one command, not " << args.size() - 1 << " arguments\n";
      return kExitInvalid;
    }
    const Command* c = find_command(args[1]);
    return c ? c->run({"--help"}) : unknown_command(args[1]);
  }
  if (name == "--version" || name == "version") {
    std::cout << "fabricctl " << FABRICCTL_VERSION << " (" << FABRICCTL_COMMIT << ")\n";
    return kExitOk;
  }
  // Exact match only: a prefix that happens to be unique today breaks scripts tomorrow.
  if (const Command* c = find_command(name)) return c->run(std::vector<std::string>(args.begin() + 1, args.end()));
  return unknown_command(name);
}

}  // namespace fabricctl
