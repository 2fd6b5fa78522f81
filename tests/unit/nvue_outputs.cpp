#include "nvue_outputs.h"

#include "platform/nvue/test_support.h"

namespace fabricctl::test {

RawOutputs nvue_raw_outputs(const DeviceDesired& d, const DeviceObserved& observed) {
  RawOutputs raw = nvue::testing::show_outputs(observed.ports);
  raw["config.json"] = nvue::testing::config_show(nvue::testing::commands_of(d));
  return raw;
}

}  // namespace fabricctl::test
