// `ethtool -S` output read back, as a stand-in NIC's saved answer: the shape ethtool prints (ethtool.c
// dump_stats: a header, then "     NAME: VALUE"), hostile lines refused with their line number.
#include "platform/linux/ethtool_text.h"

#include <doctest/doctest.h>

using namespace fabricctl;
using namespace fabricctl::linux_host;

TEST_CASE("ethtool -S text: the statistics in order, a name with a trailing space kept as printed") {
  const auto s = parse_ethtool_statistics(
      "NIC statistics:\n     rx_prio3_pause: 120\n     tx_pause_storm_warning_events : 3\n     link_down_events_phy: "
      "18446744073709551615\n");
  REQUIRE_MESSAGE(s, s.error());
  CHECK(*s == std::vector<Statistic>{{"rx_prio3_pause", 120},
                                     {"tx_pause_storm_warning_events ", 3},
                                     {"link_down_events_phy", 18446744073709551615ULL}});
  CHECK(parse_ethtool_statistics("NIC statistics:\n")->empty());
  CHECK(parse_ethtool_statistics("NIC statistics:\n     a: 1")->size() == 1);  // no final newline
}

TEST_CASE("ethtool -S text: what is not ethtool's output is refused, located") {
  const auto err = [](std::string_view text) {
    auto r = parse_ethtool_statistics(text);
    REQUIRE_FALSE(r);
    return r.error();
  };
  CHECK(err("") == "line 1: empty; ethtool -S prints \"NIC statistics:\" first");
  CHECK(err("Statistics:\n     a: 1\n") == "line 1: \"Statistics:\" is not ethtool's \"NIC statistics:\"");
  CHECK(err("NIC statistics:\nrx: 1\n") == "line 2: \"rx: 1\" is not \"     NAME: VALUE\"");
  CHECK(err("NIC statistics:\n     rx 1\n") == "line 2: \"     rx 1\" is not \"     NAME: VALUE\"");
  CHECK(err("NIC statistics:\n     rx: -1\n") == "line 2: \"-1\" is not a counter (0-2^64-1)");
  CHECK(err("NIC statistics:\n     rx: 18446744073709551616\n") ==
        "line 2: \"18446744073709551616\" is not a counter (0-2^64-1)");
  CHECK(err("NIC statistics:\n     rx: 1\n\n") == "line 3: \"\" is not \"     NAME: VALUE\"");
  CHECK(err("NIC statistics:\n     r\x1b[2Jx: 1\n") == "line 2: name \"r\\x1b[2Jx\" is not printable");
  CHECK(err("NIC statistics:\n     " + std::string(32, 'a') + ": 1\n").find("longer than 31 bytes") !=
        std::string::npos);
}
