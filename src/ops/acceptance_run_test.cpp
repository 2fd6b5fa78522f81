// acceptance's live run on a fake connector: the server started first, the client trying again while it
// starts (perftest's client does not wait), rails one after another and a rail's odd one out after the
// pair it shares a port with, and each failure named with its end. No sshd, no sleep.
#include "ops/acceptance_run.h"

#include <doctest/doctest.h>

#include <condition_variable>
#include <mutex>

#include "ops/observer.h"

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

/// Three hosts with a port each on rail 0 (gpu1 also on rail 1 with gpu2), 10.0.0.N their management.
Fabric three_hosts() {
  Fabric f;
  for (int n = 1; n <= 3; ++n) {
    DeviceDesired d;
    d.name = "gpu" + std::to_string(n);
    d.role = Role::host;
    PortDesired p;
    p.name = "ens1f0np0";
    p.rail = 0;
    p.speed_mbps = 400000;
    p.rdma_device = "mlx5_0";
    d.ports.push_back(p);
    if (n < 3) {
      p.name = "ens2f0np0";
      p.rail = 1;
      p.rdma_device = "mlx5_1";
      d.ports.push_back(p);
    }
    f.desired.devices.push_back(d);
    DeviceMgmt m;
    m.device = d.name;
    m.address = "10.0.0." + std::to_string(n);
    f.mgmt.push_back(m);
  }
  return f;
}

/// Hosts whose ib_write_bw servers wait for their client, and whose clients find nothing listening for
/// their first `refusals` tries. Every command is recorded, in order.
class Hosts final : public Connector {
 public:
  int refusals = 0;
  std::string server_fails_on;  // a host whose server cannot start
  std::string unreachable;
  std::vector<std::string> commands;

  /// The test's pause: until some server listens (its client may try again), at most 2 s. No sleep.
  void until_listening() {
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait_for(lock, std::chrono::seconds(2), [&] { return !listening_.empty() || server_failed_; });
  }

  Expected<std::unique_ptr<DeviceSession>> open(const DeviceMgmt& m) override {
    if (m.device == unreachable) return unexpected(m.device + ": cannot connect to " + m.address + ":22: timed out");
    return std::unique_ptr<DeviceSession>(new Session(*this, m.device));
  }

 private:
  class Session final : public DeviceSession {
   public:
    Session(Hosts& h, std::string device) : h_(h), device_(std::move(device)) {}
    Expected<Reply> run(const std::string& command, std::string_view) override {
      std::unique_lock<std::mutex> lock(h_.mutex_);
      h_.commands.push_back(device_ + ": " + command);
      const bool client = command.find(" '10.0.0.") != std::string::npos;
      if (!client) {
        if (device_ == h_.server_fails_on) {
          h_.server_failed_ = true;
          h_.done_.notify_all();
          return Reply{1, "", "Failed to open device mlx5_0\n"};
        }
        h_.listening_.insert(device_);
        h_.done_.notify_all();
        // Served once its client has run; bounded, so that a broken test fails instead of hanging.
        h_.done_.wait_for(lock, std::chrono::seconds(10),
                          [&] { return h_.served_.count(device_) > 0 || h_.timed_out_.count(device_) > 0; });
        h_.listening_.erase(device_);
        h_.served_.erase(device_);
        if (h_.timed_out_.erase(device_) > 0) return Reply{124, "", ""};  // coreutils timeout ended it
        return Reply{0, "server report\n", ""};
      }
      const std::string to = "gpu" + command.substr(command.rfind('.') + 1, 1);
      if (h_.refusals > 0 || h_.listening_.count(to) == 0) {
        if (h_.refusals > 0) --h_.refusals;
        // The client's last try: the server's `timeout` is what ends it now, modelled without its wait.
        if (++h_.tries_[to] == AcceptanceRunOptions{}.connect_tries) {
          h_.tries_.erase(to);
          h_.timed_out_.insert(to);
          h_.done_.notify_all();
        }
        return Reply{1, "", "Couldn't connect to 10.0.0." + command.substr(command.rfind('.') + 1, 1) + ":18515\n"};
      }
      h_.tries_.erase(to);
      h_.served_.insert(to);
      h_.done_.notify_all();
      return Reply{0, "report of " + device_ + " to " + to + "\n", ""};
    }

   private:
    Hosts& h_;
    std::string device_;
  };
  std::mutex mutex_;
  std::condition_variable done_;
  std::set<std::string> listening_, served_, timed_out_;
  std::map<std::string, int> tries_;
  bool server_failed_ = false;
};

