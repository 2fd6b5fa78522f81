// The ethtool statistics reader: its name decoder on hostile bytes, and the real kernel's answer for a
// veth in a namespace of the test's own (drivers/net/veth.c: "peer_ifindex" first, the peer's ifindex as
// its value, then per-queue XDP counters), for loopback (no statistics) and for a missing device.
#include "transport/ethtool.h"

#include <doctest/doctest.h>

#include <net/if.h>

#include <string>

#include "netns_fixture.h"

using namespace fabricctl;

namespace {

/// `names` as ETHTOOL_GSTRINGS lays them out: each in a 32-byte NUL-padded slot.
std::vector<uint8_t> slots(const std::vector<std::string>& names) {
  std::vector<uint8_t> out(names.size() * 32, 0);
  for (size_t i = 0; i < names.size(); ++i)
    for (size_t j = 0; j < names[i].size() && j < 32; ++j) out[i * 32 + j] = static_cast<uint8_t>(names[i][j]);
  return out;
}

}  // namespace

TEST_CASE("ethtool: statistic names decode from their 32-byte slots, and bad slots are refused by number") {
  const auto names = decode_stat_names(slots({"rx_prio3_pause", "tx_pause_storm_warning_events"}), 2);
  REQUIRE_MESSAGE(names, names.error());
  CHECK(*names == std::vector<std::string>{"rx_prio3_pause", "tx_pause_storm_warning_events"});
  CHECK(decode_stat_names(slots({"a", "b"}), 1)->size() == 1);  // only the announced count is read

  CHECK(decode_stat_names(slots({"a"}), 2).error() == "32 bytes of names hold fewer than the 2 announced");
  CHECK(decode_stat_names(slots({"ok", std::string(32, 'x')}), 2).error() == "statistic 1: its name has no end");
  CHECK(decode_stat_names(slots({""}), 1).error() == "statistic 0: an empty name");
  CHECK(decode_stat_names(slots({"rx\x1b[2Jpause"}), 1).error() ==
        "statistic 0: name \"rx\\x1b[2Jpause\" is not printable");
  CHECK(decode_stat_names(slots({"rx\xc3\xa9"}), 1).error().find("is not printable") != std::string::npos);
}

TEST_CASE("ethtool: names the kernel would refuse are refused before any ioctl") {
  for (const char* bad : {"", "a/b", "a b", "a:b", "0123456789abcdef", ".."})
    CHECK(read_ethtool_stats(bad).error().find("not an interface name") == 0);
}

TEST_SUITE("external") {
  TEST_CASE("ethtool: a veth's statistics from the kernel; loopback has none; a missing device is named") {
    test::Netns ns("ethtool");
    if (!ns.available()) return;
    const std::string out = ns.run_inside([&]() -> std::string {
      auto stats = read_ethtool_stats(ns.a);
      if (!stats) return "veth: " + stats.error();
      const uint64_t peer_index = ::if_nametoindex(ns.b.c_str());  // the namespace's own (sysfs shows the runner's)
      if (stats->empty() || (*stats)[0].name != "peer_ifindex") return "veth: first statistic is not peer_ifindex";
      if ((*stats)[0].value != peer_index || peer_index == 0)
        return "veth: peer_ifindex " + std::to_string((*stats)[0].value) + ", the peer's is " +
               std::to_string(peer_index);
      auto lo = read_ethtool_stats("lo");
      if (!lo) return "lo: " + lo.error();
      if (!lo->empty()) return "lo: " + std::to_string(lo->size()) + " statistics";
      auto none = read_ethtool_stats("fctl-none");
      if (none) return "a missing device read";
      return "ok " + std::to_string(stats->size()) + " | " + none.error();
    });
    CHECK(out.starts_with("ok "));
    CHECK(out.find("\"fctl-none\": the statistics' count (ETHTOOL_GSSET_INFO): No such device (errno 19)") !=
          std::string::npos);
    MESSAGE(out);
  }
}
