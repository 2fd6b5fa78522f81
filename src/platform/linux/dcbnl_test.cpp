// The DCB netlink codec against byte vectors: the fixtures under tests/fixtures/dcbnl (built from the
// uapi layouts in linux/dcbnl.h, each byte group commented) both ways, and malformed replies, each with
// its exact error. What iproute2's own `dcb` sends is compared in dcbnl_strace_test.cpp.
#include <doctest/doctest.h>

#include <linux/dcbnl.h>
#include <linux/rtnetlink.h>

#include <bit>
#include <cstring>
#include <fstream>
#include <sstream>

#include "platform/linux/dcbnl.h"

using namespace fabricctl;

namespace {

static_assert(std::endian::native == std::endian::little, "the fixtures are little-endian (host order)");

/// A fixture's bytes: hex pairs, "#" to the end of the line is a comment.
NetlinkBytes fixture(const std::string& name) {
  std::ifstream in(std::string(FABRICCTL_SOURCE_DIR) + "/tests/fixtures/dcbnl/" + name);
  REQUIRE_MESSAGE(in, "cannot read fixture " << name);
  NetlinkBytes out;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line.substr(0, line.find('#')));
    std::string hex;
    while (words >> hex) {
      REQUIRE_MESSAGE(hex.size() == 2, name << ": \"" << hex << "\" is not one hex byte");
      out.push_back(static_cast<uint8_t>(std::stoul(hex, nullptr, 16)));
    }
  }
  return out;
}

/// The state ieee_get_reply.hex describes (its header comment).
DcbState fixture_state() {
  DcbState s;
  s.ifname = "eth0";
  DcbEts e;
  e.ets_cap = 8;
  e.tc_tx_bw = {50, 50, 0, 0, 0, 0, 0, 0};
  e.tc_tsa = {kTsaEts, kTsaEts, 0, 0, 0, 0, 0, 0};
  e.prio_tc = {0, 0, 0, 1, 0, 0, 6, 0};
  s.ets = e;
  DcbPfc p;
  p.pfc_cap = 8;
  p.enabled[3] = true;
  p.delay = 5;
  p.requests[3] = 1000;
  p.indications[3] = 0x0102030405060708;
  s.pfc = p;
  s.apps = {{kAppSelDscp, 3, 26}, {kAppSelDscp, 6, 48}, {kAppSelEthertype, 3, 0x8915}};
  s.dcbx = 0x09;
  return s;
}

/// The IEEE set ieee_set_request.hex holds: the fixture's ETS and PFC (without counters), two DSCP entries.
DcbIeeeSet fixture_set() {
  DcbState s = fixture_state();
  s.pfc->requests = {};
  s.pfc->indications = {};
  return {s.ets, s.pfc, {{kAppSelDscp, 3, 26}, {kAppSelDscp, 6, 48}}};
}

// Builders of malformed messages (host order, as the kernel writes them).
void put16(NetlinkBytes& b, size_t at, uint16_t v) { std::memcpy(b.data() + at, &v, 2); }
void put32(NetlinkBytes& b, size_t at, uint32_t v) { std::memcpy(b.data() + at, &v, 4); }

NetlinkBytes attr(uint16_t type, const NetlinkBytes& payload) {
  NetlinkBytes a(4);
  put16(a, 0, static_cast<uint16_t>(4 + payload.size()));
  put16(a, 2, type);
  a.insert(a.end(), payload.begin(), payload.end());
  a.resize((a.size() + 3) & ~size_t{3});
  return a;
}

NetlinkBytes cat(std::initializer_list<NetlinkBytes> parts) {
  NetlinkBytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

NetlinkBytes message(uint16_t type, uint8_t cmd, const NetlinkBytes& attrs) {
  NetlinkBytes m(20);
  put32(m, 0, static_cast<uint32_t>(20 + attrs.size()));
  put16(m, 4, type);
  m[17] = cmd;
  m.insert(m.end(), attrs.begin(), attrs.end());
  return m;
}

const NetlinkBytes kEth0 = {'e', 't', 'h', '0', 0};

NetlinkBytes get_reply(const NetlinkBytes& ieee_content) {
  return message(RTM_GETDCB, DCB_CMD_IEEE_GET, cat({attr(DCB_ATTR_IFNAME, kEth0), attr(DCB_ATTR_IEEE, ieee_content)}));
}

std::string get_error(const NetlinkBytes& m) {
  auto r = decode_ieee_get_reply(m);
  REQUIRE_FALSE(r.has_value());
  return r.error();
}

/// The bytes of a message without nlmsg_seq and nlmsg_pid (offsets 8-15), which the transport sets.
NetlinkBytes without_seq_pid(NetlinkBytes m) {
  REQUIRE(m.size() >= 16);
  std::fill(m.begin() + 8, m.begin() + 16, uint8_t{0});
  return m;
}

}  // namespace

