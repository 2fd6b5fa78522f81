// For the ops tests: a small fabric (a SONiC leaf and two Linux hosts, one cable each) and a fake
// Connector whose devices answer from a table instead of over SSH. Each device holds the raw outputs
// its collector reads; it starts as its intent, and a test edits it (drift, a miscabling). Commands of
// a transaction change that state by their role in a table (stage makes the device hold what it
// should after staging, rollback restores the state before, confirm keeps it). Failures, hangs (the
// timeout SSH would report), unreachable and slow devices are scripted per device. No sshd, no
// Python, no sleep.
#pragma once

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "fixtures.h"
#include "model/fabric.h"
#include "nvue_outputs.h"
#include "ops/apply.h"
#include "ops/clock.h"
#include "ops/context.h"
#include "ops/device_session.h"
#include "ops/observer.h"
#include "ops/plan.h"
#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "state/observed.h"
#include "state/snapshot.h"

namespace fabricctl::ops::fake {

/// Two SONiC leaves and two hosts: leaf1 Ethernet0 -- host1 ens1f0np0, leaf1 Ethernet8 -- host2
/// ens1f0np0, leaf2 Ethernet0 -- host1 ens2f0np0.
inline Fabric small_fabric() {
  Fabric f;
  DeviceDesired leaf1 = fabricctl::test::example_switch(Platform::sonic, {"Ethernet0", "Ethernet8"});
  leaf1.ports[0].peer_device = "host1";
  leaf1.ports[1].peer_device = "host2";
  for (PortDesired& p : leaf1.ports) p.peer_port = "ens1f0np0";
  DeviceDesired leaf2 = fabricctl::test::example_switch(Platform::sonic, {"Ethernet0"});
  leaf2.name = "leaf2";
  leaf2.ports[0].peer_device = "host1";
  leaf2.ports[0].peer_port = "ens2f0np0";
  DeviceDesired host1 = fabricctl::test::example_host();
  host1.ports[0].peer_device = "leaf1";
  host1.ports[1].peer_device = "leaf2";
  DeviceDesired host2 = fabricctl::test::example_host();
  host2.name = "host2";
  host2.ports.resize(1);
  host2.ports[0].peer_device = "leaf1";
  host2.ports[0].peer_port = "Ethernet8";
  f.desired.devices = {host1, host2, leaf1, leaf2};
  for (const DeviceDesired& d : f.desired.devices) {
    DeviceMgmt m;
    m.device = d.name;
    m.address = "192.0.2.1";
    m.user = "admin";
    m.agent = true;
    f.mgmt.push_back(m);
  }
  f.links = 3;
  return f;
}

/// The small fabric with leaf2 an NVUE switch (its port swp1 to host1 ens2f0np0).
inline Fabric small_fabric_nvue_leaf2() {
  Fabric f = small_fabric();
  for (DeviceDesired& d : f.desired.devices) {
    if (d.name == "host1") d.ports[1].peer_port = "swp1";
    if (d.name != "leaf2") continue;
    d = fabricctl::test::example_switch(Platform::nvue, {"swp1"});
    d.name = "leaf2";
    d.qos.watchdog.restoration_configurable = false;  // as the model sets it from NVUE's traits
    d.ports[0].peer_device = "host1";
    d.ports[0].peer_port = "ens2f0np0";
  }
  return f;
}

/// A SONiC switch's CONFIG_DB once fabricctl has applied `d` to it: the rendered config_db.json, with
/// the adapter's own patch against it applied (the rendered file keeps entries the patch removes).
inline nlohmann::ordered_json rendered_config_db(const DeviceDesired& d) {
  const PlatformAdapter& a = adapter(Platform::sonic);
  nlohmann::ordered_json db;
  for (const ArtifactSpec& spec : a.artifacts)
    if (spec.file == "config_db.json") db = nlohmann::ordered_json::parse(spec.data(d, document_of(a, d)));
  REQUIRE(db.is_object());
  auto change = a.applier.change(d, {{"runningconfiguration.json", db.dump()}});
  REQUIRE_MESSAGE(change, change.error());
  if (!change->empty()) db = db.patch(nlohmann::ordered_json::parse(change->text));
  return db;
}

/// Rows as SONiC's tabulate lays them out: each column as wide as its widest cell, a line of dashes
/// under the header, two spaces between columns.
inline std::string sonic_table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  std::string t;
  auto line = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size(); ++c)
      t += row[c] + std::string(width[c] - row[c].size() + (c + 1 < row.size() ? 2 : 0), ' ');
    t += "\n";
  };
  line(rows.front());
  std::vector<std::string> dashes;
  for (const size_t w : width) dashes.emplace_back(w, '-');
  line(dashes);
  for (size_t r = 1; r < rows.size(); ++r) line(rows[r]);
  return t;
}

