// For the switch transactions' tests: a factory-default switch of one platform, its NOS emulator
// (tests/lab/emulators/<name>.py, served by its command server zygote.py) the ForceCommand of a real
// sshd on 127.0.0.1, and an SshSession to it. The tests run a transaction's steps through the
// session, and read the switch back with the collector's own commands, as apply does.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "shared_dir.h"
#include "sshd_fixture.h"
#include "temp_dir.h"
#include "transport/ssh_session.h"
#include "util/subprocess.h"

namespace fabricctl::test {

/// Skips (prints SKIP, passes) without sshd or python3; fails instead in CI, which installs both.
inline bool have_emulator_tools(const Sshd& sshd) {
  std::string why = sshd.skip_reason;
  if (why.empty() && access("/usr/bin/python3", X_OK) != 0) why = "python3 is not installed";
  return why.empty() || unavailable(why);
}

/// The switch's emulator server (tests/lab/emulators/zygote.py): Python started and the emulator
/// imported once, a fork per SSH command; its client (emu_client.c) is sshd's ForceCommand. Stopped,
/// with the commands it runs, in the destructor.
class EmulatorServer {
 public:
  EmulatorServer(const std::string& emulator, const std::filesystem::path& dir)
      : emulator_(emulator), socket_((dir / "emu.sock").string()), client_((dir / "emu-client").string()) {}
  EmulatorServer(const EmulatorServer&) = delete;
  EmulatorServer& operator=(const EmulatorServer&) = delete;
  ~EmulatorServer() {
    if (pid_ > 0) {
      kill(-pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }

  /// What sshd runs for a login: the client, handing the command to this server for `state`.
  [[nodiscard]] std::string force_command(const std::string& state) const {
    return client_ + " " + socket_ + " " + state;
  }
  /// The emulator run as `EMULATOR STATE ARGS...` through this server (SSH_ORIGINAL_COMMAND from the
  /// environment), for run_command: a fork of the server, not a Python start.
  [[nodiscard]] std::vector<std::string> command(const std::string& state,
                                                 const std::vector<std::string>& args = {}) const {
    std::vector<std::string> argv{client_, socket_, state};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  void start() {
    REQUIRE(run_command({"/usr/bin/python3", zygote(), "--client", client_}));
    pid_ = spawn_group({"/usr/bin/python3", zygote(), socket_, emulator_});  // its commands stop with it
    // It renames its socket into place once it listens: at most 5 s.
    for (int i = 0; i < 250 && !std::filesystem::exists(socket_); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    REQUIRE_MESSAGE(std::filesystem::exists(socket_), "the emulator server did not start: " << emulator_);
  }

 private:
  static std::string zygote() { return std::string(FABRICCTL_SOURCE_DIR) + "/tests/lab/emulators/zygote.py"; }
  std::string emulator_, socket_, client_;
  pid_t pid_ = -1;
};

class EmulatedSwitch {
 public:
  /// `emulator`: the file name under tests/lab/emulators/; `ports_json`: its ports.json (names, speeds
  /// and oper state in the NOS's own units); `device`: the intent, example_switch() on `ports`.
  EmulatedSwitch(Platform platform, const std::string& emulator, const std::vector<std::string>& ports,
                 std::string ports_json)
      : device(example_switch(platform, ports)),
        applier(adapter(platform).applier),
        platform_(platform),
        emulator_(std::string(FABRICCTL_SOURCE_DIR) + "/tests/lab/emulators/" + emulator),
        ports_json_(std::move(ports_json)),
        server_(emulator_, server_dir_.path),
        sshd_(server_.force_command(state_.path.string())) {}

  EmulatedSwitch(const EmulatedSwitch&) = delete;
  EmulatedSwitch& operator=(const EmulatedSwitch&) = delete;
  /// Ends the revert timers the test left armed: their processes would otherwise sleep out their
  /// windows (minutes) after the test, to find its state directory gone.
  ~EmulatedSwitch() {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(state_.path / "timers", ec), end; !ec && it != end; it.increment(ec)) {
      if (it->path().extension() != ".json") continue;
      std::ifstream in(it->path());
      const auto timer = nlohmann::json::parse(in, nullptr, false);
      if (!timer.is_object() || !timer.contains("pid") || !timer["pid"].is_number_integer()) continue;
      const pid_t pid = timer["pid"].get<pid_t>();
      std::ifstream cmdline("/proc/" + std::to_string(pid) + "/cmdline");
      const std::string argv((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
      // Still that timer's process (common.py disarm_timer's test): its state directory and --timer.
      if (argv.find(state_.path.string()) != std::string::npos && argv.find("--timer") != std::string::npos)
        kill(pid, SIGTERM);
    }
  }

  DeviceDesired device;
  Applier applier;
  std::optional<SshSession> session;

  /// Writes the factory configuration and opens the session; false (SKIP printed) without the tools.
  bool up() {
    if (!have_emulator_tools(sshd_)) return false;
    spit(state_.path / "ports.json", ports_json_);
    REQUIRE(run_command({"/usr/bin/python3", emulator_, state_.path.string(), "--factory"}));
    server_.start();
    SshEndpoint e;
    e.device = "leaf1";
    e.address = "127.0.0.1";
    e.port = sshd_.port;
    e.user = sshd_.user;
    e.key_file = sshd_.dir + "/client";
    SshOptions o;
    o.known_hosts = sshd_.dir + "/known_hosts";
    std::ofstream(o.known_hosts) << sshd_.known_hosts_line();
    auto s = SshSession::open(e, o);
    REQUIRE_MESSAGE(s, s.error() << "\n" << sshd_.log());
    session.emplace(std::move(*s));
    return true;
  }

  /// What the collector reads for `device`, kept as it keeps it; the counter commands only when asked
  /// (as plan and apply read a device).
  RawOutputs collect(bool counters = false) {
    RawOutputs raw;
    const Collector& collector = adapter(platform_).collector;
    for (const CollectCommand& c : collector.commands) {
      if (c.counter && !counters) continue;
      for (const CommandRun& run : command_runs(collector, c, device, "fabricctl")) {
        auto out = session->run(run.line);
        REQUIRE_MESSAGE(out, out.error());
        if (c.counter && out->exit_status != 0) continue;  // as collect: the release lacks these counters
        REQUIRE_MESSAGE(out->exit_status == 0, out->err);
        raw[run.file] = c.keep != nullptr ? c.keep(out->out) : out->out;
      }
    }
    return raw;
  }
  /// The port's MTU (bytes) as the collector observes it; -1 when it has none.
  int mtu(const std::string& port) {
    auto d = adapter(platform_).collector.observe("leaf1", collect());
    REQUIRE_MESSAGE(d, d.error());
    for (const PortObserved& p : d->ports)
      if (p.name == port) return p.mtu.value_or(-1);
    return -1;
  }
  NativeChange change() {
    auto c = applier.change(device, collect());
    REQUIRE_MESSAGE(c, c.error());
    return *c;
  }
  /// Runs `steps` in order and stops at the first failure: "" or failure()'s reason.
  std::string run(const std::vector<RemoteStep>& steps) {
    for (const RemoteStep& s : steps) {
      auto out = session->run(s.command, s.input);
      REQUIRE_MESSAGE(out, out.error());
      std::string why = applier.failure(s, {out->exit_status, out->out, out->err});
      if (!why.empty()) return why;
    }
    return {};
  }
  /// The device's revert timers fire now, as their deadlines would make them (the emulators' fire hook,
  /// tests/lab/emulators/common.py): "fabricctl was killed, the window passed" without waiting for it.
  /// The timers themselves, in real time, are the lab's subject (tests/cli/lab_apply.sh).
  void fire_timers() { REQUIRE(run_command({"/usr/bin/python3", emulator_, state_.path.string(), "--fire-timers"})); }
  /// Whether a revert timer is armed.
  [[nodiscard]] bool timer_armed() const {
    return std::filesystem::exists(state_.path / "timers") && !std::filesystem::is_empty(state_.path / "timers");
  }
  /// A file of the emulator's state directory ("" when it does not exist).
  [[nodiscard]] std::string file(const std::string& name) const {
    std::ifstream in(state_.path / name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  [[nodiscard]] const std::filesystem::path& state() const { return state_.path; }

 private:
  Platform platform_;
  std::string emulator_;
  std::string ports_json_;
  TempDir state_;  // before sshd_: its ForceCommand names the directory
  TempDir server_dir_;
  EmulatorServer server_;  // before sshd_, after it in destruction: sshd's logins reach it
  Sshd sshd_;
};

/// The transaction the tests stage: a fixed name (`suffix` tells two apart), the device's revert timer
/// at `seconds` (long: the tests fire it with fire_timers() rather than wait).
inline TransactionId id_with_timer(int seconds, const std::string& suffix = "a1b2c3") {
  TransactionId id;
  id.name = "fabricctl-20261203T120000-" + suffix;
  id.confirm_timeout_s = seconds;
  return id;
}

}  // namespace fabricctl::test
