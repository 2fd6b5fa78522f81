// `health --watch`: the fabric read every interval and each reading judged against the one before, for
// monitoring (a Prometheus text file node_exporter serves, a dashboard over it). Time and waiting are
// injected: the command line sleeps, a test moves a fake clock and the devices' counters.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "health/health.h"
#include "model/fabric.h"
#include "ops/collect.h"
#include "ops/context.h"

namespace fabricctl::ops {

struct WatchOptions {
  std::chrono::milliseconds interval{60'000};  // from the start of one reading to the start of the next
  size_t samples = 0;                          // judgements to make; 0: until the stop token asks
  std::vector<std::string> devices;            // the devices read (all when empty)
  int jobs = 32;
  HealthOptions health;
};

/// Waits `d`, or less when the run is asked to stop; false when it was.
using Wait = std::function<bool(std::chrono::milliseconds d)>;

/// Reads the fabric (`first`, when given, stands for the first reading), then every interval reads it
/// again and gives `sample` health between that reading and the one before: a device read in one and
/// not the other is unreadable in that sample only. Returns the samples judged.
size_t watch_health(const Fabric& fabric, const WatchOptions& options, Context& ctx, const Wait& wait,
                    const std::function<void(VerifyReport&&)>& sample, const FabricObserved* first = nullptr);

}  // namespace fabricctl::ops
