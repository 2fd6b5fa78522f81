// Test support for the check families: a small lab fabric whose observed state starts as a perfect copy
// of its intent, and helpers to run one check, one family or the whole catalog and to pick results.
//
//   host1  (Linux)        ens1f0np0 (rail 0) <-> leaf1:Ethernet0
//                         ens2f0np0 (rail 1) <-> leaf2:Ethernet1/1
//   leaf1  (SONiC, rail 0) Ethernet48         <-> spine1:swp1
//                          Ethernet4 uncabled
//   leaf2  (EOS, rail 1)   Ethernet2/1 uncabled
//   spine1 (NVUE)
//
// Links, in CheckContext order (host end first, then natural device order):
//   host1:ens1f0np0~leaf1:Ethernet0, host1:ens2f0np0~leaf2:Ethernet1/1, leaf1:Ethernet48~spine1:swp1.
// Every platform has at least one port, so each check's fix can be read in each platform's words.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "fixtures.h"
#include "platform/platform.h"
#include "state/observed.h"
#include "verify/check.h"

namespace fabricctl::test {

struct Lab {
  FabricDesired desired;
  FabricObserved observed;

  Lab() {
    DeviceDesired host = example_host();
    // Two DCQCN parameters set by the profile (the others are left to the firmware), so that
    // port.dcqcn.params.drift has something to judge.
    host.qos.dcqcn.rp = {{"rpg_ai_rate", 10}, {"rpg_hai_rate", 100}};
    host.qos.dcqcn.np_min_time_between_cnps = 0;
    cable(host, 0, "leaf1", "Ethernet0");
    cable(host, 1, "leaf2", "Ethernet1/1");

    DeviceDesired leaf1 = example_switch(Platform::sonic, {"Ethernet0", "Ethernet4", "Ethernet48"});
    leaf1.rail = 0;
    cable(leaf1, 0, "host1", "ens1f0np0");
    cable(leaf1, 1, "", "");
    cable(leaf1, 2, "spine1", "swp1");

    DeviceDesired leaf2 = example_switch(Platform::eos, {"Ethernet1/1", "Ethernet2/1"});
    leaf2.name = "leaf2";
    leaf2.rail = 1;
    cable(leaf2, 0, "host1", "ens2f0np0");
    cable(leaf2, 1, "", "");

    DeviceDesired spine = example_switch(Platform::nvue, {"swp1"});
    spine.name = "spine1";
    cable(spine, 0, "leaf1", "Ethernet48");

    desired.devices = {host, leaf1, leaf2, spine};  // sorted by name, as FabricDesired is
    refresh_observed();
  }

  static void cable(DeviceDesired& d, size_t port, const std::string& peer, const std::string& peer_port) {
    d.ports.at(port).peer_device = peer;
    d.ports.at(port).peer_port = peer_port;
  }

  /// Observed state = intent, for every device (after the intent changed).
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

  PortDesired& intent(std::string_view dev, std::string_view name) {
    DeviceDesired& d = device(dev);
    auto it = std::find_if(d.ports.begin(), d.ports.end(), [&](const PortDesired& p) { return p.name == name; });
    REQUIRE(it != d.ports.end());
    return *it;
  }

  PortObserved& port(std::string_view dev, std::string_view name) {
    auto d = observed.devices.find(dev);
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
    // Fixes phrased as fabricctl phrases them (ops/verify.h): the tests read them.
    const CheckContext ctx(desired, observed, tolerance, nullptr, fix_text);
    ResultSink sink(*check);
    check->run(ctx, sink);
    std::vector<Result> out = sink.all();
    for (const Result& r : out) CHECK(r.check == id);
    return out;
  }

  /// Every result of every check of the catalog, in catalog order: what `fabricctl verify` judges;
  /// `scope`: the devices of --limit (nullptr: all).
  [[nodiscard]] std::vector<Result> run_all(const std::set<std::string>* scope = nullptr) const {
    const CheckContext ctx(desired, observed, {}, scope, fix_text);
    std::vector<Result> out;
    for (const Check& c : checks()) {
      ResultSink sink(c);
      c.run(ctx, sink);
      for (Result& r : sink.all()) out.push_back(std::move(r));
    }
    return out;
  }

  /// The one result of check `id` whose object starts at device:port (for a link, its first end).
  [[nodiscard]] Result result(const std::vector<Check>& family, std::string_view id, std::string_view dev,
                              std::string_view port, Tolerance tolerance = {}) const {
    const std::vector<Result> all = run(family, id, tolerance);
    std::vector<Result> mine;
    for (const Result& r : all)
      if (r.a == Endpoint{std::string(dev), std::string(port)}) mine.push_back(r);
    REQUIRE_MESSAGE(mine.size() == 1, id << " results for " << dev << ":" << port << ": " << mine.size());
    return mine.front();
  }

