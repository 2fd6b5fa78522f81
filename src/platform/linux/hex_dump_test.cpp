#include "platform/linux/hex_dump.h"

#include <doctest/doctest.h>

using fabricctl::linux_host::parse_hex_dump;

TEST_CASE("hex dump: byte pairs with comments, and located errors") {
  const auto bytes = parse_hex_dump("# header\n58 01 00 00   # nlmsg_len\n4E 00\t00 00\n");
  REQUIRE(bytes);
  CHECK(*bytes == std::vector<uint8_t>{0x58, 0x01, 0x00, 0x00, 0x4e, 0x00, 0x00, 0x00});
  CHECK(parse_hex_dump("")->empty());
  const auto bad = parse_hex_dump("00 01\n0x02\n");
  REQUIRE_FALSE(bad);
  CHECK(bad.error() == "line 2: \"0x02\" is not a hex byte such as \"4e\"");
  CHECK(parse_hex_dump("0g").error() == "line 1: \"0g\" is not a hex byte such as \"4e\"");
  CHECK(parse_hex_dump("1\x1b").error() == "line 1: \"1?\" is not a hex byte such as \"4e\"");
  CHECK(parse_hex_dump("00 01 02", 2).error() == "more than 2 bytes");
}
