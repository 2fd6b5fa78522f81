#include "acceptance/acceptance.h"

#include <algorithm>

namespace fabricctl::acceptance {
PortRef find_port(const FabricDesired& fabric, std::string_view endpoint) {
  const size_t colon = endpoint.find(':');
  if (colon == std::string_view::npos) return {};
  for (const DeviceDesired& d : fabric.devices)
    if (d.name == endpoint.substr(0, colon))
      for (const PortDesired& p : d.ports)
        if (p.name == endpoint.substr(colon + 1)) return {&d, &p};
  return {};
}

std::vector<Pair> pairs_of(const FabricDesired& fabric, const std::set<std::string>& scope) {
  std::map<int, std::vector<std::string>> rails;
  for (const DeviceDesired& d : fabric.devices) {
    if (d.role != Role::host || (!scope.empty() && scope.count(d.name) == 0)) continue;
    for (const PortDesired& p : d.ports)
      if (p.rail) rails[*p.rail].push_back(d.name + ":" + p.name);
  }
  std::vector<Pair> out;
  for (const auto& [rail, ports] : rails) {
    if (ports.size() < 2) continue;  // a rail of one port has nothing to measure against
    for (size_t i = 0; i + 1 < ports.size(); i += 2) out.push_back({rail, ports[i], ports[i + 1]});
    if (ports.size() % 2 == 1) out.push_back({rail, ports.back(), ports.front()});
  }
  return out;
}

AcceptanceReport judge(const FabricDesired& fabric, const std::vector<Pair>& pairs,
                       const std::map<std::string, std::string>& reports,
                       const std::map<std::string, std::string>& collectives,
                       const std::map<std::string, std::string>& failed) {
  AcceptanceReport r;
  for (const Pair& p : pairs) {
    PairResult x{p, std::nullopt, "", std::nullopt};
    const PortDesired* a = find_port(fabric, p.client).port;
    const PortDesired* b = find_port(fabric, p.server).port;
    if (a && b && a->speed_mbps && b->speed_mbps) x.line_gbps = std::min(*a->speed_mbps, *b->speed_mbps) / 1000.0;
    else x.error = "no speed in the inventory for both ports: no line rate to judge against";
    if (const auto text = reports.find(p.name()); text == reports.end()) {
      const auto why = failed.find(p.name());
      x.error = why == failed.end() ? "not measured" : why->second;
    } else if (auto run = parse_perftest(text->second)) {
      x.run = std::move(*run);  // a line rate's absence stays the error
    } else {
      x.error = "its ib_write_bw report: " + run.error();
    }
    r.pairs.push_back(std::move(x));
  }
  for (const auto& [name, text] : collectives) {
    CollectiveResult x{name, std::nullopt, ""};
    if (auto run = parse_nccl_tests(text)) x.run = std::move(*run);
    else x.error = run.error();
    r.collectives.push_back(std::move(x));
  }
  return r;
}

int exit_code(const AcceptanceReport& r) {
  int code = 0;
  for (const PairResult& p : r.pairs) code = std::max(code, !p.judged() ? 3 : p.passed() ? 0 : 1);
  for (const CollectiveResult& c : r.collectives) code = std::max(code, !c.judged() ? 3 : c.passed() ? 0 : 1);
  return code;
}

}  // namespace fabricctl::acceptance
