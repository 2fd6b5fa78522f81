// The host's file trees read under a root: a fixture tree laid out as MLNX_OFED mlx5, the rdma_cm
// configfs and ib_core's sysfs show them; absent files are "not collected", malformed ones make the
// port unreadable with the file named and the value quoted.
#include "platform/linux/host_sysfs.h"

#include <doctest/doctest.h>

#include "temp_dir.h"

using namespace fabricctl;
using namespace fabricctl::linux_host;
using test::spit;

namespace {

/// A ConnectX port: netdev ens1f0np0 on mlx5_0 port 1, DCQCN on priority 3, ToS 106.
void connectx(const std::filesystem::path& root) {
  const auto net = root / "sys/class/net/ens1f0np0";
  spit(net / "speed", "400000\n");
  spit(net / "device/infiniband/mlx5_0/.keep", "");
  for (int p = 0; p < 8; ++p) {
    spit(net / "ecn/roce_rp/enable" / std::to_string(p), p == 3 ? "1\n" : "0\n");
    spit(net / "ecn/roce_np/enable" / std::to_string(p), p == 3 ? "1\n" : "0\n");
  }
  spit(net / "ecn/roce_np/cnp_dscp", "48\n");
  spit(net / "ecn/roce_np/cnp_802p_prio", "6\n");
  spit(net / "ecn/roce_np/min_time_between_cnps", "4\n");
  spit(net / "ecn/roce_rp/rpg_ai_rate", "5\n");
  const auto port = root / "sys/class/infiniband/mlx5_0/ports/1";
  spit(port / "state", "4: ACTIVE\n");
  spit(port / "active_mtu", "4096 (5)\n");
  spit(port / "gids/0", "fe80:0000:0000:0000:0e42:a1ff:fe2b:3c4d\n");
  spit(port / "gid_attrs/types/0", "IB/RoCE v1\n");
  spit(port / "gid_attrs/ndevs/0", "ens1f0np0\n");
  spit(port / "gids/1", "fe80:0000:0000:0000:0e42:a1ff:fe2b:3c4d\n");
  spit(port / "gid_attrs/types/1", "RoCE v2\n");
  spit(port / "gids/2", "0000:0000:0000:0000:0000:0000:0000:0000\n");  // unused entry
  spit(port / "gids/3", "0000:0000:0000:0000:0000:ffff:0a00:0001\n");
  spit(port / "gid_attrs/types/3", "RoCE v2\n");
  spit(root / "sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "106\n");
  spit(root / "sys/class/infiniband/mlx5_0/tc/1/traffic_class", "Global tclass=106\n");
}

}  // namespace

TEST_CASE("host sysfs: a ConnectX port's speed, DCQCN, RDMA port, GIDs and ToS") {
  test::TempDir dir;
  connectx(dir.path);
  PortObserved p;
  p.name = "ens1f0np0";
  const auto read = read_port_files(dir.path, p);
  REQUIRE_MESSAGE(read, read.error());
  CHECK(p.speed_mbps == 400000);
  REQUIRE(p.dcqcn);
  CHECK(p.dcqcn->rp_enabled == std::array<bool, 8>{false, false, false, true, false, false, false, false});
  CHECK(p.dcqcn->np_enabled[3]);
  CHECK(p.dcqcn->cnp_dscp == 48);
  CHECK(p.dcqcn->cnp_priority == 6);
  CHECK(p.dcqcn->min_time_between_cnps == 4);
  CHECK(p.dcqcn->rp.size() == 1);  // only the parameters the tree has
  CHECK(p.dcqcn->rp.at("rpg_ai_rate") == 5);
  REQUIRE(p.rdma);
  CHECK(p.rdma->device == "mlx5_0");
  CHECK(p.rdma->port == 1);
  CHECK(p.rdma->active == true);
  CHECK(p.rdma->active_mtu == 4096);
  REQUIRE(p.rdma->gids.size() == 3);  // the unused entry 2 left out
  CHECK(p.rdma->gids[0].type == "RoCE v1");
  CHECK(p.rdma->gids[1].type == "RoCE v2");
  CHECK(p.rdma->gids[2].index == 3);
  CHECK(p.rdma->cm_tos == 106);
  CHECK(p.rdma->tos_override == 106);
}

TEST_CASE("host sysfs: a plain netdev (no mlx5 sysfs, no RDMA) has only what it shows") {
  test::TempDir dir;
  spit(dir.path / "sys/class/net/eth0/speed", "-1\n");  // a link without a speed
  PortObserved p;
  p.name = "eth0";
  REQUIRE(read_port_files(dir.path, p));
  CHECK_FALSE(p.speed_mbps);
  CHECK_FALSE(p.dcqcn);
  CHECK_FALSE(p.rdma);
}

TEST_CASE("host sysfs: an override that is not set, and the RDMA port found through its GID's netdev") {
  test::TempDir dir;
  connectx(dir.path);
  std::filesystem::remove_all(dir.path / "sys/class/net/ens1f0np0/device");
  spit(dir.path / "sys/class/infiniband/mlx5_0/tc/1/traffic_class", "\n");
  PortObserved p;
  p.name = "ens1f0np0";
  REQUIRE(read_port_files(dir.path, p));
  REQUIRE(p.rdma);
  CHECK(p.rdma->device == "mlx5_0");
  CHECK(p.rdma->tos_override == kNoTosOverride);
}

TEST_CASE("host sysfs: malformed files name the file and quote the value") {
  struct Case {
    const char* file;
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"sys/class/net/ens1f0np0/speed", "fast\n", "speed: \"fast\" is not an integer -1-10000000"},
      {"sys/class/net/ens1f0np0/ecn/roce_rp/enable/3", "2\n", "enable/3: \"2\" is not an integer 0-1"},
      {"sys/class/net/ens1f0np0/ecn/roce_np/cnp_dscp", "64\n", "cnp_dscp: \"64\" is not an integer 0-63"},
      {"sys/class/infiniband/mlx5_0/ports/1/state", "ACTIVE\n", "is not a port state such as \"4: ACTIVE\""},
      {"sys/class/infiniband/mlx5_0/ports/1/active_mtu", "9000 (6)\n", "\"9000 (6)\" is not an IB MTU"},
      {"sys/class/infiniband/mlx5_0/ports/1/gids/1", "fe80::1\n", "gids/1: \"fe80::1\" is not a GID"},
      {"sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/1", "RoCE v3\n", "\"RoCE v3\" is not"},
      {"sys/class/infiniband/mlx5_0/tc/1/traffic_class", "tclass=\x1b[2J\n", "\"tclass=?[2J\" is not"},
      // What traffic_class stores is not what it shows: a bare ToS is not a value the driver shows.
      {"sys/class/infiniband/mlx5_0/tc/1/traffic_class", "106\n", "\"106\" is not what traffic_class shows"},
      // Per-address rules: fabricctl could not restore them after a change, so the port is not read.
      {"sys/class/infiniband/mlx5_0/tc/1/traffic_class", "Global tclass=96\ndst_ip=10.0.0.0/24,tclass=104\n",
       "traffic_class: holds 1 per-address rule(s) (\"dst_ip=10.0.0.0/24,tclass=104\"), which fabricctl cannot save"},
      {"sys/kernel/config/rdma_cm/mlx5_0/ports/1/default_roce_tos", "256\n", "\"256\" is not an integer 0-255"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    test::TempDir dir;
    connectx(dir.path);
    spit(dir.path / c.file, c.text);
    PortObserved p;
    p.name = "ens1f0np0";
    const auto read = read_port_files(dir.path, p);
    REQUIRE_FALSE(read);
    CHECK(read.error().find(c.message) != std::string::npos);
    CHECK(read.error().find(dir.path.string()) != std::string::npos);
  }
}

TEST_CASE("host sysfs: a file that is not an attribute (a link, an endless one) is refused") {
  test::TempDir dir;
  connectx(dir.path);
  const auto speed = dir.path / "sys/class/net/ens1f0np0/speed";
  std::filesystem::remove(speed);
  std::filesystem::create_symlink("/dev/zero", speed);
  PortObserved p;
  p.name = "ens1f0np0";
  const auto read = read_port_files(dir.path, p);
  REQUIRE_FALSE(read);
  CHECK(read.error().find("symbolic link") != std::string::npos);
  std::filesystem::remove(speed);
  spit(speed, std::string(5000, '1'));
  CHECK_FALSE(read_port_files(dir.path, p));
}

TEST_CASE("nccl.conf: the two keys fabricctl sets, other lines ignored, a bad value located") {
  test::TempDir dir;
  CHECK(read_nccl_conf(dir.path)->traffic_class == std::nullopt);  // no file: NCCL's defaults
  spit(dir.path / "etc/nccl.conf", "# site defaults\nNCCL_DEBUG=WARN\nNCCL_IB_TC=106\nNCCL_IB_GID_INDEX=3\n");
  const auto n = read_nccl_conf(dir.path);
  REQUIRE(n);
  CHECK(n->traffic_class == 106);
  CHECK(n->gid_index == 3);
  spit(dir.path / "etc/nccl.conf", "NCCL_IB_HCA=mlx5_0\nNCCL_IB_TC=lossless\n");
  const auto bad = read_nccl_conf(dir.path);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().find("nccl.conf:2: NCCL_IB_TC \"lossless\" is not an integer 0-255") != std::string::npos);
}

TEST_CASE("host sysfs: the value that restores an attribute is what the kernel stores") {
  CHECK(*value_to_restore("traffic_class", "Global tclass=96\n") == "96");
  CHECK(*value_to_restore("traffic_class", "") == "-1");
  CHECK(value_to_restore("traffic_class", "Global tclass=96\ndst_ip=10.0.0.0/24,tclass=104\n").error() ==
        "per-address rules cannot be saved for a rollback");
  CHECK(*value_to_restore("default_roce_tos", "106\n") == "106");
  CHECK(*value_to_restore("default_roce_mode", "RoCE v2\n") == "RoCE v2");
}
