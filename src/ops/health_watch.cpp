#include "ops/health_watch.h"

#include <utility>

namespace fabricctl::ops {

size_t watch_health(const Fabric& fabric, const WatchOptions& options, Context& ctx, const Wait& wait,
                    const std::function<void(VerifyReport&&)>& sample, const FabricObserved* first) {
  CollectOptions how;
  how.jobs = options.jobs;
  auto started = ctx.clock.now();
  FabricObserved before = first != nullptr ? *first : collect_devices(fabric, options.devices, how, ctx);
  size_t judged = 0;
  while ((options.samples == 0 || judged < options.samples) && !ctx.stop.stop_requested()) {
    // The next reading starts one interval after the last one started: a slow reading does not drift
    // the samples apart, and a reading longer than the interval is followed at once.
    const auto next = started + options.interval;
    const auto now = ctx.clock.now();
    if (next > now && !wait(std::chrono::duration_cast<std::chrono::milliseconds>(next - now))) break;
    started = ctx.clock.now();
    FabricObserved after = collect_devices(fabric, options.devices, how, ctx);
    if (ctx.stop.stop_requested()) break;  // a reading cut short is not judged
    sample(run_health(fabric.desired, before, after, options.health));
    ++judged;
    before = std::move(after);
  }
  return judged;
}

}  // namespace fabricctl::ops
