// host apply and rollback against a fixture tree that has the kernel's semantics (fixture_kernel.h): the
// ToS files are restored with values the kernel stores, not with the text it showed. The MTU changes for
// real on a veth in a namespace of the test's own (root only; elsewhere the cases skip), DCB goes to the
// fixture's saved replies.
#include "ops/host_apply.h"

#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fixture_kernel.h"
#include "netns_fixture.h"
#include "temp_dir.h"
#include "util/subprocess.h"

using namespace fabricctl;
using nlohmann::json;
using test::spit;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The lab's host1 (tests/golden/lab) reduced to its first port, renamed to the namespace's veth, and a
/// factory-default fixture tree of it (tests/lab/host_fixture.py --factory).
struct Host {
  test::TempDir dir;
  std::filesystem::path root = dir.path / "root";
  std::string state;
  explicit Host(const std::string& netdev) {
    json s = json::parse(slurp(std::string(FABRICCTL_SOURCE_DIR) + "/tests/golden/lab/host1/nic-state.json"));
    s["ports"] = json::array({s["ports"][0]});
    s["ports"][0]["netdev"] = netdev;
    s["nccl"]["ib_hca"] = json::array({s["nccl"]["ib_hca"][0]});
    state = s.dump(2);
    spit(dir.path / "nic-state.json", state);
    auto r = run_command({"/usr/bin/python3", std::string(FABRICCTL_SOURCE_DIR) + "/tests/lab/host_fixture.py",
                          (dir.path / "nic-state.json").string(), root.string(), "--factory"});
    REQUIRE_MESSAGE(r, r.error());
  }
  ops::HostTxOptions options(const std::string& tx) const {
    ops::HostTxOptions o;
    o.device = "host1";
    o.transaction = tx;
    o.confirm_timeout_s = 600;
    o.root = root;
    o.dcb_from = root / "dcb";
    o.self = "/bin/true";  // the revert timer: never fires within the test
    return o;
  }
  std::filesystem::path traffic_class() const { return root / "sys/class/infiniband/mlx5_0/tc/1/traffic_class"; }
};

std::string outcome(const ops::HostTxResult& r) {
  return r.status == ops::HostTxStatus::done ? "done" : "failed: " + r.error;
}

}  // namespace

TEST_CASE("fixture kernel: traffic_class stores N, tclass=N and -1, and refuses what it shows") {
  test::TempDir dir;
  const auto tc = dir.path / "sys/class/infiniband/mlx5_0/tc/1/traffic_class";
  spit(tc, "");
  test::FixtureKernel k(dir.path);
  CHECK(k.write(tc, "106"));
  CHECK(slurp(tc) == "Global tclass=106\n");
  const auto refused = k.write(tc, "Global tclass=96");
  REQUIRE(!refused);
  CHECK(refused.error() == tc.string() + ": cannot write: invalid argument (EINVAL)");
  CHECK(!k.write(tc, ""));     // an empty write has no tclass
  CHECK(!k.write(tc, "256"));  // more than a ToS byte
  CHECK(slurp(tc) == "Global tclass=106\n");
  CHECK(k.write(tc, "tclass=0x60"));
  CHECK(slurp(tc) == "Global tclass=96\n");
  CHECK(k.write(tc, "dst_ip=10.0.0.0/24,tclass=104"));
  CHECK(slurp(tc) == "Global tclass=96\ndst_ip=10.0.0.0/24,tclass=104\n");
  CHECK(k.write(tc, "-1"));
  CHECK(slurp(tc) == "dst_ip=10.0.0.0/24,tclass=104\n");
  CHECK(k.write(tc, "dst_ip=10.0.0.0/24,tclass=-1"));
  CHECK(slurp(tc).empty());
}

TEST_CASE("fixture kernel: an mlx5 ecn enable refuses to enable what is enabled") {
  test::TempDir dir;
  const auto enable = dir.path / "sys/class/net/ens1f0np0/ecn/roce_rp/enable/3";
  spit(enable, "0\n");
  test::FixtureKernel k(dir.path);
  REQUIRE(k.write(enable, "1"));
  CHECK(slurp(enable) == "1\n");
  CHECK(!k.write(enable, "1"));  // en_ecn.c mlx5e_store_ecn_enable: EPERM
  CHECK(k.write(enable, "0"));
  CHECK(!k.write(dir.path / "sys/class/net/ens1f0np0/speed", "1000"));  // no store function: EACCES
}

