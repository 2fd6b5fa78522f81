// Small string helpers with no knowledge of the product.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fabricctl {

std::string join(const std::vector<std::string>& parts, std::string_view sep);

/// The lines of `text`, split at '\n' (a last line without one counts; a final '\n' makes no empty
/// line after it), as std::getline reads them.
std::vector<std::string> split_lines(std::string_view text);

/// Strict decimal parse: optional '-', digits only, no spaces, no leading '+', fits in int64.
std::optional<int64_t> parse_int(std::string_view s);

/// Whether every byte of `s` is printable ASCII (0x20-0x7e): no control character, no byte of UTF-8.
bool printable_ascii(std::string_view s);

/// Strict unsigned decimal parse (counters): digits only, no sign, no spaces, fits in uint64.
std::optional<uint64_t> parse_u64(std::string_view s);

/// Orders "Ethernet2" before "Ethernet10" and "swp1s2" before "swp10": digit runs compare as numbers.
bool natural_less(std::string_view a, std::string_view b);

/// natural_less as a comparator, for ordered containers of names.
struct NaturalLess {
  bool operator()(std::string_view a, std::string_view b) const { return natural_less(a, b); }
};

/// Length of the valid UTF-8 sequence at s[i] and its code point, or 0 when the bytes there are not
/// valid UTF-8 (stray continuation, truncated, overlong, surrogate, beyond U+10FFFF).
size_t utf8_sequence(std::string_view s, size_t i, uint32_t& cp);

/// The first `shown` of `items` joined with ", ", then " and N more" for the rest: a list a device
/// could make long, kept to one readable line ("revision 3, revision 4, revision 5 and 2 more").
std::string first_and_more(const std::vector<std::string>& items, size_t shown = 3);

/// A time a device gives as seconds since the epoch, as "2026-12-03T06:05:00Z" (UTC); "" for one before
/// 2001-09-09 (10^9 s: a device's uptime rather than a date) or past the year 9999.
std::string utc_from_epoch(double seconds);

/// Compresses sorted integers into ranges: {0,1,2,5,7,8} -> "0-2,5,7-8" with the given separators.
std::string ranges(const std::vector<int>& sorted_values, std::string_view list_sep = ",",
                   std::string_view range_sep = "-");

}  // namespace fabricctl