TEST_CASE("dcbnl: the IEEE get request is the fixture's bytes") {
  auto m = encode_ieee_get("eth0");
  REQUIRE(m.has_value());
  CHECK(*m == fixture("ieee_get_request.hex"));
}

TEST_CASE("dcbnl: the IEEE get reply fixture decodes to its state, unknown attributes skipped") {
  auto s = decode_ieee_get_reply(fixture("ieee_get_reply.hex"));
  REQUIRE_MESSAGE(s.has_value(), s.error());
  CHECK(*s == fixture_state());
  CHECK(s->pfc->enabled == std::array<bool, 8>{false, false, false, true, false, false, false, false});
  CHECK(s->pfc->indications[3] == 0x0102030405060708);
}

TEST_CASE("dcbnl: an encoded get reply decodes to the state it was built from") {
  for (DcbState s : {fixture_state(), DcbState{"ens1f0np0", std::nullopt, std::nullopt, {}, std::nullopt}}) {
    auto m = encode_ieee_get_reply(s);
    REQUIRE(m.has_value());
    auto back = decode_ieee_get_reply(*m);
    REQUIRE_MESSAGE(back.has_value(), back.error());
    CHECK(*back == s);
  }
  // The fixture with its MAXRATE attribute (offset 100, 68 bytes) cut out and the lengths mended is
  // exactly what the encoder builds: the encoder lays out the reply the way the kernel does.
  NetlinkBytes f = without_seq_pid(fixture("ieee_get_reply.hex"));
  f.erase(f.begin() + 100, f.begin() + 168);
  put32(f, 0, static_cast<uint32_t>(f.size()));
  put16(f, 32, 304 - 68);
  auto m = encode_ieee_get_reply(fixture_state());
  REQUIRE(m.has_value());
  CHECK(*m == f);
}

TEST_CASE("dcbnl: the IEEE set request is the fixture's bytes, and decodes back") {
  auto m = encode_ieee_set("eth0", fixture_set());
  REQUIRE(m.has_value());
  CHECK(*m == fixture("ieee_set_request.hex"));
  auto req = decode_ieee_set_request(fixture("ieee_set_request.hex"));
  REQUIRE_MESSAGE(req.has_value(), req.error());
  CHECK(*req == DcbSetRequest{DCB_CMD_IEEE_SET, "eth0", fixture_set()});
}

TEST_CASE("dcbnl: a set of PFC alone carries PFC alone") {
  DcbIeeeSet only_pfc;
  only_pfc.pfc = fixture_set().pfc;
  auto m = encode_ieee_set("eth0", only_pfc);
  REQUIRE(m.has_value());
  CHECK(m->size() == 20 + 12 + 4 + 140);
  auto req = decode_ieee_set_request(*m);
  REQUIRE(req.has_value());
  CHECK(req->set == only_pfc);
}

TEST_CASE("dcbnl: the IEEE del request is the fixture's bytes, and decodes back") {
  const std::vector<DcbApp> apps = {{kAppSelDscp, 3, 26}};
  auto m = encode_ieee_del_apps("eth0", apps);
  REQUIRE(m.has_value());
  CHECK(*m == fixture("ieee_del_request.hex"));
  auto req = decode_ieee_set_request(*m);
  REQUIRE(req.has_value());
  CHECK(req->cmd == DCB_CMD_IEEE_DEL);
  CHECK(req->set.apps == apps);
}

TEST_CASE("dcbnl: set replies: status 0 is success, a driver errno is a clear error") {
  CHECK(decode_ieee_set_reply(fixture("ieee_set_reply_ok.hex"), DCB_CMD_IEEE_SET).has_value());
  auto bad = decode_ieee_set_reply(fixture("ieee_set_reply_einval.hex"), DCB_CMD_IEEE_SET);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error() ==
        "the driver refused the change: Invalid argument (EINVAL 22); parts the kernel applies earlier (ETS, then "
        "PFC, then app entries in order) may be in effect");
  CHECK(encode_ieee_set_reply(DCB_CMD_IEEE_SET, 0) == without_seq_pid(fixture("ieee_set_reply_ok.hex")));
  CHECK(encode_ieee_set_reply(DCB_CMD_IEEE_SET, -22) == without_seq_pid(fixture("ieee_set_reply_einval.hex")));
  // The reply to a del, and a set reply read as a del's.
  CHECK(decode_ieee_set_reply(encode_ieee_set_reply(DCB_CMD_IEEE_DEL, 0), DCB_CMD_IEEE_DEL).has_value());
  auto wrong = decode_ieee_set_reply(fixture("ieee_set_reply_ok.hex"), DCB_CMD_IEEE_DEL);
  REQUIRE_FALSE(wrong.has_value());
  CHECK(wrong.error() == "dcb ieee del reply: dcb cmd 20, expected 27");
  auto eperm = decode_ieee_set_reply(encode_ieee_set_reply(DCB_CMD_IEEE_SET, -1), DCB_CMD_IEEE_SET);
  REQUIRE_FALSE(eperm.has_value());
  CHECK(eperm.error().starts_with("the driver refused the change: Operation not permitted (EPERM 1)"));
}

