// Text that SONiC templates paste between JSON quotes. The templates render with escaping disabled,
// so every string the SONiC context hands them is made JSON-safe here, once.
#pragma once

#include <string>
#include <string_view>

namespace fabricctl::sonic {

/// The body of a JSON string literal for `s`, without the surrounding quotes: `"` and `\` and
/// control characters escaped. Invalid UTF-8 becomes U+FFFD rather than throwing.
std::string json_escape(std::string_view s);

/// One reference token of an RFC 6901 JSON pointer ("~" -> "~0", "/" -> "~1"), then JSON-escaped
/// so it can sit inside a "path" string of an RFC 6902 patch.
std::string json_pointer_token(std::string_view s);

}  // namespace fabricctl::sonic
