#include "triage/triage.h"

#include <algorithm>
#include <array>
#include <map>

namespace fabricctl {

namespace {

struct LayerRule {
  std::string_view prefix;  // of a check ID
  Layer layer;
};

// The first rule whose prefix starts the check ID decides. A link that is down or at the wrong speed,
// or cabled to the wrong port, is physical whatever its configuration; a port's speed is too.
constexpr std::array kRules{
    LayerRule{"health.link.", Layer::physical},
    LayerRule{"link.oper.", Layer::physical},
    LayerRule{"link.speed.", Layer::physical},
    LayerRule{"port.speed.", Layer::physical},
    LayerRule{"cabling.", Layer::physical},
    LayerRule{"health.pfc.", Layer::congestion},
    LayerRule{"health.lossless.", Layer::congestion},
    LayerRule{"health.dcqcn.", Layer::congestion},
    LayerRule{"health.baseline.", Layer::congestion},  // mostly pauses and marks; a physical cause is named itself
    LayerRule{"health.rdma.", Layer::rdma},
    LayerRule{"rdma.", Layer::rdma},
    LayerRule{"nccl.", Layer::rdma},
    LayerRule{"link.roce.", Layer::rdma},
    LayerRule{"link.cnp.", Layer::rdma},
    LayerRule{"", Layer::config},
};

constexpr std::array kLayers{Layer::physical, Layer::config, Layer::congestion, Layer::rdma};

/// The place a finding names: its link when it has one (both ends of a cable are one suspect), else its
/// object.
std::string place_of(const Result& r) {
  if (r.link) return r.link->a.str() + "~" + r.link->b.str();  // as Result::object() names a link
  return r.object();
}

}  // namespace

std::string_view to_string(Layer l) {
  switch (l) {
    case Layer::physical: return "physical";
    case Layer::config: return "config";
    case Layer::congestion: return "congestion";
    case Layer::rdma: return "rdma";
  }
  return "?";
}

Layer layer_of(std::string_view check) {
  for (const LayerRule& r : kRules)
    if (check.starts_with(r.prefix)) return r.layer;
  return Layer::config;
}

TriageReport triage(const VerifyReport& config, const VerifyReport& health) {
  TriageReport out;
  for (const Layer l : kLayers) out.layers.push_back({l});
  std::map<std::string, Suspect> by_place;
  std::map<std::string, std::string> place_of_finding;  // "<check> <object>" of a failure -> its place
  for (const VerifyReport* report : {&config, &health}) {
    for (size_t i = 0; i < report->checks_run.size(); ++i) {
      LayerSummary& s = out.layers[static_cast<size_t>(layer_of(report->checks_run[i]))];
      ++s.checks;
      if (i < report->check_tallies.size()) s.passed += report->check_tallies[i].passed;
    }
    for (const auto& [device, why] : report->unreadable) out.unreadable.emplace(device, why);
    out.devices = std::max(out.devices, report->devices_checked);
    for (const Result& r : report->results)
      if (r.status == Status::fail) place_of_finding[r.check + " " + r.object()] = place_of(r);
  }
  for (const VerifyReport* report : {&config, &health}) {
    for (const Result& r : report->results) {
      if (r.status != Status::fail && r.status != Status::consequence) continue;
      // A consequence is evidence under its cause's place; one whose cause is not in either report
      // (filtered out, or a fault this run did not read) stands at its own place.
      std::string place = place_of(r);
      if (r.status == Status::consequence)
        if (const auto it = place_of_finding.find(r.cause); it != place_of_finding.end()) place = it->second;
      Suspect& s = by_place[place];
      const Layer l = layer_of(r.check);
      if (s.evidence.empty()) {
        s.place = place;
        s.layer = l;
      }
      if (r.status == Status::fail) {
        ++out.layers[static_cast<size_t>(l)].findings;
        s.layer = std::min(s.layer, l);
        s.severity = std::max(s.severity, r.severity);
      }
      s.evidence.push_back(r);
    }
  }
  for (auto& [place, s] : by_place) {
    // Lowest layer first, a failure before the consequences, and otherwise as the checks reported.
    std::stable_sort(s.evidence.begin(), s.evidence.end(), [](const Result& a, const Result& b) {
      const auto key = [](const Result& r) { return std::pair(layer_of(r.check), r.status == Status::consequence); };
      return key(a) < key(b);
    });
    out.suspects.push_back(std::move(s));
  }
  // Most likely first: the lowest layer (a physical fault explains what lies above it), then the worst
  // severity, then the most evidence, then by name for a stable order.
  std::stable_sort(out.suspects.begin(), out.suspects.end(), [](const Suspect& a, const Suspect& b) {
    if (a.layer != b.layer) return a.layer < b.layer;
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.evidence.size() != b.evidence.size()) return a.evidence.size() > b.evidence.size();
    return a.place < b.place;
  });
  return out;
}

}  // namespace fabricctl
