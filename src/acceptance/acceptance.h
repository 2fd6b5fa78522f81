// `fabricctl acceptance`: the fabric's bandwidth, measured as a bring-up is accepted. Per rail, host ports
// are paired (the first with the second, the third with the fourth, ...; an odd one out with the rail's
// first) and each pair's ib_write_bw (perftest) report is judged against the slower port's line rate:
// 90% of it is the bar, as NVIDIA's and the perftest users' acceptance runs take it for RoCE writes of
// large messages. nccl-tests reports (all_reduce_perf and its siblings) are judged too: a run with wrong
// values fails; their bus bandwidth is recorded for the baseline. Pure: the reports come in as text.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "acceptance/nccl_tests.h"
#include "acceptance/perftest.h"
#include "state/desired.h"

namespace fabricctl::acceptance {

/// The share of the line rate a pair must reach.
constexpr double kBar = 0.9;

/// Two host ports of one rail, `client` writing to `server` ("host:port" each).
struct Pair {
  int rail = 0;
  std::string client, server;
  [[nodiscard]] std::string name() const { return client + "~" + server; }  // the raw file's name
};

/// The device and port an endpoint ("host:port") names in `fabric`; nulls when it names none.
struct PortRef {
  const DeviceDesired* device = nullptr;
  const PortDesired* port = nullptr;
};
PortRef find_port(const FabricDesired& fabric, std::string_view endpoint);

/// The pairs of every rail, rail by rail, in the inventory's order of hosts and ports. Ports without a
/// rail, or on hosts `in_scope` rejects, take no part.
std::vector<Pair> pairs_of(const FabricDesired& fabric, const std::set<std::string>& scope = {});

/// One pair's judgement: its run (or why it has none) against the slower port's line rate.
struct PairResult {
  Pair pair;
  std::optional<BandwidthRun> run;
  std::string error;                // why there is no run: not measured, or the report did not read
  std::optional<double> line_gbps;  // the slower port's speed; nothing when the inventory has none
  [[nodiscard]] bool judged() const { return run && line_gbps; }
  [[nodiscard]] bool passed() const { return judged() && run->average_gbps >= kBar * *line_gbps; }
};

struct CollectiveResult {
  std::string name;  // the report's file name, without .txt
  std::optional<CollectiveRun> run;
  std::string error;
  [[nodiscard]] bool judged() const { return run.has_value(); }
  [[nodiscard]] bool passed() const { return run && run->out_of_bounds == 0; }
};

struct AcceptanceReport {
  std::vector<PairResult> pairs;
  std::vector<CollectiveResult> collectives;
};

/// Judges `reports` (the pair's name -> ib_write_bw's output as the client printed it) for every pair of
/// `pairs`; a pair without a report is "not measured", or what `failed` says of it (a run that failed).
/// `collectives`: a name -> nccl-tests output.
AcceptanceReport judge(const FabricDesired& fabric, const std::vector<Pair>& pairs,
                       const std::map<std::string, std::string>& reports,
                       const std::map<std::string, std::string>& collectives,
                       const std::map<std::string, std::string>& failed = {});

/// 0 every pair at the bar and every collective clean; 1 one below the bar (or a collective with wrong
/// values); 3 one not measured or unreadable. The worst wins.
int exit_code(const AcceptanceReport& r);

}  // namespace fabricctl::acceptance