/// `show interfaces status` of a switch whose ports are `ports`.
inline std::string sonic_status(const std::vector<PortObserved>& ports) {
  std::vector<std::vector<std::string>> rows = {
      {"Interface", "Lanes", "Speed", "MTU", "FEC", "Alias", "Vlan", "Oper", "Admin", "Type", "Asym PFC"}};
  for (const PortObserved& p : ports)
    rows.push_back({p.name, "1,2,3,4", p.speed_mbps ? std::to_string(*p.speed_mbps / 1000) + "G" : "N/A",
                    std::to_string(p.mtu.value_or(9100)), "rs", "etp", "routed",
                    p.oper_up.value_or(false) ? "up" : "down", "up", "QSFP", "off"});
  return sonic_table(rows);
}

/// `show lldp table` of a switch whose ports are `ports`.
inline std::string sonic_lldp(const std::vector<PortObserved>& ports) {
  std::vector<std::vector<std::string>> rows = {
      {"LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr"}};
  for (const PortObserved& p : ports)
    if (p.lldp) rows.push_back({p.name, p.lldp->system_name, p.lldp->port_id, "O", "x"});
  return "Capability codes: (R) Router, (B) Bridge, (O) Other\n" + sonic_table(rows) +
         "--------------------------------------------------\nTotal entries displayed:  " +
         std::to_string(rows.size() - 1) + "\n";
}

/// `show pfc counters` of a switch whose ports are `ports`: every count 0, as syncd starts them.
inline std::string sonic_pfc_counters(const std::vector<PortObserved>& ports) {
  std::string out;
  for (const char* header : {"Port Rx", "Port Tx"}) {
    std::vector<std::vector<std::string>> rows = {
        {header, "PFC0", "PFC1", "PFC2", "PFC3", "PFC4", "PFC5", "PFC6", "PFC7"}};
    for (const PortObserved& p : ports) rows.push_back({p.name, "0", "0", "0", "0", "0", "0", "0", "0"});
    out += (out.empty() ? "" : "\n") + sonic_table(rows);
  }
  return out;
}

/// `show version` of a 202305 image on a Broadcom switch.
inline std::string sonic_version() {
  return "\nSONiC Software Version: SONiC.20230531.22\nSONiC OS Version: 11\nDistribution: Debian 11.7\n\n"
         "Platform: x86_64-accton_as9726_32d-r0\nHwSKU: Accton-AS9726-32D\nASIC: broadcom\nASIC Count: 1\n";
}

/// What the device's collector reads when it holds `observed`; for SONiC, CONFIG_DB is `config_db`, and
/// of its optional counter commands only the PFC ones (the others answer as a release without them); an
/// NVUE switch's configuration is its rendered commands applied.
inline RawOutputs raw_outputs(const DeviceDesired& d, const DeviceObserved& observed,
                              const nlohmann::ordered_json& config_db = {}) {
  if (d.platform == Platform::linux_host) return {{"host-collect.json", write_snapshot(observed)}};
  if (d.platform == Platform::nvue) return fabricctl::test::nvue_raw_outputs(d, observed);
  REQUIRE(d.platform == Platform::sonic);
  return {{"runningconfiguration.json", (config_db.is_null() ? rendered_config_db(d) : config_db).dump(4) + "\n"},
          {"interfaces-status.txt", sonic_status(observed.ports)},
          {"lldp-table.txt", sonic_lldp(observed.ports)},
          {"version.txt", sonic_version()},
          {"pfc-counters.txt", sonic_pfc_counters(observed.ports)},
          {"pfcwd-stats.txt", sonic_table({{"QUEUE", "STATUS", "STORM DETECTED/RESTORED", "TX OK/DROP", "RX OK/DROP",
                                            "TX LAST OK/DROP", "RX LAST OK/DROP"}})}};
}

