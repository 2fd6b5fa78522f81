// netlink_route_request() and dcb_query.h against the real kernel: a name no interface has (any user, the
// test's own namespace), and a veth in a namespace the test makes (root), whose driver has no DCB
// support: EOPNOTSUPP, reported as "not supported", not as a failure.
#include <doctest/doctest.h>

#include <linux/dcbnl.h>

#include <cerrno>

#include "netns_fixture.h"
#include "ops/dcb_query.h"
#include "platform/linux/dcbnl.h"
#include "transport/netlink.h"

using namespace fabricctl;
using namespace fabricctl::ops;

TEST_CASE("netlink: a DCB get for an interface that does not exist is a clear error") {
  auto request = encode_ieee_get("fctlnosuch0");
  REQUIRE(request.has_value());
  auto answer = netlink_route_request(*request);
  REQUIRE_MESSAGE(answer.has_value(), answer.error());
  CHECK(answer->error == ENODEV);
  CHECK(answer->messages.empty());

  auto r = dcb_ieee_get("fctlnosuch0");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error() ==
        "dcb ieee get on \"fctlnosuch0\": no such interface in this network namespace (No such device "
        "(ENODEV 19))");
}

TEST_CASE("netlink: requests that are no netlink message are refused before anything is sent") {
  const std::vector<uint8_t> short_one(8);
  auto a = netlink_route_request(short_one);
  REQUIRE_FALSE(a.has_value());
  CHECK(a.error() == "netlink: a request of 8 bytes is no netlink message");
  auto request = encode_ieee_get("eth0");
  REQUIRE(request.has_value());
  (*request)[6] = 1;  // nlmsg_flags: NLM_F_REQUEST only
  a = netlink_route_request(*request);
  REQUIRE_FALSE(a.has_value());
  CHECK(a.error() == "netlink: request without NLM_F_ACK");
  request->push_back(0);
  a = netlink_route_request(*request);
  REQUIRE_FALSE(a.has_value());
  CHECK(a.error() == "netlink: request nlmsg_len 32 but 33 bytes");
  auto bad_name = dcb_ieee_get("a/b");
  REQUIRE_FALSE(bad_name.has_value());
  CHECK(bad_name.error() ==
        "dcb ieee get on \"a/b\": interface name \"a/b\" has a character the kernel refuses ('/', ':', space or "
        "control)");
}

// Needs root for its namespace: suite "external" (tests/unit/shared_dir.h), skipped without.
TEST_CASE("netlink: DCB on a veth is 'not supported', in its namespace" * doctest::test_suite("external")) {
  test::Netns ns("netlink");
  if (!ns.available()) return;
  const std::string ifname = ns.a;
  const std::string out = ns.run_inside([&]() -> std::string {
    std::string report;
    auto request = encode_ieee_get(ifname);
    if (!request) return "encode: " + request.error();
    auto answer = netlink_route_request(*request);
    report += answer ? "transport error " + std::to_string(answer->error) : "transport failed: " + answer.error();
    auto get = dcb_ieee_get(ifname);
    report += get ? (get->supported ? "; get supported" : "; get not supported") : "; get failed: " + get.error();
    DcbIeeeSet set;
    set.apps = {{kAppSelDscp, 3, 26}};
    auto s = dcb_ieee_set(ifname, set);
    report += s ? "; set ok" : "; set: " + s.error();
    return report;
  });
  CHECK(out == "transport error " + std::to_string(EOPNOTSUPP) +
                   "; get not supported; set: dcb ieee set on \"fctl0\": the interface has no DCB support (Operation "
                   "not supported (EOPNOTSUPP 95))");
  // The same name is no interface outside the namespace.
  auto outside = dcb_ieee_get(ifname);
  REQUIRE_FALSE(outside.has_value());
  CHECK(outside.error().find("no such interface") != std::string::npos);
}
