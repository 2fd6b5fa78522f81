// The steps of an apply (ops/waves.h): the batch size, the units a wave never splits, and the order
// that keeps both ends of a link in one wave.
#include "ops/waves.h"

#include <doctest/doctest.h>

using namespace fabricctl;
using namespace fabricctl::ops;

namespace {

/// Leaves a0, a1 on rail 0 and b0 on rail 1, a spine (group "spines") on every leaf, hosts h1 (on a0
/// and b0) and h2 (on a1). Plan order is name order: a0 a1 b0 h1 h2 spine.
struct Rails {
  FabricDesired desired;
  std::vector<std::string> names{"a0", "a1", "b0", "h1", "h2", "spine"};
  std::vector<size_t> all{0, 1, 2, 3, 4, 5};

  Rails() {
    for (const std::string& n : names) {
      DeviceDesired d;
      d.name = n;
      desired.devices.push_back(d);
    }
    device("a0").rail = 0;
    device("a1").rail = 0;
    device("b0").rail = 1;
    device("spine").groups = {"spines"};
    device("h1").groups = {"gpu-servers"};
    device("h2").groups = {"gpu-servers"};
    cable("a0", "h1");
    cable("b0", "h1");
    cable("a1", "h2");
    for (const char* leaf : {"a0", "a1", "b0"}) cable(leaf, "spine");
  }
  DeviceDesired& device(const std::string& name) {
    for (DeviceDesired& d : desired.devices)
      if (d.name == name) return d;
    FAIL("no device " << name);
    return desired.devices.front();
  }
  void cable(const std::string& a, const std::string& b) {
    PortDesired pa, pb;
    pa.name = "to-" + b;
    pa.peer_device = b;
    pa.peer_port = "to-" + a;
    pb.name = "to-" + a;
    pb.peer_device = a;
    pb.peer_port = "to-" + b;
    device(a).ports.push_back(pa);
    device(b).ports.push_back(pb);
  }
  /// The waves as "label: name name", one string a wave.
  std::vector<std::string> waves(size_t canary, Batch batch, WaveUnit unit, std::vector<size_t> changing = {}) {
    if (changing.empty()) changing = all;
    std::vector<std::string> out;
    for (const Wave& w : plan_waves(desired, changing, names, canary, batch, unit)) {
      std::string line = w.label + ":";
      for (size_t at : w.devices) line += " " + names[at];
      out.push_back(line);
    }
    return out;
  }
};

Batch of(std::string_view text) {
  auto b = parse_batch(text);
  REQUIRE(b);
  return *b;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("waves: --batch is a number of devices or a percentage of those that change") {
  CHECK(of("3").size(40) == 3);
  CHECK(of("10%").size(40) == 4);
  CHECK(of("10%").size(41) == 5);  // rounded up
  CHECK(of("1%").size(3) == 1);    // at least one device
  CHECK(of("100%").size(7) == 7);
  CHECK(Batch{}.size(7) == 0);
  CHECK(of("10%").text() == "10%");
  CHECK(of("12").text() == "12");
  CHECK(Batch{}.text().empty());
  for (const char* bad : {"0", "0%", "101%", "-2", "x", "5%%", "", "%", "3 "}) {
    const auto b = parse_batch(bad);
    REQUIRE_FALSE(b);
    CHECK(b.error().find(std::string("'") + bad + "'") != std::string::npos);
  }
  CHECK(parse_wave_unit("rail").value() == WaveUnit::rail);
  CHECK(parse_wave_unit("pod").error() == "--by takes link, rail or group, not 'pod'");
}

TEST_CASE("waves: without --batch, the canary and the rest in plan order, as before") {
  Rails r;
  CHECK(r.waves(0, {}, WaveUnit::link) == Lines{"apply: a0 a1 b0 h1 h2 spine"});
  CHECK(r.waves(2, {}, WaveUnit::link) == Lines{"canary: a0 a1", "rest: b0 h1 h2 spine"});
  CHECK(r.waves(6, {}, WaveUnit::link) == Lines{"apply: a0 a1 b0 h1 h2 spine"});  // a canary of all: one step
  CHECK(r.waves(0, {}, WaveUnit::link, {4}) == Lines{"apply: h2"});
  CHECK(plan_waves(r.desired, {}, r.names, 0, of("2"), WaveUnit::link).empty());
}

TEST_CASE("waves: by link, each wave walks the links from the first device, so both ends change together") {
  Rails r;
  // From a0: its far ends h1 and spine, then h1's b0, the spine's a1 (b0 seen), a1's h2.
  CHECK(r.waves(0, of("2"), WaveUnit::link) == Lines{"wave 1/3: a0 h1", "wave 2/3: spine b0", "wave 3/3: a1 h2"});
  // Only the devices that change are walked: h2's leaf a1 does not change, so h2 is reached last.
  CHECK(r.waves(0, of("2"), WaveUnit::link, {0, 3, 4}) == Lines{"wave 1/2: a0 h1", "wave 2/2: h2"});
  CHECK(r.waves(1, of("50%"), WaveUnit::link) == Lines{"canary: a0", "wave 1/2: h1 spine b0", "wave 2/2: a1 h2"});
}

TEST_CASE("waves: by rail, a rail is never split; a device with no rail goes with its first group") {
  Rails r;
  CHECK(r.waves(0, of("2"), WaveUnit::rail) ==
        Lines{"wave 1/4: a0 a1", "wave 2/4: b0", "wave 3/4: h1 h2", "wave 4/4: spine"});
  CHECK(r.waves(0, of("3"), WaveUnit::rail) == Lines{"wave 1/2: a0 a1 b0", "wave 2/2: h1 h2 spine"});
  // A unit larger than the batch is one wave of its own, not split.
  CHECK(r.waves(0, of("1"), WaveUnit::rail).front() == "wave 1/4: a0 a1");
  // The canary takes its devices from the first units; what is left of a unit stays together.
  CHECK(r.waves(1, of("2"), WaveUnit::rail) ==
        Lines{"canary: a0", "wave 1/3: a1 b0", "wave 2/3: h1 h2", "wave 3/3: spine"});
  // Without --batch, --by only orders: one step.
  CHECK(r.waves(0, {}, WaveUnit::rail) == Lines{"apply: a0 a1 b0 h1 h2 spine"});
}

TEST_CASE("waves: by group, a device's first group is its unit; a device in none is one of its own") {
  Rails r;
  CHECK(r.waves(0, of("1"), WaveUnit::group) ==
        Lines{"wave 1/5: a0", "wave 2/5: a1", "wave 3/5: b0", "wave 4/5: h1 h2", "wave 5/5: spine"});
}
