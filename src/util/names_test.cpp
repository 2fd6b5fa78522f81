#include "util/names.h"

#include <doctest/doctest.h>

#include <string>

using namespace fabricctl;

TEST_CASE("names: 63 characters at most, for every kind of name") {
  const std::string ok(kMaxNameLength, 'a'), too_long(kMaxNameLength + 1, 'a');
  CHECK(kMaxNameLength == 63);
  CHECK(valid_device_name(ok));
  CHECK_FALSE(valid_device_name(too_long));
  CHECK(valid_port_name(ok));
  CHECK_FALSE(valid_port_name(too_long));
  CHECK(valid_rdma_device_name(ok));
  CHECK_FALSE(valid_rdma_device_name(too_long));
  CHECK(valid_counter_name(ok));
  CHECK_FALSE(valid_counter_name(too_long));
  CHECK_FALSE(valid_device_name(""));
  CHECK_FALSE(valid_port_name(""));
  CHECK_FALSE(valid_rdma_device_name(""));
  CHECK_FALSE(valid_counter_name(""));
}

TEST_CASE("names: character sets") {
  CHECK(valid_device_name("leaf1.dc-1_a"));
  CHECK_FALSE(valid_device_name(".hidden"));
  CHECK_FALSE(valid_device_name("-option"));
  CHECK_FALSE(valid_device_name(".."));
  CHECK_FALSE(valid_device_name("a/b"));
  CHECK_FALSE(valid_device_name("host1;reboot"));
  CHECK_FALSE(valid_device_name("a:b"));

  CHECK(valid_port_name("Ethernet1/1"));
  CHECK(valid_port_name("swp1s0"));
  CHECK(valid_port_name("ens1f0np0"));
  CHECK(valid_port_name("Ethernet1:2"));
  CHECK_FALSE(valid_port_name("Ethernet0;reboot"));
  CHECK_FALSE(valid_port_name("b c"));

  CHECK(valid_rdma_device_name("mlx5_0"));
  CHECK(valid_rdma_device_name("rocep1s0f0"));
  CHECK_FALSE(valid_rdma_device_name("mlx5 0"));
  CHECK_FALSE(valid_rdma_device_name("mlx5/0"));

  CHECK(valid_counter_name("pfc_rx_pause_3"));
  CHECK_FALSE(valid_counter_name("PFC_rx"));
  CHECK_FALSE(valid_counter_name("pfc-rx"));
}
