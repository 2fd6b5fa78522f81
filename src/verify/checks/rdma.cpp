// rdma.*: the RDMA side of each host NIC port (rdma-core's view): port state, RoCE v2 GID, active MTU.
// Each check is one PortRule (port_compare.h) over host ports.
#include <algorithm>

#include "util/text.h"
#include "verify/checks/checks.h"
#include "verify/checks/port_compare.h"

namespace fabricctl {
namespace {

using namespace port_compare;

/// "mlx5_0/1": the RDMA device and port the intent names for a netdev.
std::string rdma_port_name(const PortView& v) { return cat(v.port.rdma_device, "/", std::to_string(v.port.rdma_port)); }

// ---- rdma.port.down

std::string active_expected(const PortView&) { return "active"; }

Verdict active_judge(const PortView& v, const PortObserved& o) {
  if (!o.rdma) return not_collected("RDMA state");
  if (!o.rdma->active) return not_collected("RDMA port state");
  if (*o.rdma->active) return pass();
  const std::string detail = cat("RDMA port ", rdma_port_name(v), " is not active");
  // A netdev whose link is down takes its RDMA port down with it: that is the fault to report.
  if (o.oper_up == false) {
    const LinkEnds* l = v.ctx.link_of(v.port);
    if (l) {
      const LinkRef r = link_ref(*l);
      return consequence("down", detail, cat("link.oper.down ", r.a.str(), "~", r.b.str()));
    }
  }
  return fail("down", detail);
}

constexpr PortRule kActive{"rdma.port.down",   Severity::error, "the RDMA port of a host NIC is active",
                           Setting::rdma_port, host_port,       active_expected,
                           active_judge};

// ---- rdma.gid.missing

constexpr std::string_view kRoceV2 = "RoCE v2";

std::string gid_expected(const PortView&) { return "a RoCE v2 GID"; }

Verdict gid_judge(const PortView& v, const PortObserved& o) {
  if (!o.rdma) return not_collected("RDMA state");
  std::vector<std::string> types;
  for (const GidObserved& g : o.rdma->gids)
    if (std::find(types.begin(), types.end(), g.type) == types.end()) types.push_back(g.type);
  const std::string seen = types.empty() ? "no GIDs" : join(types, ", ");
  for (const GidObserved& g : o.rdma->gids)
    if (g.type == kRoceV2) return pass();
  return fail(seen, cat(rdma_port_name(v), " has no RoCE v2 GID (", seen, ")"));
}

constexpr PortRule kGid{"rdma.gid.missing", Severity::error, "the RDMA port has a RoCE v2 GID",
                        Setting::rdma_gid,  host_port,       gid_expected,
                        gid_judge};

// ---- rdma.mtu.mismatch

// RoCE v2 headers (IP, UDP, BTH, ICRC) a RoCE path MTU needs on top of it in the netdev MTU; the
// inverse of roce_mtu_for().
constexpr int kRoceOverhead = 96;

std::string mtu_expected(const PortView& v) { return std::to_string(v.port.rdma_mtu); }

Verdict mtu_judge(const PortView& v, const PortObserved& o) {
  if (!o.rdma) return not_collected("RDMA state");
  if (!o.rdma->active_mtu) return not_collected("RDMA active MTU");
  const int want = v.port.rdma_mtu;
  const int got = *o.rdma->active_mtu;
  const std::string seen = std::to_string(got);
  if (got == want) return pass();
  // The RDMA MTU follows the netdev MTU: when that drifted, the netdev MTU is the one fault to report.
  if (o.mtu && *o.mtu != v.port.mtu && roce_mtu_for(*o.mtu) < want) {
    const std::string netdev = std::to_string(*o.mtu);
    return consequence(seen,
                       cat("active MTU ", seen, " because the netdev MTU is ", netdev, "; RoCE MTU ",
                           std::to_string(want), " needs ", std::to_string(want + kRoceOverhead), " or more"),
                       finding_name("port.mtu.drift", v.device, v.port));
  }
  return fail(seen, cat("RDMA active MTU ", seen, ", expected ", std::to_string(want)));
}

// A netdev MTU that is wrong is the cause (a consequence above); what is left is on the RDMA side.
constexpr PortRule kMtu{"rdma.mtu.mismatch",
                        Severity::error,
                        "RDMA active MTU equals the profile's RoCE MTU",
                        Setting::rdma_port,
                        host_port,
                        mtu_expected,
                        mtu_judge};

// ---- rdma.tos.drift

std::string tos_expected(const PortView& v) { return tos_text(v.qos(), v.qos().roce_tos()); }

Verdict tos_judge(const PortView& v, const PortObserved& o) {
  if (!o.rdma) return not_collected("RDMA state");
  if (!o.rdma->cm_tos) return not_collected("rdma_cm ToS");
  const int want = v.qos().roce_tos();
  std::vector<std::string> wrong;
  std::vector<std::string> seen = {"rdma_cm " + std::to_string(*o.rdma->cm_tos)};
  if (*o.rdma->cm_tos != want)
    wrong.push_back("rdma_cm connections leave with ToS " + tos_text(v.qos(), *o.rdma->cm_tos));
  if (const auto& ov = o.rdma->tos_override) {
    seen.push_back(*ov == kNoTosOverride ? "no override" : "override " + std::to_string(*ov));
    if (*ov == kNoTosOverride) wrong.emplace_back("no traffic class override, so each application's own ToS goes out");
    else if (*ov != want) wrong.push_back("every queue pair leaves with ToS " + tos_text(v.qos(), *ov));
  }
  if (wrong.empty()) return pass();
  return fail(join(seen, ", "), cat(rdma_port_name(v), ": ", join(wrong, "; "), "; expected ToS ", tos_expected(v)));
}

constexpr PortRule kTos{"rdma.tos.drift",
                        Severity::error,
                        "the RoCE ToS of rdma_cm and of the driver's traffic class override equal the intent",
                        Setting::roce_tos,
                        host_port,
                        tos_expected,
                        tos_judge};

}  // namespace

std::string tos_text(const QosIntent& q, int tos) {
  const int dscp = tos >> 2;
  const int prio = q.dscp_to_priority[static_cast<size_t>(dscp)];
  return cat(std::to_string(tos), " (DSCP ", std::to_string(dscp), " -> priority ", std::to_string(prio),
             q.lossless[static_cast<size_t>(prio)] ? ", lossless)" : ", lossy)");
}

std::vector<Check> rdma_checks() { return {check<kActive>(), check<kGid>(), check<kMtu>(), check<kTos>()}; }

}  // namespace fabricctl
