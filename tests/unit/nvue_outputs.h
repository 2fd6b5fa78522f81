// For the ops tests' fake fleet: what an NVUE switch's collector reads when it holds `observed` and its
// rendered commands are applied. Defined once in nvue_outputs.cpp: the NVUE test model
// (platform/nvue/test_support.h, std::regex) costs seconds in every file that includes it.
#pragma once

#include "platform/raw_outputs.h"
#include "state/desired.h"
#include "state/observed.h"

namespace fabricctl::test {

RawOutputs nvue_raw_outputs(const DeviceDesired& d, const DeviceObserved& observed);

}  // namespace fabricctl::test
