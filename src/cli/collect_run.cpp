#include "cli/collect_run.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <mutex>
#include <set>

#include "platform/platform.h"
#include "util/escape.h"
#include "util/file_io.h"
#include "util/parallel.h"

namespace fabricctl {
namespace {

// One raw output, at most: a whole switch's CONFIG_DB is a few MB.
constexpr size_t kMaxRawBytes = size_t{64} << 20;

}  // namespace

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

/// The raw outputs of `device`, read from RAWDIR/<device>/<file>.
Expected<RawOutputs> read_raw(const Collector& c, const std::filesystem::path& dir) {
  RawOutputs raw;
  for (const CollectCommand& cmd : c.commands) {
    auto text = read_regular_file(dir / std::string(cmd.file), {kMaxRawBytes, "raw output"});
    if (!text) return unexpected(text.error().message);
    raw.emplace(std::string(cmd.file), std::move(*text));
  }
  return raw;
}

/// Runs the platform's commands on the device, one SSH session for all of them; each output as its
/// platform keeps it.
Expected<RawOutputs> read_live(const Collector& c, const DeviceDesired& d, const DeviceMgmt& m, const SshOptions& ssh) {
  auto session = SshSession::open(endpoint_of(m), ssh);
  if (!session) return unexpected(session.error());
  RawOutputs raw;
  for (const CollectCommand& cmd : c.commands) {
    const std::string line = c.command_line ? c.command_line(cmd, d, m.fabricctl) : std::string(cmd.command);
    auto out = session->run(line);
    if (!out) return unexpected(out.error());
    if (out->exit_status != 0) {
      std::string first = out->err.substr(0, out->err.find('\n'));
      if (first.empty()) first = out->out.substr(0, out->out.find('\n'));
      return unexpected("`" + std::string(cmd.command) + "` exited with status " + std::to_string(out->exit_status) +
                        (first.empty() ? "" : ": " + terminal_line(first.substr(0, 200))));
    }
    raw.emplace(std::string(cmd.file), cmd.keep ? cmd.keep(out->out) : std::move(out->out));
  }
  return raw;
}

/// Writes DIR/raw/<device>/<file> for every output, each atomically.
Expected<void> write_raw(const std::filesystem::path& dir, const RawOutputs& raw) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return unexpected("cannot create " + dir.string() + ": " + ec.message());
  for (const auto& [file, text] : raw)
    if (auto w = write_file_atomic(dir / file, text, {.mode = 0600, .sync = false}); !w) return unexpected(w.error());
  return {};
}

}  // namespace

SshEndpoint endpoint_of(const DeviceMgmt& m) {
  SshEndpoint e;
  e.device = m.device;
  e.address = m.address;
  e.port = m.port;
  e.user = m.user;
  e.key_file = m.key;
  e.agent = m.agent;
  e.password_env = m.password_env;
  e.host_key = m.host_key;
  return e;
}

SshOptions ssh_options_of(const CollectOptions& o) {
  SshOptions ssh;
  ssh.known_hosts = o.known_hosts.empty() ? default_known_hosts() : o.known_hosts;
  ssh.accept_new_host_keys = o.accept_new_host_keys;
  ssh.connect_timeout = std::chrono::seconds(o.connect_timeout_s);
  ssh.command_timeout = std::chrono::seconds(o.command_timeout_s);
  return ssh;
}

void add_collect_options(boost::program_options::options_description& desc, CollectOptions& o) {
  namespace po = boost::program_options;
  desc.add_options()("jobs,j", po::value(&o.jobs)->value_name("N"), "devices read at once (default 32)")(
      "known-hosts", po::value(&o.known_hosts)->value_name("FILE"), "host keys to trust (default ~/.ssh/known_hosts)")(
      "accept-new-host-keys", po::bool_switch(&o.accept_new_host_keys),
      "trust and record the key of a device not in known_hosts (a changed key is always refused)")(
      "connect-timeout", po::value(&o.connect_timeout_s)->value_name("S"),
      "seconds to connect and log in (default 10)")("command-timeout", po::value(&o.command_timeout_s)->value_name("S"),
                                                    "seconds for each command (default 60)");
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

std::string check_collect_options(const CollectOptions& o) {
  if (o.jobs < 1 || o.jobs > 1024) return "-j takes 1-1024 devices at once";
  if (o.connect_timeout_s < 1 || o.command_timeout_s < 1) return "the timeouts take at least 1 second";
  return {};
}

FabricObserved collect_devices(const Fabric& fabric, const std::vector<std::string>& devices, const CollectOptions& o,
                               Progress& progress, std::map<std::string, RawOutputs, std::less<>>* raws) {
  const SshOptions ssh = ssh_options_of(o);
  const std::set<std::string> wanted(devices.begin(), devices.end());
  std::vector<size_t> picked;
  for (size_t i = 0; i < fabric.desired.devices.size(); ++i)
    if (wanted.empty() || wanted.count(fabric.desired.devices[i].name) > 0) picked.push_back(i);
  const bool live = !o.from_raw;
  std::mutex mutex;
  FabricObserved observed;
  size_t done = 0, failed = 0;
  progress.phase("reading " + std::to_string(picked.size()) + " devices");
  const size_t workers = std::min<size_t>(static_cast<size_t>(o.jobs), std::max<size_t>(1, picked.size()));
  parallel_for(picked.size(), workers, [&](size_t, size_t k) {
    const size_t i = picked[k];
    const DeviceDesired& d = fabric.desired.devices[i];
    const Collector& c = adapter(d.platform).collector;
    // Every platform has a collector (platform_test.cpp holds the table to it).
    auto raw = live ? read_live(c, d, fabric.mgmt[i], ssh) : read_raw(c, *o.from_raw / d.name);
    if (raw && live && o.raw_out)
      if (auto w = write_raw(*o.raw_out / d.name, *raw); !w) raw = unexpected(w.error());
    Expected<DeviceObserved> got = raw ? c.observe(d.name, *raw) : unexpected(raw.error());
    const std::lock_guard<std::mutex> lock(mutex);
    ++done;
    if (raw && raws) raws->insert_or_assign(d.name, std::move(*raw));
    if (got) {
      got->collected_at = utc_now();
      got->source = live ? "fabricctl collect" : "fabricctl collect --from-raw";
      observed.devices.emplace(d.name, std::move(*got));
    } else {
      ++failed;
      // The reason may carry what a device said (an SSH disconnect message): one printable line.
      observed.record_failure({d.name, FailureStage::collect, terminal_line(got.error())});
    }
    progress.phase("read " + std::to_string(done) + "/" + std::to_string(picked.size()) + " devices, " +
                   std::to_string(failed) + " failed");
  });
  progress.clear();
  return observed;
}

}  // namespace fabricctl
