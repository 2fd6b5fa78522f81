// MLNX_OFED's traffic_class: what it shows parsed back to the value it stores (traffic_class.h).
#include "platform/linux/traffic_class.h"

#include <doctest/doctest.h>

using namespace fabricctl::linux_host;

TEST_CASE("traffic_class: the shown override, rules, or nothing") {
  auto g = parse_traffic_class("Global tclass=106\n");
  REQUIRE(g);
  CHECK(g->global == 106);
  CHECK(g->rules.empty());
  auto none = parse_traffic_class("");
  REQUIRE(none);
  CHECK(!none->global);
  auto rules = parse_traffic_class("Global tclass=96\ndst_ip=10.0.0.0/24,tclass=104\nsrc_ip6=fe80::1,tclass=0\n");
  REQUIRE(rules);
  CHECK(rules->global == 96);
  CHECK(rules->rules == std::vector<std::string>{"dst_ip=10.0.0.0/24,tclass=104", "src_ip6=fe80::1,tclass=0"});
  auto only_rules = parse_traffic_class("dst_ip=10.0.0.0/24,tclass=104\n");
  REQUIRE(only_rules);
  CHECK(!only_rules->global);
  CHECK(parse_traffic_class("Global tclass=256\n").error() == "line 1: not \"Global tclass=<0-255>\"");
  CHECK(parse_traffic_class("106\n").error() ==
        "line 1: neither \"Global tclass=<0-255>\" nor a per-address rule (\"dst_ip=...,tclass=N\")");
  CHECK(!parse_traffic_class("dst_ip=10.0.0.0/24,tclass=1\nGlobal tclass=96\n"));  // the override comes first
}

TEST_CASE("traffic_class: the value written to restore an override is N, or -1 to clear it") {
  CHECK(traffic_class_store(106) == "106");
  CHECK(traffic_class_store(0) == "0");
  CHECK(traffic_class_store(std::nullopt) == "-1");
}
