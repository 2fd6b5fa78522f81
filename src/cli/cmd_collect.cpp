// fabricctl collect: reads every device of the inventory (over SSH, or from saved raw outputs with
// --from-raw) and writes the snapshot directory verify reads, plus DIR/raw/<device>/<file>: what each
// command printed, as kept by its platform (secrets removed), so that an audit can be replayed.
// A device that cannot be reached or read is named with the reason; the others are still written,
// and the exit code is 3.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <mutex>

#include "cli/args.h"
#include "cli/command.h"
#include "cli/fabric_options.h"
#include "cli/progress.h"
#include "platform/platform.h"
#include "state/snapshot.h"
#include "transport/ssh_session.h"
#include "util/escape.h"
#include "util/file_io.h"
#include "util/parallel.h"

namespace fabricctl {
namespace {

namespace po = boost::program_options;

constexpr const char* kUsage =
    "fabricctl collect -i INVENTORY --out DIR [--from-raw RAWDIR] [-j N] [--known-hosts FILE] "
    "[--accept-new-host-keys] [-q]";
// One raw output, at most: a whole switch's CONFIG_DB is a few MB.
constexpr size_t kMaxRawBytes = size_t{64} << 20;

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

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

/// Runs the platform's commands on the device, one SSH session for all of them; each output as its
/// platform keeps it.
Expected<RawOutputs> read_live(const Collector& c, const DeviceMgmt& m, const SshOptions& ssh) {
  auto session = SshSession::open(endpoint_of(m), ssh);
  if (!session) return unexpected(session.error());
  RawOutputs raw;
  for (const CollectCommand& cmd : c.commands) {
    auto out = session->run(std::string(cmd.command));
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

int cmd_collect(const std::vector<std::string>& args) {
  FabricOptions o;
  std::string out_dir, from_raw, known_hosts;
  int jobs = 32;
  int connect_timeout_s = 10, command_timeout_s = 60;
  bool accept_new = false, quiet = false;
  po::options_description desc("collect options");
  add_fabric_options(desc, o);
  desc.add_options()("out", po::value(&out_dir)->value_name("DIR")->required(),
                     "directory for <device>.json snapshots and raw/<device>/ outputs")(
      "from-raw", po::value(&from_raw)->value_name("RAWDIR"),
      "read RAWDIR/<device>/<file> (a raw/ directory a collect wrote, or a dump) instead of the devices")(
      "jobs,j", po::value(&jobs)->value_name("N"), "devices read at once (default 32)")(
      "known-hosts", po::value(&known_hosts)->value_name("FILE"), "host keys to trust (default ~/.ssh/known_hosts)")(
      "accept-new-host-keys", po::bool_switch(&accept_new),
      "trust and record the key of a device not in known_hosts (a changed key is always refused)")(
      "connect-timeout", po::value(&connect_timeout_s)->value_name("S"), "seconds to connect and log in (default 10)")(
      "command-timeout", po::value(&command_timeout_s)->value_name("S"), "seconds for each command (default 60)")(
      "quiet,q", po::bool_switch(&quiet), "no progress on stderr");
  int exit = kExitOk;
  if (!parse_args(args, desc, kUsage, exit)) return exit;
  if (jobs < 1 || jobs > 1024 || connect_timeout_s < 1 || command_timeout_s < 1) {
    std::cerr << "fabricctl: error: -j takes 1-1024 and the timeouts at least 1 second\nusage: " << kUsage << "\n";
    return kExitInvalid;
  }
  if (out_dir.empty()) {
    std::cerr << "fabricctl: error: the argument for option '--out' is empty: give the output directory\n";
    return kExitInvalid;
  }
  auto fabric = load_fabric(o);
  if (!fabric) return kExitInvalid;
  const bool live = from_raw.empty();
  if (live) {
    Diags diags;
    require_connect_settings(*fabric, diags);
    if (diags.has_errors()) {
      std::cerr << diags.str() << "fabricctl: " << diags.count(DiagSeverity::error)
                << " errors: collect connects to every device; nothing was read\n";
      return kExitInvalid;
    }
  } else if (!std::filesystem::is_directory(from_raw)) {
    std::cerr << "fabricctl: error: --from-raw " << terminal_line(from_raw) << " is not a directory\n";
    return kExitInvalid;
  }
  SshOptions ssh;
  ssh.known_hosts = known_hosts.empty() ? default_known_hosts() : known_hosts;
  ssh.accept_new_host_keys = accept_new;
  ssh.connect_timeout = std::chrono::seconds(connect_timeout_s);
  ssh.command_timeout = std::chrono::seconds(command_timeout_s);

  const std::vector<DeviceDesired>& devices = fabric->desired.devices;
  Progress progress(!quiet && ::isatty(STDERR_FILENO) == 1, std::cerr);
  std::mutex mutex;
  FabricObserved observed;
  size_t done = 0, failed = 0;
  progress.phase("reading " + std::to_string(devices.size()) + " devices");
  parallel_for(devices.size(), std::min<size_t>(static_cast<size_t>(jobs), std::max<size_t>(1, devices.size())),
               [&](size_t, size_t i) {
                 const DeviceDesired& d = devices[i];
                 const Collector& c = adapter(d.platform).collector;
                 Expected<DeviceObserved> got = unexpected(std::string());
                 if (c.commands.empty()) {
                   got = unexpected("fabricctl cannot read " + std::string(to_string(d.platform)) +
                                    " devices yet (this version collects sonic)");
                 } else {
                   auto raw = live ? read_live(c, fabric->mgmt[i], ssh)
                                   : read_raw(c, std::filesystem::path(from_raw) / d.name);
                   if (raw && live)
                     if (auto w = write_raw(std::filesystem::path(out_dir) / "raw" / d.name, *raw); !w)
                       raw = unexpected(w.error());
                   if (raw) got = c.observe(d.name, *raw);
                   else got = unexpected(raw.error());
                 }
                 const std::lock_guard<std::mutex> lock(mutex);
                 ++done;
                 if (got) {
                   got->collected_at = utc_now();
                   got->source = live ? "fabricctl collect" : "fabricctl collect --from-raw";
                   observed.devices.emplace(d.name, std::move(*got));
                 } else {
                   ++failed;
                   observed.record_failure({d.name, FailureStage::collect, got.error()});
                 }
                 progress.phase("read " + std::to_string(done) + "/" + std::to_string(devices.size()) + " devices, " +
                                std::to_string(failed) + " failed");
               });
  progress.clear();
  if (const auto written = write_snapshot_dir(observed, out_dir); !written) {
    std::cerr << "fabricctl: error: " << written.error() << "\n";
    return kExitDevice;
  }
  for (const auto& [device, why] : observed.unreadable)
    std::cerr << "fabricctl: " << device << ": not collected: " << terminal_line(why) << "\n";
  std::cout << "collected " << observed.devices.size() << " of " << devices.size() << " devices into " << out_dir
            << "\n";
  return failed == 0 ? kExitOk : kExitDevice;
}

}  // namespace fabricctl
