// Test support for port checks: a tiny fabric whose observed state starts as a perfect copy of its
// intent, and helpers to run one check and pick one result.
//   host1 (Linux)  ens1f0np0 <-> leaf1 Ethernet0
//                  ens2f0np0 <-> leaf2 Ethernet0 (leaf2 is outside the fabric)
//   leaf1 (SONiC)  Ethernet4 uncabled
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "fixtures.h"
#include "state/observed.h"
#include "verify/check.h"

namespace fabricctl::test {

struct TinyFabric {
  FabricDesired desired;
  FabricObserved observed;

  TinyFabric() {
    DeviceDesired host = example_host();
    DeviceDesired leaf = example_switch(Platform::sonic, {"Ethernet0", "Ethernet4"});
    leaf.ports[0].peer_device = "host1";
    leaf.ports[0].peer_port = "ens1f0np0";
    leaf.ports[1].peer_device.clear();
    leaf.ports[1].peer_port.clear();
    desired.devices = {host, leaf};
    refresh_observed();
  }

  /// Observed state = intent, for every device.
  void refresh_observed() {
    observed.devices.clear();
    for (const DeviceDesired& d : desired.devices) observed.devices[d.name] = observed_from_desired(d);
  }

  DeviceDesired& device(std::string_view name) {
    auto it = std::find_if(desired.devices.begin(), desired.devices.end(),
                           [&](const DeviceDesired& d) { return d.name == name; });
    REQUIRE(it != desired.devices.end());
    return *it;
  }

  PortObserved& port(std::string_view dev, std::string_view name) {
    auto d = observed.devices.find(std::string(dev));
    REQUIRE(d != observed.devices.end());
    auto it = std::find_if(d->second.ports.begin(), d->second.ports.end(),
                           [&](const PortObserved& p) { return p.name == name; });
    REQUIRE(it != d->second.ports.end());
    return *it;
  }

  /// Every result of check `id` from `family`, with the given tolerances.
  [[nodiscard]] std::vector<Result> run(const std::vector<Check>& family, std::string_view id,
                                        Tolerance tolerance = {}) const {
    auto check = std::find_if(family.begin(), family.end(), [&](const Check& c) { return c.id == id; });
    REQUIRE_MESSAGE(check != family.end(), "no check " << id);
    const CheckContext ctx(desired, observed, tolerance);
    std::vector<Result> out;
    check->run(ctx, out);
    for (const Result& r : out) CHECK(r.check == id);
    return out;
  }

  /// The one result of check `id` about device:port.
  [[nodiscard]] Result result(const std::vector<Check>& family, std::string_view id, std::string_view dev,
                              std::string_view port, Tolerance tolerance = {}) const {
    const std::vector<Result> all = run(family, id, tolerance);
    std::vector<Result> mine;
    for (const Result& r : all)
      if (r.a == Endpoint{std::string(dev), std::string(port)}) mine.push_back(r);
    REQUIRE_MESSAGE(mine.size() == 1, id << " results for " << dev << ":" << port << ": " << mine.size());
    return mine.front();
  }
};

/// "status object" of each result, in order: a compact view for asserting scope and order.
inline std::vector<std::string> outline(const std::vector<Result>& results) {
  std::vector<std::string> out;
  for (const Result& r : results) out.push_back(std::string(to_string(r.status)) + " " + r.object());
  return out;
}

/// Number of results with the given status.
inline size_t count(const std::vector<Result>& results, Status s) {
  return static_cast<size_t>(std::count_if(results.begin(), results.end(), [&](const Result& r) { return r.status == s; }));
}

/// Every check of `family` reports each of its objects as missing, with the same why, when the
/// observed device or port is absent or unreadable.
inline void check_absent_state(const std::vector<Check>& family) {
  for (const Check& c : family) {
    CAPTURE(c.id);
    TinyFabric f;
    const std::vector<Result> perfect = f.run(family, c.id);
    REQUIRE_FALSE(perfect.empty());

    f.observed.devices.clear();
    std::vector<Result> none = f.run(family, c.id);
    REQUIRE(none.size() == perfect.size());
    for (const Result& r : none) {
      CHECK(r.status == Status::missing);
      CHECK(r.observed == "not collected");
      CHECK(r.message == r.a.str() + ": no observed state for " + r.a.device);
      CHECK(r.hint.empty());
      CHECK_FALSE(r.expected.empty());
    }

    f.observed.unreadable["leaf1"] = "ssh: connection refused";
    f.observed.unreadable["host1"] = "ssh: connection refused";
    for (const Result& r : f.run(family, c.id)) {
      CHECK(r.status == Status::missing);
      CHECK(r.observed == "unreadable");
      CHECK(r.message == r.a.str() + ": device state unreadable: ssh: connection refused");
    }

    TinyFabric g;
    for (auto& [name, dev] : g.observed.devices) dev.ports.clear();
    for (const Result& r : g.run(family, c.id)) {
      CHECK(r.status == Status::missing);
      CHECK(r.message == r.a.str() + ": port not in the observed state of " + r.a.device);
    }
  }
}

/// Every check of `family` passes on the perfect state, also when the collector lists ports in
/// another order than the intent.
inline void check_perfect_state(const std::vector<Check>& family) {
  for (const Check& c : family) {
    CAPTURE(c.id);
    TinyFabric f;
    std::vector<Result> results = f.run(family, c.id);
    CHECK_FALSE(results.empty());
    for (const Result& r : results) {
      CAPTURE(r.message);
      CHECK(r.status == Status::pass);
      CHECK(r.severity == c.severity);
      CHECK(r.hint.empty());
      CHECK_FALSE(r.expected.empty());
      CHECK_FALSE(r.observed.empty());
      CHECK(r.message.rfind(r.a.str() + ": ", 0) == 0);
    }
    for (auto& [name, dev] : f.observed.devices) std::reverse(dev.ports.begin(), dev.ports.end());
    CHECK(count(f.run(family, c.id), Status::pass) == results.size());
  }
}

}  // namespace fabricctl::test
