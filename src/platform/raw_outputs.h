// What the platforms' collectors share when they turn raw outputs into a device's observed state: the
// output of one command's file, and counters from a file a raw directory may lack (one collected before
// fabricctl read those counters has none: no counters, never zeros).
#pragma once

#include <string>
#include <string_view>

#include "platform/platform.h"
#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl {

/// The output kept as `file`, or nullptr when it was not collected.
const std::string* raw_file(const RawOutputs& raw, std::string_view file);

/// Adds to `into` what `read` finds in `file`, when `raw` has it; the error names `command`.
Expected<void> add_counters(const RawOutputs& raw, std::string_view file, std::string_view command,
                            Expected<PortCounters> (*read)(std::string_view), PortCounters& into);

}  // namespace fabricctl
