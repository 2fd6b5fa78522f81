// The steps of an apply: the canary, then the rest in waves of a batch size (docs/apply.md, "Steps").
// A wave is made of whole units, and a unit is never split between waves: a rail (`--by rail`: a
// switch's rail, else its first group), a group (`--by group`: its first group), or one device
// (`--by link`, the default), in an order that walks the links between the changing devices, so that
// both ends of as many links as possible change in one wave. The device's far end in a later wave is
// judged in that wave (apply.cpp, judge).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "state/desired.h"
#include "util/expected.h"

namespace fabricctl::ops {

/// `--batch N|P%`: the devices in each wave after the canary; 0 devices and 0 percent: all at once.
struct Batch {
  size_t devices = 0;
  int percent = 0;  // 1-100, of the devices that change
  /// The devices in a wave when `changing` devices change; 0: all of them.
  [[nodiscard]] size_t size(size_t changing) const;
  /// As `--batch` takes it ("12", "10%"); "" for none.
  [[nodiscard]] std::string text() const;
};

/// "12" or "10%"; the error quotes the value.
Expected<Batch> parse_batch(std::string_view text);

enum class WaveUnit { link, rail, group };

/// "link", "rail" or "group"; the error quotes the value.
Expected<WaveUnit> parse_wave_unit(std::string_view text);
std::string_view to_string(WaveUnit u);

/// The unit `d` belongs to: by rail, its rail ("rail 3"; only switches have one), else its first group;
/// by group, its first group ("group spines"); else, and by link, itself ("device leaf1"). Shards
/// (ops/shard.h) go by rail.
std::string unit_key(const DeviceDesired& d, WaveUnit by);

struct Wave {
  std::string label;            // "canary", "apply", "wave 2/5"
  std::vector<size_t> devices;  // positions in the plan's device list
};

/// The waves of `changing` (positions in the plan, their names in `names`, plan order): the first
/// `canary` devices (whole units, at least that many), then the rest in waves of `batch`.
std::vector<Wave> plan_waves(const FabricDesired& desired, const std::vector<size_t>& changing,
                             const std::vector<std::string>& names, size_t canary, Batch batch, WaveUnit unit);

}  // namespace fabricctl::ops
