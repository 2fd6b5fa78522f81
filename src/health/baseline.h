// A fabric's normal, saved: every counter's rise over a window of a healthy fabric, per device and port,
// with the window's length, so that `health --baseline` can say "pauses on leaf3:Ethernet12 at 40x
// baseline". Rises and milliseconds, not rates: the file holds integers only, read back exactly by the
// strict reader. Format fabricctl.baseline/v1 (docs/baselines.md).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "state/observed.h"
#include "util/expected.h"

namespace fabricctl {

struct DeviceBaseline {
  uint64_t window_ms = 0;                                        // between its two readings
  std::map<std::string, std::map<std::string, uint64_t>> rises;  // port -> counter -> rise in the window
};

struct Baseline {
  std::string saved_at;                       // RFC 3339 UTC
  std::string first_reading, second_reading;  // the earliest collected_at of each reading
  uint64_t findings = 0;                      // health's findings in the window: 0 for a healthy one
  std::map<std::string, DeviceBaseline> devices;

  /// The counter's rate per second in the baseline, or nullopt when it holds none for it.
  [[nodiscard]] std::optional<double> rate(const std::string& device, const std::string& port,
                                           const std::string& counter) const;
};

/// The rises of every counter both readings of a device have (and did not fall: cleared or restarted),
/// for the devices read in time order in both.
Baseline baseline_between(const FabricObserved& before, const FabricObserved& after);

/// fabricctl.baseline/v1, deterministic (sorted keys, a trailing newline).
std::string baseline_json(const Baseline& b);

/// Reads a baseline file's text strictly: the error is "path: what" with the bad value quoted.
Expected<Baseline> parse_baseline(std::string_view text);

/// Writes DIR/snapshots/<device>.json (the state) and then DIR/baseline.json, each file atomically:
/// a baseline.json is only there once its state is. DIR is created.
Expected<void> save_baseline(const Baseline& b, const FabricObserved& state, const std::filesystem::path& dir);
/// Reads DIR/baseline.json; the error names the file: "DIR/baseline.json: devices.leaf1: ...".
Expected<Baseline> load_baseline(const std::filesystem::path& dir);

}  // namespace fabricctl
