// nccl.*: NCCL's defaults on a host. NCCL makes its queue pairs without rdma_cm, so its RoCE traffic
// gets its class from NCCL's own configuration (or the driver's per-port override): a host can pass
// every port check and still send NCCL's traffic in a lossy class. One result per host: the fault is
// one configuration file, however many NICs it affects.
#include <string>
#include <vector>

#include "util/text.h"
#include "verify/checks/checks.h"
#include "verify/checks/port_compare.h"

namespace fabricctl {
namespace {

using port_compare::cat;

constexpr std::string_view kRoceV2 = "RoCE v2";

/// A host with RDMA ports: NCCL's defaults matter there.
bool has_rdma(const DeviceDesired& d) {
  if (d.role != Role::host) return false;
  for (const PortDesired& p : d.ports)
    if (!p.rdma_device.empty()) return true;
  return false;
}

std::string rdma_name(const PortDesired& p) { return cat(p.rdma_device, "/", std::to_string(p.rdma_port)); }

Result base(const Check& c, const DeviceDesired& d, Status status, std::string expected, std::string observed,
            const std::string& message) {
  Result r;
  r.check = std::string(c.id);
  r.status = status;
  r.severity = c.severity;
  r.a = {d.name, ""};
  r.expected = std::move(expected);
  r.observed = std::move(observed);
  r.message = cat(d.name, ": ", message);
  return r;
}

/// The missing result of a host whose NCCL configuration was not read, saying why; nullopt when it was.
std::optional<Result> nccl_missing(const Check& c, const CheckContext& ctx, const DeviceDesired& d,
                                   std::string expected) {
  const DeviceObserved* od = ctx.observed_device(d);
  if (od && od->nccl) return std::nullopt;
  std::string why = "NCCL configuration not collected";
  std::string seen = "not collected";
  if (!od) {
    const auto it = ctx.observed.unreadable.find(d.name);
    seen = it == ctx.observed.unreadable.end() ? "not collected" : "unreadable";
    why = it == ctx.observed.unreadable.end() ? cat("no observed state for ", d.name)
                                              : cat("device state unreadable: ", it->second);
  }
  return base(c, d, Status::missing, std::move(expected), std::move(seen), why);
}

// ---- nccl.tc.lossy

void run_tc(const Check& c, const CheckContext& ctx, ResultSink& out) {
  for (const DeviceDesired& d : ctx.desired.devices) {
    if (!ctx.in_scope(d) || !has_rdma(d)) continue;
    const QosIntent& q = d.qos;
    const int want = q.roce_tos();
    std::string expected = tos_text(q, want);
    if (auto m = nccl_missing(c, ctx, d, expected)) {
      out.add(std::move(*m));
      continue;
    }
    const NcclObserved& n = *ctx.observed_device(d)->nccl;
    const int tos = n.traffic_class.value_or(0);  // NCCL's default: traffic class 0
    if (tos == want) {
      out.pass(d);
      continue;
    }
    const int prio = q.dscp_to_priority[static_cast<size_t>(tos >> 2)];
    const bool lossy = !q.lossless[static_cast<size_t>(prio)];
    // The driver's override gives every queue pair of a port its ToS, NCCL's too: where it is the
    // intended one on every RoCE port, NCCL's own setting does not reach the wire.
    bool masked = true;
    for (const PortDesired& p : d.ports) {
      if (p.rdma_device.empty()) continue;
      const PortObserved* op = ctx.observed_port(d, p);
      masked = masked && op && op->rdma && op->rdma->tos_override == want;
    }
    std::string msg = cat("NCCL sends RoCE with ToS ", tos_text(q, tos),
                          n.traffic_class ? std::string() : std::string(": its traffic class is not set"));
    if (masked) msg += "; the traffic class override on every RoCE port hides it for now";
    Result r = base(c, d, Status::fail, std::move(expected), std::to_string(tos), msg);
    r.severity = lossy && !masked ? Severity::error : Severity::warning;
    r.hint = ctx.fix(Fix{Setting::nccl_tc, &d, nullptr, {}});
    out.add(std::move(r));
  }
}

// ---- nccl.gid.type

void run_gid(const Check& c, const CheckContext& ctx, ResultSink& out) {
  for (const DeviceDesired& d : ctx.desired.devices) {
    if (!ctx.in_scope(d) || !has_rdma(d)) continue;
    const int want = d.qos.nccl_gid_index;
    std::string expected =
        want == kNcclGidAuto ? std::string("a RoCE v2 GID") : cat("RoCE v2 GID ", std::to_string(want));
    if (auto m = nccl_missing(c, ctx, d, expected)) {
      out.add(std::move(*m));
      continue;
    }
    const NcclObserved& n = *ctx.observed_device(d)->nccl;
    if (!n.gid_index) {
      if (want == kNcclGidAuto) {
        out.pass(d);
        continue;
      }
      Result r = base(c, d, Status::fail, std::move(expected), "not set",
                      "NCCL's GID index is not set: NCCL 2.21 and later pick a RoCE v2 GID, older NCCL uses GID 0");
      r.severity = Severity::warning;
      r.hint = ctx.fix(Fix{Setting::nccl_gid, &d, nullptr, {}});
      out.add(std::move(r));
      continue;
    }
    const int idx = *n.gid_index;
    std::vector<std::string> wrong;
    std::vector<std::string> unread;
    for (const PortDesired& p : d.ports) {
      if (p.rdma_device.empty()) continue;
      const PortObserved* op = ctx.observed_port(d, p);
      if (!op || !op->rdma) {
        unread.push_back(rdma_name(p));
        continue;
      }
      const GidObserved* g = nullptr;
      for (const GidObserved& x : op->rdma->gids)
        if (x.index == idx) g = &x;
      if (!g) wrong.push_back(cat(rdma_name(p), " has no GID ", std::to_string(idx)));
      else if (g->type != kRoceV2) wrong.push_back(cat(rdma_name(p), " GID ", std::to_string(idx), " is ", g->type));
    }
    const std::string seen = cat("GID ", std::to_string(idx));
    if (!wrong.empty()) {
      Result r = base(c, d, Status::fail, std::move(expected), seen,
                      cat("NCCL uses GID index ", std::to_string(idx), ": ", join(wrong, ", "),
                          "; RoCE v1 is not routed and lacks ECN, and a missing GID fails NCCL's connections"));
      r.hint = ctx.fix(Fix{Setting::nccl_gid, &d, nullptr, {}});
      out.add(std::move(r));
    } else if (!unread.empty()) {
      out.add(base(c, d, Status::missing, std::move(expected), "not collected",
                   cat("GID tables not collected: ", join(unread, ", "))));
    } else {
      out.pass(d);
    }
  }
}

const Check& tc_check();
const Check& gid_check();

void run_tc_entry(const CheckContext& ctx, ResultSink& out) { run_tc(tc_check(), ctx, out); }
void run_gid_entry(const CheckContext& ctx, ResultSink& out) { run_gid(gid_check(), ctx, out); }

const Check& tc_check() {
  static const Check c{"nccl.tc.lossy", Severity::error,
                       "NCCL's defaults on a host send RoCE with the intended ToS, in the lossless class",
                       &run_tc_entry};
  return c;
}
const Check& gid_check() {
  static const Check c{"nccl.gid.type", Severity::error, "the GID index NCCL's defaults select is a RoCE v2 GID",
                       &run_gid_entry};
  return c;
}

}  // namespace

std::vector<Check> nccl_checks() { return {tc_check(), gid_check()}; }

}  // namespace fabricctl