/// A clock that stands still unless a test (or a slow fake device) moves it.
class FakeClock final : public Clock {
 public:
  [[nodiscard]] std::chrono::system_clock::time_point now() const override {
    const std::lock_guard<std::mutex> lock(mutex_);
    return now_;
  }
  void advance(std::chrono::milliseconds d) {
    const std::lock_guard<std::mutex> lock(mutex_);
    now_ += d;
  }

 private:
  mutable std::mutex mutex_;
  std::chrono::system_clock::time_point now_ =
      std::chrono::sys_days{std::chrono::year{2026} / 12 / 3} + std::chrono::hours{6};
};

/// What a transaction command does to the fake device's state, found by the first row whose text the
/// command contains.
enum class Effect { none, stage, confirm, rollback };
struct CommandRole {
  std::string_view contains;
  Effect effect;
};
inline constexpr std::array<CommandRole, 7> kCommandRoles = {{
    // after the systemd timers (systemd_timer)
    {"config apply-patch -d", Effect::none},  // the updater's dry run: plan's check, no change
    {"config apply-patch", Effect::stage},
    {"config rollback", Effect::rollback},
    {"host apply", Effect::stage},
    {"host rollback", Effect::rollback},
    // NVUE: `nv set` lines only stage into the pending revision; the trial apply makes it running
    {"nv config apply --confirm ", Effect::stage},
    {"nv config apply --confirm-no", Effect::rollback},
}};

struct FakeDevice {
  RawOutputs state;        // what its collector's commands print now
  RawOutputs after_stage;  // what it holds once a stage has run (default: its intent)
  RawOutputs before_stage;
  std::string unreachable;                 // open() fails with this reason
  int refusals = 0;                        // the next this many open()s are refused (worth another try)
  std::map<std::string, Reply> fail_when;  // a command containing the key gets this reply
  std::vector<std::string> hang_when;      // a command containing one of these times out
  std::chrono::milliseconds slow{0};       // each command moves the clock this much
  std::map<std::string, std::chrono::milliseconds> slow_when;  // a command containing the key, this much more
  std::optional<Reply> list_reply;  // a list of commands ("A ; B") gets this reply, not each's
  std::set<std::string> timers;     // the transient systemd timers armed (SONiC's revert), as unit names
  /// Armed right after the next systemd-run, as by another apply staging this switch at the same time.
  std::set<std::string> race_timers;
};

class FakeConnector final : public Connector {
 public:
  /// Every device of `fabric` holding its intent; `clock` is moved by slow devices.
  FakeConnector(const Fabric& fabric, FakeClock& clock) : clock_(clock) {
    for (size_t i = 0; i < fabric.desired.devices.size(); ++i) {
      const DeviceDesired& d = fabric.desired.devices[i];
      FakeDevice dev;
      dev.state = raw_outputs(d, observed_from_desired(d));
      dev.after_stage = dev.state;
      const Collector& c = adapter(d.platform).collector;
      for (const CollectCommand& cmd : c.commands)
        for (const CommandRun& run : command_runs(c, cmd, d, fabric.mgmt[i].fabricctl))
          files_[d.name][run.line] = run.file;
      devices_.emplace(d.name, std::move(dev));
    }
  }