TEST_CASE("fixture kernel: rdma_cm values live in the cma device, shown once the group is made") {
  test::TempDir dir;
  spit(dir.path / "sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE\n");
  spit(dir.path / "fixture-kernel/rdma_cm/mlx5_0/ports/1/default_roce_tos", "32\n");
  std::filesystem::create_directories(dir.path / "sys/kernel/config/rdma_cm");
  test::FixtureKernel k(dir.path);
  const auto group = dir.path / "sys/kernel/config/rdma_cm/mlx5_0";
  CHECK(!k.make_group(dir.path / "sys/kernel/config/rdma_cm/mlx5_9"));  // no such RDMA device: ENODEV
  REQUIRE(k.make_group(group));
  CHECK(slurp(group / "ports/1/default_roce_tos") == "32\n");
  CHECK(!k.write(group / "ports/1/default_roce_tos", "256"));  // kstrtou8: ERANGE
  CHECK(!k.write(group / "ports/1/default_roce_mode", "RoCE v3"));
  REQUIRE(k.write(group / "ports/1/default_roce_tos", "106"));
  std::filesystem::remove_all(group);  // rmdir of the group: the device keeps its value
  CHECK(k.cma_value("mlx5_0", 1, "default_roce_tos") == "106");
  REQUIRE(k.make_group(group));
  CHECK(slurp(group / "ports/1/default_roce_tos") == "106\n");
}

TEST_CASE("host rollback restores the traffic_class override and rdma_cm's ToS as the kernel stores them") {
  test::Netns ns("hostapply");
  if (!ns.available()) return;
  Host host(ns.a);
  const std::pair<std::string, std::string> cases[] = {{"Global tclass=96\n", "Global tclass=96\n"}, {"", ""}};
  for (const auto& c : cases) {
    const std::string before = c.first;
    const std::string shown_after = c.second;
    CAPTURE(before);
    spit(host.traffic_class(), before);
    const std::string out = ns.run_inside([&] {
      test::FixtureKernel kernel(host.root);
      ops::install_attribute_files(kernel);
      const auto o = host.options("fabricctl-20260101T000000-" + std::string(before.empty() ? "aaaaaa" : "bbbbbb"));
      const auto applied = ops::host_apply(o, host.state);
      const std::string during = slurp(host.traffic_class()) + "|" + kernel.cma_value("mlx5_0", 1, "default_roce_tos");
      const auto back = ops::host_rollback(o);
      const bool group_left = std::filesystem::exists(host.root / "sys/kernel/config/rdma_cm/mlx5_0");
      return outcome(applied) + "|" + during + "|" + outcome(back) + "|" + slurp(host.traffic_class()) + "|" +
             kernel.cma_value("mlx5_0", 1, "default_roce_tos") + (group_left ? "|group left" : "");
    });
    // Applied: the override and rdma_cm's ToS are 106. Rolled back: the override as it was (96, or none:
    // "-1" written) and rdma_cm's ToS back to the factory's 0, written, not left behind a removed file;
    // the configfs group apply made is gone again.
    // Writing back what traffic_class showed ("Global tclass=96", or nothing) fails here with EINVAL, as
    // on MLNX_OFED; removing default_roce_tos "succeeds" and leaves the cma device at 106.
    CHECK(out == "done|Global tclass=106\n|106|done|" + shown_after + "|0");
  }
}

