// `--shard K/N` (ops/shard.h): every device in exactly one shard, the same split every time, rails and
// pods kept whole, shards of about the same size.
#include "ops/shard.h"

#include <doctest/doctest.h>

#include <map>

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

DeviceDesired device(const std::string& name, Role role, std::optional<int> rail = std::nullopt,
                     std::vector<std::string> groups = {}) {
  DeviceDesired d;
  d.name = name;
  d.role = role;
  d.rail = rail;
  d.groups = std::move(groups);
  return d;
}

/// `pods` pods of 4 rail leaves (rails 0-3, rail r of pod p numbered p*4+r) and 8 hosts (group
/// "pNN-hosts"), then 4 spines (group "spines"); names not in natural order on purpose.
FabricDesired pods(int pods) {
  FabricDesired f;
  for (int s = 3; s >= 0; --s)
    f.devices.push_back(device("spine" + std::to_string(s), Role::switch_, std::nullopt, {"spines"}));
  for (int p = 0; p < pods; ++p) {
    const std::string pod = "p" + std::to_string(p);
    for (int r = 0; r < 4; ++r)
      f.devices.push_back(device(pod + "-leaf" + std::to_string(r), Role::switch_, p * 4 + r));
    for (int h = 0; h < 8; ++h)
      f.devices.push_back(device(pod + "-host" + std::to_string(h), Role::host, std::nullopt, {pod + "-hosts"}));
  }
  return f;
}

std::vector<std::set<std::string>> split(const FabricDesired& f, size_t n) {
  std::vector<std::set<std::string>> out;
  for (size_t k = 0; k < n; ++k) out.push_back(shard_devices(f, {k, n}));
  return out;
}

}  // namespace

TEST_CASE("shard: K/N, K from 0 (Kubernetes' completion index)") {
  CHECK(parse_shard("0/4").value().index == 0);
  CHECK(parse_shard("3/4").value().count == 4);
  CHECK(parse_shard("0/1").has_value());
  for (const char* bad : {"4/4", "-1/4", "a/b", "1/0", "3", "1/10001", "", "/", "1/4 ", " 1/4", "1//4"}) {
    const auto s = parse_shard(bad);
    REQUIRE_FALSE(s);
    CHECK(s.error().find(std::string("'") + bad + "'") != std::string::npos);
  }
}

TEST_CASE("shard: every device in exactly one shard, the same split every time") {
  const FabricDesired f = pods(10);  // 4 spines + 10 x 12 = 124 devices
  for (size_t n : {1, 2, 3, 4, 7, 124, 200}) {
    const auto shards = split(f, n);
    std::map<std::string, int> seen;
    for (const auto& s : shards)
      for (const std::string& d : s) ++seen[d];
    CHECK(seen.size() == f.devices.size());
    for (const auto& entry : seen)
      CHECK_MESSAGE(entry.second == 1, entry.first << " in " << entry.second << " shards, N=" << n);
    CHECK(split(f, n) == shards);
  }
  // The order of the inventory does not matter: the split goes by the names.
  FabricDesired reversed = f;
  std::reverse(reversed.devices.begin(), reversed.devices.end());
  CHECK(split(reversed, 4) == split(f, 4));
}

TEST_CASE("shard: pods stay together, and the shards are about the same size") {
  const FabricDesired f = pods(12);  // 148 devices
  const auto shards = split(f, 4);   // 37 a shard
  for (const auto& s : shards) {
    CHECK(s.size() >= 37 - 8);
    CHECK(s.size() <= 37 + 8);  // a shard may take one unit (a pod's hosts) more than its share
  }
  // A pod's hosts (one group) and each rail leaf are in one shard; a pod spans at most two shards.
  for (int p = 0; p < 12; ++p) {
    const std::string pod = "p" + std::to_string(p);
    std::set<size_t> in;
    for (size_t k = 0; k < shards.size(); ++k)
      for (const std::string& d : shards[k])
        if (d.starts_with(pod + "-")) in.insert(k);
    CHECK(in.size() <= 2);
    for (size_t k = 0; k < shards.size(); ++k) {
      const bool hosts = shards[k].count(pod + "-host0") > 0;
      for (int h = 1; h < 8; ++h) CHECK(shards[k].count(pod + "-host" + std::to_string(h)) == (hosts ? 1U : 0U));
    }
  }
  // The spines (one group) together.
  for (const auto& s : shards)
    if (s.count("spine0") > 0)
      for (const char* spine : {"spine1", "spine2", "spine3"}) CHECK(s.count(spine) == 1);
}

TEST_CASE("shard: of --limit's devices, split as if they were the whole fabric") {
  const FabricDesired f = pods(3);
  std::set<std::string> hosts;
  for (const DeviceDesired& d : f.devices)
    if (d.role == Role::host) hosts.insert(d.name);
  const std::set<std::string> first = shard_devices(f, {0, 3}, &hosts), second = shard_devices(f, {1, 3}, &hosts);
  CHECK(first.size() == 8);  // a pod's hosts each: a third of the 24 hosts, not of the 52 devices
  CHECK(first.count("p0-host0") == 1);
  CHECK(second.count("p1-host7") == 1);
  for (const std::string& d : first) CHECK(hosts.count(d) == 1);
}

TEST_CASE("shard: a unit larger than a shard is cut, in natural order") {
  FabricDesired f;
  for (int h = 1; h <= 10; ++h)
    f.devices.push_back(device("gpu" + std::to_string(h), Role::host, std::nullopt, {"servers"}));
  const auto shards = split(f, 2);
  CHECK(shards[0] == std::set<std::string>{"gpu1", "gpu2", "gpu3", "gpu4", "gpu5"});
  CHECK(shards[1] == std::set<std::string>{"gpu6", "gpu7", "gpu8", "gpu9", "gpu10"});
}
