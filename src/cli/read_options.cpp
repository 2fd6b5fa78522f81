#include "cli/read_options.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <thread>

#include "cli/sleep.h"
#include "ops/paced_connector.h"
#include "util/diag.h"
#include "util/escape.h"

namespace fabricctl {

int default_jobs() {
  // Each device in flight costs the controller its key exchange and the parsing of what it printed;
  // the devices do the rest. 0: the core count is unknown.
  const unsigned cores = std::thread::hardware_concurrency();
  return static_cast<int>(std::clamp(4U * (cores == 0 ? 1U : cores), 4U, 32U));
}

ops::SshSettings ssh_settings(const ReadOptions& o) {
  ops::SshSettings ssh;
  ssh.known_hosts = o.known_hosts;
  ssh.accept_new_host_keys = o.accept_new_host_keys;
  ssh.connect_timeout = std::chrono::seconds(o.connect_timeout_s);
  ssh.command_timeout = std::chrono::seconds(o.command_timeout_s);
  return ssh;
}

int max_jobs() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 65536;
  return static_cast<int>(std::clamp<rlim_t>((r.rlim_cur > 64 ? r.rlim_cur - 64 : 0) / 2, 1, 65536));
}

void raise_descriptor_limit() {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0 || r.rlim_cur >= r.rlim_max) return;
  r.rlim_cur = std::min<rlim_t>(r.rlim_max, rlim_t{1} << 20);
  ::setrlimit(RLIMIT_NOFILE, &r);  // failing leaves the limit as it was: max_jobs() reads what holds
}

std::unique_ptr<ops::Connector> connector_of(const ReadOptions& o) {
  ops::Pacing pacing;
  pacing.connects_per_s = o.connect_rate;
  return std::make_unique<ops::PacedConnector>(ops::ssh_connector(ssh_settings(o)), pacing, ops::system_clock(),
                                               sleep_unless_stopped);
}

void add_read_options(boost::program_options::options_description& desc, ReadOptions& o) {
  namespace po = boost::program_options;
  desc.add_options()("jobs,j", po::value(&o.jobs)->value_name("N"),
                     "devices read at once (default 4 per core, at most 32)")(
      "known-hosts", po::value(&o.known_hosts)->value_name("FILE"), "host keys to trust (default ~/.ssh/known_hosts)")(
      "accept-new-host-keys", po::bool_switch(&o.accept_new_host_keys),
      "trust and record the key of a device not in known_hosts (a changed key is always refused)")(
      "connect-timeout", po::value(&o.connect_timeout_s)->value_name("S"),
      "seconds to connect and log in (default 10)")("command-timeout", po::value(&o.command_timeout_s)->value_name("S"),
                                                    "seconds for each command (default 60)")(
      "connect-rate", po::value(&o.connect_rate)->value_name("N"),
      "new connections a second, at most (default 200; 0: no limit); a refused connection is tried 3 times, "
      "about 1 s and 2 s apart");
}

FabricObserved read_devices_now(const Fabric& fabric, const std::vector<std::string>& names, const ReadOptions& o,
                                ops::Observer& observer, bool counters) {
  const auto connector = connector_of(o);
  ops::Context ctx{*connector, observer};
  ops::CollectOptions how;
  how.jobs = o.jobs;
  how.counters = counters;
  return ops::collect_devices(fabric, names, how, ctx);
}

bool connect_settings_complete(const Fabric& fabric, std::string_view why, const std::set<std::string>& only) {
  Diags diags;
  require_connect_settings(fabric, diags, only);
  if (!diags.has_errors()) return true;
  std::cerr << diags.str() << "fabricctl: " << diags.count(DiagSeverity::error) << " errors: " << why
            << "; nothing was read\n";
  return false;
}

void print_unreadable_ports(const FabricObserved& observed, std::ostream& err) {
  constexpr size_t kListedPorts = 10;
  size_t bad_ports = 0;
  for (const auto& [name, device] : observed.devices)
    for (const auto& [port, why] : device.unreadable_ports)
      if (bad_ports++ < kListedPorts)
        err << "fabricctl: " << name << ": port " << terminal_line(port) << " unreadable: " << terminal_line(why)
            << "\n";
  if (bad_ports > kListedPorts) err << "fabricctl: and " << bad_ports - kListedPorts << " more unreadable ports\n";
}

std::string check_read_options(const ReadOptions& o) {
  if (o.jobs < 1 || o.jobs > max_jobs())
    return "-j takes 1-" + std::to_string(max_jobs()) +
           " devices at once (the most the descriptor limit, `ulimit -n`, allows)";
  if (!(o.connect_rate >= 0 && o.connect_rate <= 100000)) return "--connect-rate takes 0-100000 connections a second";
  if (o.connect_timeout_s < 1 || o.command_timeout_s < 1) return "the timeouts take at least 1 second";
  return {};
}

}  // namespace fabricctl