TEST_CASE("host apply refuses a port whose traffic_class holds per-address rules, before any change") {
  test::Netns ns("hostrules");
  if (!ns.available()) return;
  Host host(ns.a);
  spit(host.traffic_class(), "Global tclass=96\ndst_ip=10.0.0.0/24,tclass=104\n");
  const std::string out = ns.run_inside([&] {
    test::FixtureKernel kernel(host.root);
    ops::install_attribute_files(kernel);
    const auto r = ops::host_apply(host.options("fabricctl-20260101T000000-cccccc"), host.state);
    return outcome(r) + "|" + r.out;
  });
  CAPTURE(out);
  CHECK(out.find("failed: " + ns.a + ": " + host.traffic_class().string() +
                 ": holds 1 per-address rule(s) (\"dst_ip=10.0.0.0/24,tclass=104\")") == 0);
  CHECK(out.ends_with("|"));  // nothing was changed
  CHECK(slurp(host.traffic_class()) == "Global tclass=96\ndst_ip=10.0.0.0/24,tclass=104\n");
}

TEST_CASE("host apply: one transaction at a time, and one lock file for all of them") {
  test::Netns ns("hostapplock");
  if (!ns.available()) return;
  Host host(ns.a);
  const std::string out = ns.run_inside([&] {
    test::FixtureKernel kernel(host.root);
    ops::install_attribute_files(kernel);
    const auto a = host.options("fabricctl-20260101T000000-aaaaaa");
    const auto b = host.options("fabricctl-20260101T000000-bbbbbb");
    const std::string first = outcome(ops::host_apply(a, host.state));
    // B while A is pending: refused, and B changed nothing (its record is not written).
    const std::string second = outcome(ops::host_apply(b, host.state));
    const std::string confirmed = outcome(ops::host_confirm(a));
    std::string left;
    for (const auto& e : std::filesystem::directory_iterator(host.root / "var/lib/fabricctl/transactions"))
      left += e.path().filename().string() + " ";
    return first + "|" + second + "|" + confirmed + "|" + left;
  });
  CHECK(out ==
        "done|failed: transaction fabricctl-20260101T000000-aaaaaa is pending on this host: confirm it or roll it "
        "back first (`host rollback --transaction fabricctl-20260101T000000-aaaaaa`), or wait for its timer to "
        "revert it; nothing was changed|done|host.lock ");
}

TEST_CASE("host pending lists what is staged with its deadline; host extend re-arms the timer from now") {
  test::Netns ns("hostpending");
  if (!ns.available()) return;
  Host host(ns.a);
  const std::string out = ns.run_inside([&] {
    test::FixtureKernel kernel(host.root);
    ops::install_attribute_files(kernel);
    auto a = host.options("fabricctl-20260101T000000-aaaaaa");
    const std::string none = ops::host_pending(a).out;
    const auto before = std::chrono::system_clock::now();
    const std::string applied = outcome(ops::host_apply(a, host.state));
    const std::string listed = ops::host_pending(a).out;
    const json record = json::parse(slurp(host.root / "var/lib/fabricctl/transactions" / (a.transaction + ".json")));
    a.confirm_timeout_s = 3600;
    const std::string extended = outcome(ops::host_extend(a));
    const json again = json::parse(slurp(host.root / "var/lib/fabricctl/transactions" / (a.transaction + ".json")));
    const auto at = [&](int s) {
      return std::chrono::duration_cast<std::chrono::seconds>((before + std::chrono::seconds(s)).time_since_epoch())
          .count();
    };
    const long long d1 = record.value("deadline", 0LL), d2 = again.value("deadline", 0LL);
    const bool first_ok = d1 >= at(600) && d1 <= at(600) + 60, second_ok = d2 >= at(3600) && d2 <= at(3600) + 60;
    const bool listed_ok = listed == a.transaction + " " + std::to_string(d1) + "\n";
    // Another transaction's name, or none pending, is refused.
    auto b = host.options("fabricctl-20260101T000000-bbbbbb");
    const std::string other = outcome(ops::host_extend(b));
    const std::string confirmed = outcome(ops::host_confirm(a));
    const std::string after = ops::host_pending(a).out;
    return none + "|" + applied + "|" + std::to_string(listed_ok) + std::to_string(first_ok) + "|" + extended + "|" +
           std::to_string(second_ok) + std::to_string(again.value("timer_pid", 0) != record.value("timer_pid", 0)) +
           "|" + other + "|" + confirmed + "|" + after;
  });
  CHECK(out ==
        "|done|11|done|11|failed: transaction fabricctl-20260101T000000-bbbbbb is not pending (reverted by its timer, "
        "or never staged)|done|");
}