TEST_CASE("dcbnl: malformed set replies") {
  const NetlinkBytes two = {0xea};
  auto r = decode_ieee_set_reply(message(RTM_SETDCB, DCB_CMD_IEEE_SET, attr(DCB_ATTR_IEEE, {0, 0})), DCB_CMD_IEEE_SET);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error() == "dcb ieee set reply: status attribute DCB_ATTR_IEEE is 2 bytes, u8 is 1");
  r = decode_ieee_set_reply(message(RTM_SETDCB, DCB_CMD_IEEE_SET, {}), DCB_CMD_IEEE_SET);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error() == "dcb ieee set reply: no DCB_ATTR_IEEE status attribute");
  r = decode_ieee_set_reply(
      message(RTM_SETDCB, DCB_CMD_IEEE_SET, cat({attr(DCB_ATTR_IEEE, two), attr(DCB_ATTR_IEEE, two)})),
      DCB_CMD_IEEE_SET);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error() == "dcb ieee set reply: DCB_ATTR_IEEE appears twice");
  r = decode_ieee_set_reply(message(RTM_SETDCB, DCB_CMD_IEEE_SET, attr(DCB_ATTR_IEEE, {5})), DCB_CMD_IEEE_SET);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error() == "dcb ieee set reply: status 5 is not a negative errno");
  r = decode_ieee_set_reply(fixture("ieee_get_reply.hex"), DCB_CMD_IEEE_SET);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error() == "dcb ieee set reply: nlmsg_type 78, expected 79");
}

TEST_CASE("dcbnl: truncated, oversized and malformed get replies are errors that say what is wrong") {
  const NetlinkBytes good = fixture("ieee_get_reply.hex");
  SUBCASE("every truncation") {
    for (size_t n = 0; n < good.size(); ++n) {
      auto r = decode_ieee_get_reply(std::span(good).first(n));
      CHECK_FALSE_MESSAGE(r.has_value(), "decoded " << n << " of " << good.size() << " bytes");
    }
    CHECK(get_error(NetlinkBytes(good.begin(), good.begin() + 10)) ==
          "dcb ieee get reply: 10 bytes is shorter than a netlink header (16 bytes)");
    CHECK(get_error(NetlinkBytes(good.begin(), good.begin() + 200)) ==
          "dcb ieee get reply: nlmsg_len 344 exceeds the 200 bytes received (truncated)");
  }
  SUBCASE("bytes after the message") {
    NetlinkBytes m = good;
    m.insert(m.end(), {0, 0, 0, 0, 0, 0, 0, 0});
    CHECK(get_error(m) == "dcb ieee get reply: 8 bytes after the message of 344 bytes");
  }
  SUBCASE("header") {
    NetlinkBytes m = good;
    put32(m, 0, 12);
    CHECK(get_error(m) == "dcb ieee get reply: nlmsg_len 12 is shorter than a DCB message header (20 bytes)");
    m = good;
    m[16] = 7;
    CHECK(get_error(m) == "dcb ieee get reply: dcb_family 7, expected 0 (AF_UNSPEC)");
    m = good;
    m[17] = DCB_CMD_GDCBX;
    CHECK(get_error(m) == "dcb ieee get reply: dcb cmd 22, expected 21");
  }
  SUBCASE("an attribute longer than what is left") {
    NetlinkBytes m = good;
    put16(m, 32, 400);  // the IEEE nest claims more than the message holds
    CHECK(get_error(m) ==
          "dcb ieee get reply: message: attribute type 13 at offset 32 has nla_len 400, but 312 bytes remain");
    m = good;
    put16(m, 36, 2);  // an ETS attribute shorter than its own header
    CHECK(get_error(m) ==
          "dcb ieee get reply: DCB_ATTR_IEEE: attribute type 1 at offset 36 has nla_len 2, but 300 bytes remain");
  }
  SUBCASE("structs of the wrong size") {
    CHECK(get_error(get_reply(attr(DCB_ATTR_IEEE_PFC, NetlinkBytes(12)))) ==
          "dcb ieee get reply: DCB_ATTR_IEEE_PFC is 12 bytes, struct ieee_pfc is 136");
    CHECK(get_error(get_reply(attr(DCB_ATTR_IEEE_PFC, NetlinkBytes(200)))) ==
          "dcb ieee get reply: DCB_ATTR_IEEE_PFC is 200 bytes, struct ieee_pfc is 136");
    CHECK(get_error(get_reply(attr(DCB_ATTR_IEEE_ETS, NetlinkBytes(60)))) ==
          "dcb ieee get reply: DCB_ATTR_IEEE_ETS is 60 bytes, struct ieee_ets is 59");
    CHECK(get_error(get_reply(attr(DCB_ATTR_IEEE_APP_TABLE, attr(DCB_ATTR_IEEE_APP, {5, 3, 26})))) ==
          "dcb ieee get reply: app table entry is 3 bytes, struct dcb_app is 4");
  }
  SUBCASE("values out of range, repeated and missing attributes") {
    CHECK(get_error(get_reply(attr(DCB_ATTR_IEEE_APP_TABLE, attr(DCB_ATTR_IEEE_APP, {5, 9, 26, 0})))) ==
          "dcb ieee get reply: app table entry (selector 5, protocol 26) has priority 9, above 7");
    const NetlinkBytes pfc = attr(DCB_ATTR_IEEE_PFC, NetlinkBytes(136));
    CHECK(get_error(get_reply(cat({pfc, pfc}))) == "dcb ieee get reply: DCB_ATTR_IEEE_PFC appears twice");
    CHECK(get_error(message(RTM_GETDCB, DCB_CMD_IEEE_GET, attr(DCB_ATTR_IFNAME, kEth0))) ==
          "dcb ieee get reply: no DCB_ATTR_IEEE attribute");
    CHECK(get_error(message(RTM_GETDCB, DCB_CMD_IEEE_GET, attr(DCB_ATTR_IFNAME, {'e', 't', 'h'}))) ==
          "dcb ieee get reply: DCB_ATTR_IFNAME of 3 bytes is not a NUL-terminated name of 1-15 bytes");
    CHECK(get_error(message(RTM_GETDCB, DCB_CMD_IEEE_GET, cat({attr(DCB_ATTR_IEEE, {}), NetlinkBytes{1, 2}}))) ==
          "dcb ieee get reply: message: 2 stray bytes at offset 24, too few for an attribute");
    CHECK(get_error(message(RTM_NEWLINK, DCB_CMD_IEEE_GET, {})) == "dcb ieee get reply: nlmsg_type 16, expected 78");
  }
  SUBCASE("any single byte changed: an answer or an error, never a crash") {
    for (size_t i = 0; i < good.size(); ++i) {
      for (const uint8_t v : {uint8_t{0x00}, uint8_t{0x03}, uint8_t{0xff}}) {
        NetlinkBytes m = good;
        m[i] = v;
        (void)decode_ieee_get_reply(m);
      }
    }
  }
}