struct Run {
  Fabric fabric = three_hosts();
  Hosts hosts;
  Observer observer;
  int pauses = 0;
  std::map<std::string, Expected<std::string>> go() {
    Context ctx{hosts, observer};
    const PauseFor pause = [&](std::chrono::milliseconds d) {
      CHECK(d == std::chrono::seconds(1));
      ++pauses;
      hosts.until_listening();
      return true;
    };
    return run_acceptance(fabric, acceptance::pairs_of(fabric.desired), AcceptanceRunOptions{}, ctx, pause);
  }
};

}  // namespace

TEST_CASE("acceptance run: each pair's client report, the server first, on the port's RDMA device") {
  Run r;
  const auto got = r.go();
  REQUIRE(got.size() == 3);
  CHECK(*got.at("gpu1:ens1f0np0~gpu2:ens1f0np0") == "report of gpu1 to gpu2\n");
  CHECK(*got.at("gpu3:ens1f0np0~gpu1:ens1f0np0") == "report of gpu3 to gpu1\n");
  CHECK(*got.at("gpu1:ens2f0np0~gpu2:ens2f0np0") == "report of gpu1 to gpu2\n");
  // The profile's RoCE DSCP 26 as the ToS; the client pointed at the server's management address.
  const std::string server =
      "gpu2: timeout 50 ib_write_bw -d 'mlx5_0' -i 1 -F --report_gbits -D 10 --tclass=104 -p 18515";
  CHECK(std::find(r.hosts.commands.begin(), r.hosts.commands.end(), server) != r.hosts.commands.end());
  CHECK(std::find(r.hosts.commands.begin(), r.hosts.commands.end(),
                  "gpu1: ib_write_bw -d 'mlx5_1' -i 1 -F --report_gbits -D 10 --tclass=104 -p 18515 '10.0.0.2'") !=
        r.hosts.commands.end());
  // Rails in turn, and rail 0's odd one out (gpu3 to gpu1) after gpu1's own test: gpu1 is never in two.
  const auto at = [&](const std::string& c) {
    return std::find(r.hosts.commands.begin(), r.hosts.commands.end(), c) - r.hosts.commands.begin();
  };
  CHECK(at("gpu3: ib_write_bw -d 'mlx5_0' -i 1 -F --report_gbits -D 10 --tclass=104 -p 18515 '10.0.0.1'") >
        at("gpu1: ib_write_bw -d 'mlx5_0' -i 1 -F --report_gbits -D 10 --tclass=104 -p 18515 '10.0.0.2'"));
  CHECK(at("gpu1: ib_write_bw -d 'mlx5_1' -i 1 -F --report_gbits -D 10 --tclass=104 -p 18515 '10.0.0.2'") >
        at("gpu3: ib_write_bw -d 'mlx5_0' -i 1 -F --report_gbits -D 10 --tclass=104 -p 18515 '10.0.0.1'"));
}

TEST_CASE("acceptance run: a client that finds no server yet tries again, a second apart, a bounded number of times") {
  Run r;
  r.hosts.refusals = 3;
  const auto got = r.go();
  CHECK(got.at("gpu1:ens1f0np0~gpu2:ens1f0np0"));
  CHECK(r.pauses >= 3);
  // A server that never listens: the client gives up after its tries, and the pair names the client.
  Run never;
  never.hosts.refusals = 1000;
  never.fabric.desired.devices.pop_back();  // rail 0 without its odd one out, rail 1 as it is
  never.fabric.mgmt.pop_back();
  const auto none = never.go();
  REQUIRE(none.size() == 2);
  CHECK(none.at("gpu1:ens1f0np0~gpu2:ens1f0np0").error() ==
        "gpu1:ens1f0np0 (client): ib_write_bw exited with status 1: Couldn't connect to 10.0.0.2:18515, in 10 tries "
        "while its server ran");
}

TEST_CASE("acceptance run: a server that cannot start, an unreachable host, a port without RDMA device: named") {
  Run r;
  r.hosts.server_fails_on = "gpu2";
  r.hosts.unreachable = "gpu3";
  r.fabric.desired.devices[1].ports[1].rdma_device.clear();  // gpu2's rail 1 port
  const auto got = r.go();
  CHECK(got.at("gpu1:ens1f0np0~gpu2:ens1f0np0").error() ==
        "gpu2:ens1f0np0 (server): ib_write_bw exited with status 1: Failed to open device mlx5_0");
  CHECK(got.at("gpu3:ens1f0np0~gpu1:ens1f0np0").error() == "gpu3: cannot connect to 10.0.0.3:22: timed out");
  CHECK(got.at("gpu1:ens2f0np0~gpu2:ens2f0np0").error() ==
        "gpu2:ens2f0np0: no RDMA device in the inventory (rdma_device)");
}
