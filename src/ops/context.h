// What every operation runs with: how devices are reached, who hears about progress and events, the
// clock, and the request to stop. The command line builds one from its options; a test builds one
// from fakes.
#pragma once

#include <utility>

#include "ops/clock.h"
#include "ops/device_session.h"
#include "ops/observer.h"
#include "ops/stop_token.h"

namespace fabricctl::ops {

struct Context {
  Context(Connector& c, Observer& o, const Clock& k = system_clock(), StopToken s = {})
      : connector(c), observer(o), clock(k), stop(std::move(s)) {}

  Connector& connector;
  Observer& observer;
  const Clock& clock;
  StopToken stop;
};

}  // namespace fabricctl::ops