  /// The link a desired port is cabled into, as results name it; nothing for an uncabled port.
  [[nodiscard]] std::optional<LinkRef> link_of(std::string_view dev, std::string_view port) const {
    const CheckContext ctx(desired, observed);
    for (const LinkEnds& l : ctx.links)
      if ((l.a_device->name == dev && l.a->name == port) || (l.b_device->name == dev && l.b->name == port))
        return link_ref(l);
    return std::nullopt;
  }
};

/// A link as results carry it, host end (or first switch) first.
inline LinkRef link_between(Endpoint a, Endpoint b) { return LinkRef{std::move(a), std::move(b)}; }

/// The lab's links as results carry them: host1's first and second NIC to leaf1 and leaf2, and leaf1's
/// uplink to spine1.
inline const LinkRef kHost1Link = link_between({"host1", "ens1f0np0"}, {"leaf1", "Ethernet0"});
inline const LinkRef kHost2Link = link_between({"host1", "ens2f0np0"}, {"leaf2", "Ethernet1/1"});
inline const LinkRef kSpineLink = link_between({"leaf1", "Ethernet48"}, {"spine1", "swp1"});

inline bool same_link(const std::optional<LinkRef>& got, const LinkRef& want) {
  return got && got->a == want.a && got->b == want.b;
}

/// "status object" of each result, in order: a compact view for asserting scope and order.
inline std::vector<std::string> outline(const std::vector<Result>& results) {
  std::vector<std::string> out;
  for (const Result& r : results) out.push_back(std::string(to_string(r.status)) + " " + r.object());
  return out;
}

/// Number of results with the given status.
inline size_t count(const std::vector<Result>& results, Status s) {
  return static_cast<size_t>(
      std::count_if(results.begin(), results.end(), [&](const Result& r) { return r.status == s; }));
}

/// The failures as "check object", sorted: the faults a run reports.
inline std::set<std::string> failures(const std::vector<Result>& results) {
  std::set<std::string> out;
  for (const Result& r : results)
    if (r.status == Status::fail) out.insert(r.check + " " + r.object());
  return out;
}

/// The consequences as "check object <- cause", sorted.
inline std::set<std::string> consequences(const std::vector<Result>& results) {
  std::set<std::string> out;
  for (const Result& r : results)
    if (r.status == Status::consequence) out.insert(r.check + " " + r.object() + " <- " + r.cause);
  return out;
}

/// Every consequence names a failure of the same run as its cause ("<check> <object>"), so that the fault
/// it hangs under is reported and counted.
inline void check_causes_are_failures(const std::vector<Result>& results) {
  const std::set<std::string> faults = failures(results);
  for (const Result& r : results) {
    if (r.status != Status::consequence) continue;
    CAPTURE(r.check + " " + r.object());
    CHECK_MESSAGE(faults.count(r.cause) == 1, "cause not reported as a failure: " << r.cause);
  }
}

/// Every check of `family` reports each of its objects as missing, with the same why, when the
/// observed device or port is absent or unreadable. For port checks.
inline void check_absent_state(const std::vector<Check>& family) {
  for (const Check& c : family) {
    CAPTURE(c.id);
    Lab f;
    const std::vector<Result> perfect = f.run(family, c.id);
    REQUIRE_FALSE(perfect.empty());

    f.observed.devices.clear();
    const std::vector<Result> none = f.run(family, c.id);
    REQUIRE(none.size() == perfect.size());
    for (size_t i = 0; i < none.size(); ++i) {
      const Result& r = none[i];
      CAPTURE(r.object());
      CHECK(r.a == perfect[i].a);
      CHECK(r.status == Status::missing);
      CHECK(r.severity == c.severity);
      CHECK(r.observed == "not collected");
      CHECK(r.message == r.a.str() + ": no observed state for " + r.a.device);
      CHECK(r.hint.empty());
      CHECK(r.cause.empty());
      CHECK_FALSE(r.expected.empty());
      // A cabled port's result names its link, host end first, even when nothing could be compared.
      const std::optional<LinkRef> l = f.link_of(r.a.device, r.a.port);
      CHECK(r.link.has_value() == l.has_value());
      if (l) CHECK(same_link(r.link, *l));
    }

    for (const DeviceDesired& d : f.desired.devices) f.observed.unreadable[d.name] = "ssh: connection refused";
    for (const Result& r : f.run(family, c.id)) {
      CAPTURE(r.object());
      CHECK(r.status == Status::missing);
      CHECK(r.observed == "unreadable");
      CHECK(r.message == r.a.str() + ": device state unreadable: ssh: connection refused");
      CHECK(r.hint.empty());
    }

    Lab g;
    for (auto& [name, dev] : g.observed.devices) dev.ports.clear();
    for (const Result& r : g.run(family, c.id)) {
      CAPTURE(r.object());
      CHECK(r.status == Status::missing);
      CHECK(r.observed == "not collected");
      CHECK(r.message == r.a.str() + ": port not in the observed state of " + r.a.device);
    }
  }
}

/// A pass carries nothing but its check, object and severity: no text, no hint, no cause, no link.
inline void check_bare_pass(const Result& r, Severity severity) {
  CAPTURE(r.check);
  CAPTURE(r.object());
  CHECK(r.status == Status::pass);
  CHECK(r.severity == severity);
  CHECK(r.expected.empty());
  CHECK(r.observed.empty());
  CHECK(r.message.empty());
  CHECK(r.hint.empty());
  CHECK(r.cause.empty());
  CHECK_FALSE(r.link);
}

/// Every check of `family` passes on the perfect state, also when the collector lists ports in
/// another order than the intent.
inline void check_perfect_state(const std::vector<Check>& family) {
  for (const Check& c : family) {
    CAPTURE(c.id);
    Lab f;
    const std::vector<Result> results = f.run(family, c.id);
    CHECK_FALSE(results.empty());
    for (const Result& r : results) check_bare_pass(r, c.severity);
    for (auto& [name, dev] : f.observed.devices) std::reverse(dev.ports.begin(), dev.ports.end());
    CHECK(count(f.run(family, c.id), Status::pass) == results.size());
  }
}

}  // namespace fabricctl::test
