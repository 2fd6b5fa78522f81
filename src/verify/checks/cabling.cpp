// cabling.*: each cabled port sees, over LLDP, the neighbour the inventory says is at its other end.
// LLDP is optional: a port without LLDP data is "missing", never a failure.
#include <cctype>

#include "verify/checks/checks.h"
#include "verify/checks/port_compare.h"

namespace fabricctl {
namespace {

using namespace port_compare;

std::string peer_text(const PortView& v) { return cat(v.port.peer_device, ":", v.port.peer_port); }

std::string lldp_expected(const PortView& v) { return peer_text(v); }

// A neighbour may announce its FQDN ("leaf1.example.net") where the inventory says "leaf1".
bool same_system(const std::string& seen, const std::string& want) {
  return seen == want || (seen.size() > want.size() && seen.compare(0, want.size(), want) == 0 &&
                          seen[want.size()] == '.');
}

// lldpd reports a MAC address as the port ID of peers that send no interface name: then only the
// system name can be compared.
bool is_mac(const std::string& s) {
  if (s.size() != 17) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i % 3 == 2 ? s[i] != ':' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

Verdict lldp_judge(const PortView& v, const PortObserved& o) {
  if (!o.lldp || o.lldp->system_name.empty() || o.lldp->port_id.empty()) return not_collected("LLDP neighbour");
  const std::string seen = cat(o.lldp->system_name, ":", o.lldp->port_id);
  if (same_system(o.lldp->system_name, v.port.peer_device) &&
      (o.lldp->port_id == v.port.peer_port || is_mac(o.lldp->port_id)))
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

std::vector<Check> cabling_checks() {
  Check c = check<kLldp>();
  c.optional_data = true;  // LLDP is not always running; without it the check cannot say anything
  return {c};
}

}  // namespace fabricctl
