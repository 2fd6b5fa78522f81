// `nv show interface -o json`: NVUE's interface collection, an object keyed by interface name whose
// values hold `type` ("swp", "svi", "loopback", ...) and `link` {`oper-status` "up"|"down", `speed`
// ("400G"; absent on SVIs), `mtu` (integer, bytes, L3)}. Shape documented by NVIDIA's REST API example
// (GET /nvue_v1/interface, shared/reference/outputs/nvue/nvue-api_get-interface-filter-type-svi.json);
// `speed` on swp ports is from a third-party capture (switch-nos.md) and assumed. `link.stats` (the
// interface's counters: `carrier-transitions`, `in-drops`, `out-drops`, `in-errors`, `out-errors`, integers)
// is in the same REST example and in `nv show interface <if> link stats -o json`'s; UNCONFIRMED: that the
// CLI's bulk `nv show interface -o json` carries it on a switch (without it there are no counters, never
// zeros; docs/transactions-nvue.md, the acceptance checklist). Other keys are NVUE's and ignored.
// Device output is untrusted: strict types, the bad value quoted, and a bad interface makes only that
// interface unreadable.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl::nvue {

/// One interface's operational state; `type` as NVUE names it. Empty optionals: not reported.
struct InterfaceState {
  std::string type;
  std::optional<bool> oper_up;
  std::optional<int> speed_mbps;
  std::optional<int> mtu;
  std::map<std::string, uint64_t> counters;  // link.stats, in neutral names (docs/counters-reference.md)
};

struct Interfaces {
  std::map<std::string, InterfaceState, std::less<>> by_name;
  std::map<std::string, std::string> unreadable;  // interface (made printable) -> why
};

/// The interfaces of `text`. The error: `text` is not a JSON object of interfaces.
Expected<Interfaces> interfaces(std::string_view text);

}  // namespace fabricctl::nvue
