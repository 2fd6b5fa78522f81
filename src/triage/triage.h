// `fabricctl triage`: the network engineer's walk through a sick RoCE fabric, automated. verify's findings
// (is every device as intended, do both ends of every link agree?) and health's (what do the counters say,
// as rates?) are sorted into the layers an engineer checks in order: physical (links down, flapping,
// erroring, miswired), configuration (the intent on both ends), congestion (storms, pauses, lossless
// drops, the ECN/CNP loop), RDMA (GIDs, ToS, NCCL's class, retransmissions). Findings are grouped by the
// place they name (a port, or a link and its ends): each place is a suspect, ranked by the lowest layer
// its evidence reaches, then by severity; a finding that is a consequence of another is evidence under
// its cause, never a suspect of its own. Each layer also says what it ruled out: how many results
// passed there. Pure: it judges two reports, and reads no device.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "verify/verify_report.h"

namespace fabricctl {

/// The layers in the order an engineer rules them out.
enum class Layer { physical, config, congestion, rdma };
std::string_view to_string(Layer l);

/// The layer of a check ID (verify's or health's): a table of prefixes, the first that matches.
Layer layer_of(std::string_view check);

struct Suspect {
  std::string place;              // "host1:ens1f0np0" or "host1:ens1f0np0~leaf1:Ethernet0" (a link)
  Layer layer = Layer::physical;  // the lowest layer among its evidence
  Severity severity = Severity::info;
  std::vector<Result> evidence;  // its findings, lowest layer first; consequences follow their cause
};

struct LayerSummary {
  Layer layer = Layer::physical;
  size_t checks = 0;    // checks of this layer that ran
  size_t passed = 0;    // results that passed: what this layer ruled out
  size_t findings = 0;  // failures (not consequences) in this layer
};

struct TriageReport {
  std::vector<Suspect> suspects;                  // most likely first
  std::vector<LayerSummary> layers;               // every layer, in order
  std::map<std::string, std::string> unreadable;  // device -> why (either report's)
  size_t devices = 0;                             // devices judged
};

/// Sorts `config` (verify over the second reading) and `health` (the rates between the readings) into
/// suspects. A place's evidence holds every finding naming it, from both reports.
TriageReport triage(const VerifyReport& config, const VerifyReport& health);

}  // namespace fabricctl