  /// The device to script (before the run).
  FakeDevice& device(const std::string& name) { return devices_.at(name); }
  /// How many times open() was called for `device`.
  int opens(const std::string& device) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto it = opens_.find(device);
    return it == opens_.end() ? 0 : it->second;
  }
  /// A refused connection, as the SSH connector's is: worth another try.
  static constexpr std::string_view kRefused = "Connection refused";
  [[nodiscard]] bool worth_retrying(const std::string& error) const override { return error.ends_with(kRefused); }
  /// "<device>: <command>" for every command run, in order.
  std::vector<std::string> log() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return log_;
  }

  Expected<std::unique_ptr<DeviceSession>> open(const DeviceMgmt& m) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    FakeDevice& d = devices_.at(m.device);
    ++opens_[m.device];
    if (d.refusals > 0) {
      --d.refusals;
      return unexpected(m.device + " (" + m.address + ":22): cannot connect: " + std::string(kRefused));
    }
    if (!d.unreachable.empty())
      return unexpected(m.device + " (" + m.address + ":22): cannot connect: " + d.unreachable);
    return std::unique_ptr<DeviceSession>(std::make_unique<Session>(*this, m.device));
  }

 private:
  class Session final : public DeviceSession {
   public:
    Session(FakeConnector& c, std::string device) : c_(c), device_(std::move(device)) {}
    Expected<Reply> run(const std::string& command, std::string_view) override { return c_.run(device_, command); }

   private:
    FakeConnector& c_;
    std::string device_;
  };

  Expected<Reply> run(const std::string& device, const std::string& command) {
    const std::lock_guard<std::mutex> lock(mutex_);
    log_.push_back(device + ": " + command);
    FakeDevice& d = devices_.at(device);
    clock_.advance(d.slow);
    for (const auto& [key, more] : d.slow_when)
      if (command.find(key) != std::string::npos) clock_.advance(more);
    if (command.find(" ; ") != std::string::npos) return d.list_reply ? *d.list_reply : run_list(device, command);
    return answer(device, command);
  }

  /// "A ; echo MARK $? ; B ; ...", as a switch's bash runs it: each command answered alone, `echo` with
  /// "$?" the last status (ops/command_batch.h sends such lists).
  Expected<Reply> run_list(const std::string& device, const std::string& list) {
    Reply all{0, "", ""};
    size_t at = 0;
    while (at <= list.size()) {
      const size_t end = std::min(list.find(" ; ", at), list.size());
      const std::string command = list.substr(at, end - at);
      if (command.rfind("echo ", 0) == 0) {
        std::string words = command.substr(5);
        if (const size_t q = words.find("$?"); q != std::string::npos)
          words.replace(q, 2, std::to_string(all.exit_status));
        all.out += words + "\n";
      } else {
        auto one = answer(device, command);
        if (!one) return one;
        all.out += one->out;
        all.err += one->err;
        all.exit_status = one->exit_status;
      }
      at = end + 3;
    }
    return all;
  }

  /// SONiC's revert timers as systemd keeps them (systemd-run(1), systemctl(1)): `--unit=NAME` arms
  /// NAME.timer, refused while one of that name is loaded; `stop` unloads it, or fails with status 5;
  /// `list-units` prints one line per armed timer. nullopt: not such a command.
  static std::optional<Reply> systemd_timer(FakeDevice& d, const std::string& command) {
    const auto unquoted = [](std::string w) {
      std::erase(w, '\'');
      return w;
    };
    if (const size_t at = command.find("systemd-run "); at != std::string::npos) {
      const size_t unit = command.find("--unit=", at);
      if (unit == std::string::npos) return std::nullopt;
      const size_t end = command.find(' ', unit);
      const std::string name = unquoted(command.substr(unit + 7, end - unit - 7)) + ".timer";
      if (!d.timers.insert(name).second)
        return Reply{1, "", "Failed to start transient timer unit: Unit " + name + " was already loaded.\n"};
      d.timers.merge(d.race_timers);
      return Reply{0, "", "Running timer as unit: " + name + "\n"};
    }
    if (const size_t at = command.find("systemctl stop "); at != std::string::npos) {
      const std::string name = unquoted(command.substr(at + 15));
      if (d.timers.erase(name) == 0)
        return Reply{5, "", "Failed to stop " + name + ": Unit " + name + " not loaded.\n"};
      return Reply{0, "", ""};
    }
    if (command.find("systemctl list-units") != std::string::npos) {
      std::string out;
      for (const std::string& t : d.timers) out += t + " loaded active waiting fabricctl revert\n";
      return Reply{0, out, ""};
    }
    return std::nullopt;
  }

  Expected<Reply> answer(const std::string& device, const std::string& command) {
    FakeDevice& d = devices_.at(device);
    for (const std::string& h : d.hang_when)
      if (command.find(h) != std::string::npos)
        return unexpected(device + ": the command did not finish within 60000 ms; stopped");
    for (const auto& [key, reply] : d.fail_when)
      if (command.find(key) != std::string::npos) return reply;
    if (const auto f = files_[device].find(command); f != files_[device].end()) {
      const auto out = d.state.find(f->second);
      // A command the device does not print: as a release without it answers (click's usage error).
      if (out == d.state.end()) return Reply{2, "", "Error: No such command.\n"};
      return Reply{0, out->second, ""};
    }
    if (auto timer = systemd_timer(d, command)) return *timer;
    // NVUE's revisions: none in flight, unless a test scripts them (fail_when).
    if (command == "nv config revision -o json") return Reply{0, "{}\n", ""};
    for (const CommandRole& role : kCommandRoles) {
      if (command.find(role.contains) == std::string::npos) continue;
      if (role.effect == Effect::stage) {
        d.before_stage = d.state;
        d.state = d.after_stage;
      } else if (role.effect == Effect::rollback && !d.before_stage.empty()) {
        d.state = d.before_stage;
      }
      break;
    }
    return Reply{0, "", ""};
  }

  FakeClock& clock_;
  mutable std::mutex mutex_;
  std::map<std::string, FakeDevice> devices_;
  std::map<std::string, std::map<std::string, std::string>> files_;  // device -> command line -> raw file
  std::vector<std::string> log_;
  std::map<std::string, int> opens_;  // open() calls by device
};

