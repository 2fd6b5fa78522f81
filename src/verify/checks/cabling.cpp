// cabling.*: each cabled port sees, over LLDP, the neighbour the inventory says is at its other end.
// LLDP is optional: a port without LLDP data is "missing", never a failure.
#include "verify/checks/checks.h"
#include "verify/checks/port_compare.h"

namespace fabricctl {
namespace {

using namespace port_compare;

std::string peer_text(const PortView& v) { return cat(v.port.peer_device, ":", v.port.peer_port); }

std::string lldp_expected(const PortView& v) { return peer_text(v); }

Verdict lldp_judge(const PortView& v, const PortObserved& o) {
  if (!o.lldp) return not_collected("LLDP neighbour");
  const std::string seen = cat(o.lldp->system_name, ":", o.lldp->port_id);
  if (o.lldp->system_name == v.port.peer_device && o.lldp->port_id == v.port.peer_port)
    return pass(seen, cat("LLDP neighbour ", seen, " as the inventory says"));
  return fail(seen, cat("LLDP neighbour is ", seen, ", the inventory says ", peer_text(v)));
}

std::string lldp_hint(const PortView& v) {
  const std::string& n = v.port.name;
  const std::string what =
      cat("move the cable to ", peer_text(v), " or correct the inventory, then confirm the neighbour");
  if (!v.is_switch()) return host_fix(what, cat("lldpcli show neighbors ports ", n));
  return switch_fix(v.device.platform, what, "show lldp table", cat("show lldp neighbors ", n),
                    cat("nv show interface ", n, " lldp neighbor"));
}

constexpr PortRule kLldp{"cabling.lldp.mismatch", Severity::error,
                         "the LLDP neighbour of a cabled port is the inventory's other end",
                         cabled_port, lldp_expected, lldp_judge, lldp_hint};

}  // namespace

std::vector<Check> cabling_checks() { return {check<kLldp>()}; }

}  // namespace fabricctl
