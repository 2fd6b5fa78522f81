// SHA-256 (FIPS 180-4), to pin what a saved plan was computed against and to name configurations in
// audit records. Small and self-contained, so the tool needs no crypto library for it; not for secrets.
#pragma once

#include <string>
#include <string_view>

namespace fabricctl {

/// The SHA-256 of `data`, as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

}  // namespace fabricctl
