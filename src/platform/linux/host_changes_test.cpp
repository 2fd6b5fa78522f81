// The host's change list: everything from a factory-default NIC, nothing from one that holds the desired
// state, only the setting that is off otherwise; a document that is not a nic-state.json is an error.
#include "platform/linux/host_changes.h"

#include <doctest/doctest.h>

#include "fixtures.h"
#include "platform/platform.h"

using namespace fabricctl;
using namespace fabricctl::linux_host;

namespace {

/// The host as it would show itself holding its desired state (what host collect reads back after apply).
DeviceObserved holding(const DeviceDesired& d) {
  DeviceObserved o = observed_from_desired(d);
  const Document state = linux_nic_state(d);
  for (PortObserved& p : o.ports) {
    for (const auto& want : state.at("ports"))
      if (want.at("netdev") == p.name && !want.at("rdma").is_null()) {
        if (!p.rdma) p.rdma.emplace();
        p.rdma->device = want.at("rdma").at("device").get<std::string>();
        p.rdma->port = want.at("rdma").at("port").get<int>();
        p.rdma->cm_tos = want.at("rdma").at("roce_tos").get<int>();
        p.rdma->tos_override = want.at("rdma").at("traffic_class").get<int>();
      }
  }
  o.nccl = NcclObserved{state.at("nccl").at("ib_tc").get<int>(),
                        state.at("nccl").at("ib_gid_index").is_null()
                            ? std::nullopt
                            : std::optional<int>(state.at("nccl").at("ib_gid_index").get<int>())};
  return o;
}

/// A NIC at its defaults: MTU 1500, no PFC, no DSCP entries, every priority in TC 0, DCQCN off.
DeviceObserved factory(const DeviceDesired& d) {
  DeviceObserved o;
  o.name = d.name;
  for (const PortDesired& want : d.ports) {
    PortObserved p;
    p.name = want.name;
    p.mtu = 1500;
    p.trust = Trust::pcp;
    p.lossless = std::array<bool, kPriorities>{};
    p.priority_to_tc = std::array<int, kPriorities>{};
    std::array<TcSchedule, kTrafficClasses> tc{};
    tc[0] = {true, false, 100};
    for (size_t t = 1; t < tc.size(); ++t) tc[t].strict = true;
    p.tc = tc;
    p.dcqcn = DcqcnObserved{};
    p.dcqcn->cnp_dscp = 48;
    p.dcqcn->cnp_priority = 6;
    o.ports.push_back(p);
  }
  o.nccl = NcclObserved{};
  return o;
}

}  // namespace

TEST_CASE("linux host changes: a NIC holding its desired state needs nothing") {
  const DeviceDesired d = test::example_host();
  const auto changes = host_changes(linux_nic_state(d), holding(d));
  REQUIRE(changes);
  CHECK(change_text(*changes) == "");
}

TEST_CASE("linux host changes: a factory-default NIC needs every setting, as iproute2 and sysfs lines") {
  const DeviceDesired d = test::example_host();
  const auto changes = host_changes(linux_nic_state(d), factory(d));
  REQUIRE(changes);
  const std::string text = change_text(*changes);
  const std::string& dev = d.ports.front().name;
  CHECK(text.find("ip link set dev " + dev + " mtu " + std::to_string(d.ports.front().mtu) + "\n") !=
        std::string::npos);
  CHECK(text.find("dcb ets set dev " + dev + " prio-tc ") != std::string::npos);
  CHECK(text.find("dcb pfc set dev " + dev + " prio-pfc 3:on") != std::string::npos);
  CHECK(text.find("dcb app replace dev " + dev + " dscp-prio ") != std::string::npos);
  CHECK(text.find("echo 1 > /sys/class/net/" + dev + "/ecn/roce_np/enable/3\n") != std::string::npos);
  CHECK(text.find("set in /etc/nccl.conf: ") != std::string::npos);
  // Applied, they are what the desired state holds: the factory NIC with every change made needs nothing.
  CHECK(host_changes(linux_nic_state(d), holding(d))->empty());
}

TEST_CASE("linux host changes: one MTU off changes only it") {
  const DeviceDesired d = test::example_host();
  DeviceObserved o = holding(d);
  o.ports.front().mtu = 1500;
  const auto changes = host_changes(linux_nic_state(d), o);
  REQUIRE(changes);
  REQUIRE(changes->size() == 1);
  CHECK(changes->front().kind == ChangeKind::mtu);
  CHECK(changes->front().line ==
        "ip link set dev " + d.ports.front().name + " mtu " + std::to_string(d.ports.front().mtu));
}

TEST_CASE("linux host changes: errors, not guesses") {
  const DeviceDesired d = test::example_host();
  CHECK_FALSE(host_changes(Document::object(), holding(d)));
  Document bad = linux_nic_state(d);
  bad["ports"][0]["mtu"] = "9000; reboot";
  CHECK_FALSE(host_changes(bad, holding(d)));
  DeviceObserved missing = holding(d);
  missing.ports.erase(missing.ports.begin());
  const auto e = host_changes(linux_nic_state(d), missing);
  REQUIRE_FALSE(e);
  CHECK(e.error().find(d.ports.front().name + ": not read") != std::string::npos);
}