TEST_CASE("dcbnl: app entries of kernel 6.5's DCB_ATTR_DCB_APP (PCP selector) are read too") {
  auto s = decode_ieee_get_reply(get_reply(attr(DCB_ATTR_IEEE_APP_TABLE, attr(2, {255, 4, 4, 0}))));
  REQUIRE_MESSAGE(s.has_value(), s.error());
  CHECK(s->apps == std::vector<DcbApp>{{255, 4, 4}});
}

TEST_CASE("dcbnl: requests the kernel would refuse are refused here, the bad value quoted") {
  auto e = encode_ieee_get("");
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "interface name is empty");
  e = encode_ieee_get("enp1s0f0np0xxxxx");
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "interface name \"enp1s0f0np0xxxxx\" is longer than 15 bytes (IFNAMSIZ)");
  e = encode_ieee_get("eth0/x");
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "interface name \"eth0/x\" has a character the kernel refuses ('/', ':', space or control)");
  e = encode_ieee_get(std::string_view("eth\0", 4));
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "interface name \"eth\\u0000\" has a character the kernel refuses ('/', ':', space or control)");
  e = encode_ieee_set("eth0", {});
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "nothing to set: no ets, pfc or app entries");
  DcbIeeeSet bad = fixture_set();
  bad.ets->prio_tc[5] = 8;
  e = encode_ieee_set("eth0", bad);
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "ets prio_tc of priority 5 is 8, above 7");
  bad = fixture_set();
  bad.ets->tc_tsa[2] = 3;
  e = encode_ieee_set("eth0", bad);
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "ets tc_tsa of tc 2 is 3, not 0, 1, 2 or 255");
  e = encode_ieee_del_apps("eth0", {{kAppSelDscp, 8, 26}});
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "app entry priority 8 is above 7");
  e = encode_ieee_del_apps("eth0", {{kAppSelDscp, 1, 64}});
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "app entry DSCP 64 is above 63");
  e = encode_ieee_del_apps("eth0", {});
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "nothing to delete: no app entries");
  e = encode_ieee_set("eth0", {std::nullopt, std::nullopt, std::vector<DcbApp>(257, DcbApp{kAppSelDscp, 1, 1})});
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error() == "257 app entries in one message, at most 256");
}