/// Keeps every audit event as "<name> <device>" (or the name alone) and every phase.
class RecordingObserver final : public Observer {
 public:
  void phase(std::string_view what) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    phases.emplace_back(what);
  }
  void event(std::string_view name, const nlohmann::ordered_json& fields) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    std::string e(name);
    if (fields.contains("device")) e += " " + fields.at("device").get<std::string>();
    events.push_back(e);
    records.push_back({{"event", std::string(name)}, {"fields", fields}});
    if (on_event) on_event(name);
  }
  std::function<void(std::string_view)> on_event;
  std::vector<std::string> phases;
  std::vector<std::string> events;
  std::vector<nlohmann::ordered_json> records;

 private:
  std::mutex mutex_;
};

/// Every device of `fabric`: the scope of a whole-fabric plan.
inline std::set<std::string> every_device(const Fabric& fabric) {
  std::set<std::string> all;
  for (const DeviceDesired& d : fabric.desired.devices) all.insert(d.name);
  return all;
}

/// `host`'s NIC at MTU `mtu` (bytes) in the fake fleet, the rest as its intent says.
inline void mtu_on(FakeConnector& fleet, const Fabric& fabric, const std::string& host, int mtu) {
  for (const DeviceDesired& d : fabric.desired.devices) {
    if (d.name != host) continue;
    DeviceObserved o = observed_from_desired(d);
    o.ports[0].mtu = mtu;
    fleet.device(host).state = raw_outputs(d, o);
  }
}

/// The small fabric on the fake fleet, with its clock, an observer that records, and a stop token a
/// test raises by setting `signal`: what plan and apply tests start from.
struct Fleet {
  Fleet() = default;
  explicit Fleet(Fabric f) : fabric(std::move(f)) {}

  Fabric fabric = small_fabric();
  FakeClock clock;
  FakeConnector devices{fabric, clock};
  RecordingObserver seen;
  std::atomic<int> signal{0};
  Context ctx{devices, seen, clock, StopToken([this] { return signal.load(); })};

  const DeviceDesired& desired(const std::string& name) const {
    for (const DeviceDesired& d : fabric.desired.devices)
      if (d.name == name) return d;
    FAIL("no device " << name);
    return fabric.desired.devices.front();
  }
  /// PFC off on leaf1:Ethernet8.
  void pfc_off_on_leaf() {
    const DeviceDesired& leaf = desired("leaf1");
    auto db = rendered_config_db(leaf);
    db["PORT_QOS_MAP"]["Ethernet8"]["pfc_enable"] = "";
    devices.device("leaf1").state = raw_outputs(leaf, observed_from_desired(leaf), db);
  }
  /// `host`'s NIC at MTU 1500.
  void mtu_1500_on(const std::string& host) { mtu_on(devices, fabric, host, 1500); }
  /// Both hosts' NICs at MTU 1500 and PFC off on the leaf: a change on three devices.
  void three_changes() {
    mtu_1500_on("host1");
    mtu_1500_on("host2");
    pfc_off_on_leaf();
  }
  PlannedFabric plan() { return read_and_plan(fabric, every_device(fabric), {}, ctx); }
  ApplyResult apply(ApplyOptions o = {}) {
    const PlannedFabric p = plan();
    o.transaction = "fabricctl-20261203T060000-abcdef";
    seen.events.clear();
    return apply_plan(fabric, p.plan, p.observed, o, ctx);
  }
};

}  // namespace fabricctl::ops::fake
