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

TEST_CASE("names: plain words, as they may reach a NOS's command line") {
  CHECK(plain_word("swp1", "-", 4));
  CHECK_FALSE(plain_word("swp10", "-", 4));  // longer than allowed
  CHECK_FALSE(plain_word("", "-", 4));
  CHECK(plain_word("0,8,16", ",", 63));
  CHECK_FALSE(plain_word(",8", ",", 63));   // starts with punctuation
  CHECK_FALSE(plain_word("-x", "-", 63));   // it would read as an option
  CHECK_FALSE(plain_word("a,b", "-", 63));  // punctuation not allowed here
  CHECK_FALSE(plain_word("a b", "-", 63));
  CHECK(plain_word("a b", " ", 63));
  static constexpr char kShell[] = "\0;'\"$`\\\n\x1b|&<>()*?";
  for (const char c : std::string(kShell, sizeof kShell - 1)) {
    CAPTURE(static_cast<int>(c));
    CHECK_FALSE(plain_word(std::string("a") + c, "._,:/- ", 63));
  }
}
