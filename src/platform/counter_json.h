// What the platforms' JSON readers of per-port counters share (Junos show_json.cpp, NX-OS
// queuing_json.cpp): setting one counter of a port, once.
#pragma once

#include <cstdint>
#include <string>

#include "state/observed.h"
#include "util/json_reader.h"

namespace fabricctl {

/// Sets counter `name` of `p` to `value`, refusing a second value for it (an element printed twice for
/// one priority or queue): which of the two is the counter cannot be told. The error is at `at`.
inline void set_counter(PortObserved& p, const jsonr::Path& at, const std::string& name, uint64_t value) {
  if (!p.counters.emplace(name, value).second) jsonr::fail(at, name + " is printed twice");
}

}  // namespace fabricctl
