// Bytes written as text, the way tests/fixtures/dcbnl/*.hex and saved DCB replies are: hex byte pairs
// separated by white space, "#" starting a comment to the end of the line. Strict: anything else is an
// error naming the line and quoting the word.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "util/expected.h"

namespace fabricctl::linux_host {

/// At most `max_bytes` bytes (a netlink reply is a few hundred).
Expected<std::vector<uint8_t>> parse_hex_dump(std::string_view text, size_t max_bytes = 1 << 16);

}  // namespace fabricctl::linux_host
