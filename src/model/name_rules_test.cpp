#include <doctest/doctest.h>

#include <string>

#include "model/name_rules.h"

using namespace fabricctl;

TEST_CASE("names: first character, character set and length") {
  CHECK(is_device_name("leaf1"));
  CHECK(is_device_name("a.b_c-d"));
  CHECK(is_device_name(std::string(63, 'a')));
  CHECK_FALSE(is_device_name(std::string(64, 'a')));
  CHECK_FALSE(is_device_name(""));
  CHECK_FALSE(is_device_name("-leaf"));
  CHECK_FALSE(is_device_name("leaf 1"));
  CHECK_FALSE(is_device_name("leaf;rm"));

  CHECK(is_profile_name("roce-lossless"));
  CHECK(is_profile_name(std::string(64, 'a')));
  CHECK_FALSE(is_profile_name(std::string(65, 'a')));
  CHECK_FALSE(is_profile_name("RoCE"));
  CHECK_FALSE(is_profile_name(".hidden"));

  CHECK(is_rdma_device_name("mlx5_0"));
  CHECK(is_rdma_device_name("_x"));
  CHECK(is_rdma_device_name(std::string(63, 'a')));  // util/names.h, as the snapshots
  CHECK_FALSE(is_rdma_device_name(std::string(64, 'a')));
  CHECK_FALSE(is_rdma_device_name("mlx5/0"));

  CHECK(is_user_name("admin"));
  CHECK(is_user_name("_svc.x-1"));
  CHECK_FALSE(is_user_name("1admin"));
  CHECK_FALSE(is_user_name(std::string(33, 'a')));

  CHECK(is_env_name("FABRIC_PW"));
  CHECK(is_env_name("_X1"));
  CHECK_FALSE(is_env_name("1X"));
  CHECK_FALSE(is_env_name("lower"));
  CHECK_FALSE(is_env_name(std::string(65, 'A')));

  CHECK(is_address("10.0.0.1"));
  CHECK(is_address("fd00::1"));
  CHECK(is_address("leaf1.mgmt.example"));
  CHECK_FALSE(is_address(":1"));
  CHECK_FALSE(is_address("a b"));
  CHECK_FALSE(is_address(std::string(254, 'a')));
}

TEST_CASE("host keys: fingerprints and public keys") {
  const std::string b43(43, 'A');
  CHECK(is_host_key("SHA256:" + b43));
  CHECK(is_host_key("SHA256:" + b43 + "="));
  CHECK_FALSE(is_host_key("SHA256:" + b43 + "=="));
  CHECK_FALSE(is_host_key("SHA256:" + std::string(42, 'A')));
  CHECK_FALSE(is_host_key("SHA256:" + std::string(42, 'A') + "-"));
  CHECK(is_host_key("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG+/x=="));
  CHECK(is_host_key("ecdsa-sha2-nistp384 AAAA"));
  CHECK_FALSE(is_host_key("ecdsa-sha2-nistp999 AAAA"));
  CHECK_FALSE(is_host_key("ssh-ed25519 "));
  CHECK_FALSE(is_host_key("ssh-ed25519 ==="));
  CHECK_FALSE(is_host_key("ssh-ed25519 AA=A"));
  CHECK_FALSE(is_host_key("ssh-ed25519  AAAA"));
  CHECK_FALSE(is_host_key("ssh-dss AAAA"));
  // The input that overflowed std::regex_match's recursion: linear here, and still rejected.
  CHECK_FALSE(is_host_key("ssh-ed25519 " + std::string(26500, 'A') + "==="));
  CHECK_FALSE(is_host_key("ssh-ed25519 " + std::string(26500, 'A')));
  CHECK(is_host_key("ssh-rsa " + std::string(2800, 'A') + "=="));
}
