// The baseline file: rises between two readings per device and port (a counter that fell is left out;
// a device read once or out of order is not in it), written deterministically and read back exactly, and
// refused, named, when it is not a baseline.
#include "health/baseline.h"

#include <doctest/doctest.h>

#include "temp_dir.h"

using namespace fabricctl;

namespace {

FabricObserved reading(const char* at, uint64_t pauses, uint64_t errors) {
  FabricObserved o;
  DeviceObserved d;
  d.name = "leaf1";
  d.collected_at = at;
  PortObserved p;
  p.name = "Ethernet0";
  p.counters = {{"pfc_rx_pause_3", pauses}, {"fcs_errors", errors}};
  d.ports.push_back(p);
  o.devices.emplace("leaf1", d);
  return o;
}

}  // namespace

TEST_CASE("baseline: rises over the window, a fallen counter left out; JSON round trip") {
  Baseline b = baseline_between(reading("2026-12-05T12:00:00.000Z", 1000, 9),
                                reading("2026-12-05T12:01:00.500Z", 2210, 4));  // errors cleared
  b.saved_at = "2026-12-05T12:02:00Z";
  REQUIRE(b.devices.count("leaf1") == 1);
  CHECK(b.devices.at("leaf1").window_ms == 60500);
  CHECK(b.devices.at("leaf1").rises.at("Ethernet0") == std::map<std::string, uint64_t>{{"pfc_rx_pause_3", 1210}});
  CHECK(b.rate("leaf1", "Ethernet0", "pfc_rx_pause_3") == doctest::Approx(20.0));
  CHECK_FALSE(b.rate("leaf1", "Ethernet0", "fcs_errors"));
  CHECK_FALSE(b.rate("leaf2", "Ethernet0", "pfc_rx_pause_3"));
  CHECK(b.first_reading == "2026-12-05T12:00:00.000Z");

  const std::string text = baseline_json(b);
  CHECK(text.find("\"format\": \"fabricctl.baseline/v1\"") != std::string::npos);
  const auto back = parse_baseline(text);
  REQUIRE_MESSAGE(back, back.error());
  CHECK(baseline_json(*back) == text);

  // Out of order or read once: not in the baseline.
  CHECK(baseline_between(reading("2026-12-05T12:01:00Z", 1, 1), reading("2026-12-05T12:00:00Z", 2, 2)).devices.empty());
  CHECK(baseline_between(FabricObserved{}, reading("2026-12-05T12:00:00Z", 2, 2)).devices.empty());
}

TEST_CASE("baseline: what is not a baseline is refused by path, the value quoted") {
  const auto err = [](const std::string& text) {
    auto b = parse_baseline(text);
    return b ? std::string("accepted") : b.error();
  };
  CHECK(err(R"({"format": "fabricctl.snapshot/v1", "devices": {}})") ==
        "format: \"fabricctl.snapshot/v1\" is not \"fabricctl.baseline/v1\"");
  CHECK(err(R"({"format": "fabricctl.baseline/v1"})") == "missing required key \"devices\"");
  CHECK(err(R"({"format": "fabricctl.baseline/v1", "devices": {"leaf1": {"window_ms": 0, "rises": {}}}})") ==
        "devices.leaf1.window_ms: 0 is not a window");
  CHECK(err(R"({"format": "fabricctl.baseline/v1", "devices": {"leaf1": {"window_ms": 10, "rises":
             {"Ethernet0": {"PFC": 1}}}}})")
            .find("invalid counter name \"PFC\"") != std::string::npos);
  CHECK(err(R"({"format": "fabricctl.baseline/v1", "devices": {"leaf1": {"window_ms": 10, "rises":
             {"Ethernet0": {"pfc_rx_pause_3": 1.5}}}}})")
            .find("devices.leaf1.rises.Ethernet0.pfc_rx_pause_3") == 0);
  CHECK(err(R"({"format": "fabricctl.baseline/v1", "saved_at": "yesterday", "devices": {}})") ==
        "saved_at: \"yesterday\" is not an RFC 3339 UTC time");
  CHECK(err(R"({"format": "fabricctl.baseline/v1", "devices": {}, "extra": 1})").find("unknown key") !=
        std::string::npos);
}

TEST_CASE("baseline: saved as a directory and loaded back; a missing one is named") {
  test::TempDir dir;
  Baseline b = baseline_between(reading("2026-12-05T12:00:00Z", 0, 0), reading("2026-12-05T12:00:10Z", 200, 0));
  b.saved_at = "2026-12-05T12:00:11Z";
  const auto saved = save_baseline(b, reading("2026-12-05T12:00:10Z", 200, 0), dir.path / "base");
  REQUIRE_MESSAGE(saved, saved.error());
  CHECK(std::filesystem::exists(dir.path / "base/snapshots/leaf1.json"));
  const auto loaded = load_baseline(dir.path / "base");
  REQUIRE_MESSAGE(loaded, loaded.error());
  CHECK(loaded->rate("leaf1", "Ethernet0", "pfc_rx_pause_3") == doctest::Approx(20.0));
  CHECK(load_baseline(dir.path / "none").error() == "no baseline file " + (dir.path / "none/baseline.json").string());
}
