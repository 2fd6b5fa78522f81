// cabling.*: LLDP against the inventory's cabling, in causes. One miscabled NIC is one finding:
// two NICs of a host whose neighbours are each other's expected ones are one swapped pair
// (cabling.swapped); a NIC that lands on another rail's leaf is a rail finding (cabling.rail.mismatch);
// any other wrong neighbour is cabling.lldp.mismatch on its link. The other end's view of the same
// cable, and the link checks of a link whose ends are not connected, name that finding as their cause.
// LLDP is optional: without it these checks say "missing", never "fail".
#include <cctype>
#include <optional>

#include "util/text.h"
#include "verify/checks/checks.h"
#include "verify/checks/port_compare.h"

namespace fabricctl {
namespace {

using port_compare::cat;

// A neighbour may announce its FQDN ("leaf1.example.net") where the inventory says "leaf1".
bool same_system(const std::string& seen, const std::string& want) {
  return seen == want ||
         (seen.size() > want.size() && seen.compare(0, want.size(), want) == 0 && seen[want.size()] == '.');
}

// lldpd reports a MAC address as the port ID of peers that send no interface name: then only the
// system name can be compared.
bool is_mac(const std::string& s) {
  if (s.size() != 17) return false;
  for (size_t i = 0; i < s.size(); ++i)
    if (i % 3 == 2 ? s[i] != ':' : !std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

const LldpNeighbor* lldp_of(const CheckContext& ctx, const DeviceDesired& d, const PortDesired& p) {
  const PortObserved* o = ctx.observed_port(d, p);
  if (!o || !o->lldp || o->lldp->system_name.empty() || o->lldp->port_id.empty()) return nullptr;
  return &*o->lldp;
}

/// Whether `n` is the device and port `device`:`port`.
bool is_at(const LldpNeighbor& n, const std::string& device, const std::string& port) {
  return same_system(n.system_name, device) && (n.port_id == port || is_mac(n.port_id));
}

/// What LLDP says of one end: nothing, its expected peer, or someone else.
enum class Seen { nothing, expected, other };

Seen seen_at(const CheckContext& ctx, const DeviceDesired& d, const PortDesired& p) {
  const LldpNeighbor* n = lldp_of(ctx, d, p);
  if (!n) return Seen::nothing;
  return is_at(*n, p.peer_device, p.peer_port) ? Seen::expected : Seen::other;
}

std::string end_name(const DeviceDesired& d, const PortDesired& p) { return d.name + ":" + p.name; }

/// The desired device an LLDP system name announces (exact, or its FQDN's first label).
const DeviceDesired* announced(const CheckContext& ctx, const std::string& system) {
  if (const DeviceDesired* d = ctx.desired_device(system)) return d;
  const size_t dot = system.find('.');
  return dot == std::string::npos ? nullptr : ctx.desired_device(std::string_view(system).substr(0, dot));
}

/// The analysis of one link's cabling.
struct Cabling {
  enum Kind { unknown, ok, swapped, rail, mismatch } kind = unknown;
  std::string finding;                   // "<check> <object>" for swapped, rail and mismatch
  std::string message;                   // the failure's message, for the result that reports it
  const PortDesired* partner = nullptr;  // swapped: the host's other NIC
};

std::string rail_text(const std::optional<int>& r) { return r ? "rail-" + std::to_string(*r) : "no rail"; }

/// The host end's cabling is wrong: a swap with another NIC of the host, a NIC on another rail's leaf,
/// or some other wrong neighbour.
Cabling host_cause(const CheckContext& ctx, const DeviceDesired& h, const PortDesired& p, const LinkEnds& le) {
  const LldpNeighbor& n = *lldp_of(ctx, h, p);
  Cabling c;
  for (const PortDesired& q : h.ports) {
    if (&q == &p || q.peer_device.empty() || !is_at(n, q.peer_device, q.peer_port)) continue;
    const LldpNeighbor* m = lldp_of(ctx, h, q);
    if (!m || !is_at(*m, p.peer_device, p.peer_port)) break;
    const bool p_first = natural_less(p.name, q.name);
    const PortDesired& first = p_first ? p : q;
    const PortDesired& second = p_first ? q : p;
    c.kind = Cabling::swapped;
    c.partner = &q;
    c.finding = cat("cabling.swapped ", end_name(h, first), "~", end_name(h, second));
    c.message = cat("cables of ", h.name, " ", first.name, " and ", second.name, " swapped: ", first.name, " reaches ",
                    second.peer_device, ":", second.peer_port, " and ", second.name, " reaches ", first.peer_device,
                    ":", first.peer_port, ", each the other's inventory peer");
    if (first.rail && second.rail && first.rail != second.rail)
      c.message += cat(" (between the ", rail_text(first.rail), " and ", rail_text(second.rail), " leaves)");
    return c;
  }
  const DeviceDesired* there = announced(ctx, n.system_name);
  if (p.rail && there && there->rail && *there->rail != *p.rail) {
    c.kind = Cabling::rail;
    c.finding = cat("cabling.rail.mismatch ", end_name(h, p));
    c.message = cat(end_name(h, p), " (", rail_text(p.rail), ") reaches ", n.system_name, ":", n.port_id, ", a ",
                    rail_text(there->rail), " switch; the inventory cables it to ", p.peer_device, ":", p.peer_port);
    return c;
  }
  c.kind = Cabling::mismatch;
  c.finding = cat("cabling.lldp.mismatch ", end_name(*le.a_device, *le.a), "~", end_name(*le.b_device, *le.b));
  c.message = cat(end_name(h, p), " reaches ", n.system_name, ":", n.port_id, ", the inventory says ", p.peer_device,
                  ":", p.peer_port);
  return c;
}

Cabling analyze(const CheckContext& ctx, const LinkEnds& le) {
  const Seen a = seen_at(ctx, *le.a_device, *le.a);
  const Seen b = seen_at(ctx, *le.b_device, *le.b);
  Cabling c;
  if (a != Seen::other && b != Seen::other) {
    c.kind = a == Seen::nothing && b == Seen::nothing ? Cabling::unknown : Cabling::ok;
    return c;
  }
  // The host end is the one people re-cable; its view names the fault (a is the host end of a link).
  if (a == Seen::other && le.a_device->role == Role::host) return host_cause(ctx, *le.a_device, *le.a, le);
  // The switch end sees a host NIC that is itself miscabled: that NIC's finding is the cause.
  if (b == Seen::other && le.a_device->role == Role::host) {
    const LldpNeighbor& n = *lldp_of(ctx, *le.b_device, *le.b);
    if (const DeviceDesired* h = announced(ctx, n.system_name); h && h->role == Role::host)
      for (const PortDesired& q : h->ports)
        if (q.name == n.port_id && seen_at(ctx, *h, q) == Seen::other)
          if (const LinkEnds* ql = ctx.link_of(q)) return host_cause(ctx, *h, q, *ql);
  }
  c.kind = Cabling::mismatch;
  c.finding = cat("cabling.lldp.mismatch ", end_name(*le.a_device, *le.a), "~", end_name(*le.b_device, *le.b));
  std::vector<std::string> said;
  for (const auto& [d, p] : {std::pair{le.a_device, le.a}, std::pair{le.b_device, le.b}}) {
    if (const LldpNeighbor* n = lldp_of(ctx, *d, *p); n && !is_at(*n, p->peer_device, p->peer_port))
      said.push_back(cat(end_name(*d, *p), " reaches ", n->system_name, ":", n->port_id, ", the inventory says ",
                         p->peer_device, ":", p->peer_port));
  }
  c.message = join(said, "; ");
  return c;
}

/// What LLDP showed on each end: "host1:eth0=leaf2.example.net:Ethernet1/1, leaf1:Ethernet0=unknown".
std::string seen_text(const CheckContext& ctx, const LinkEnds& le) {
  std::vector<std::string> ends;
  for (const auto& [d, p] : {std::pair{le.a_device, le.a}, std::pair{le.b_device, le.b}}) {
    const LldpNeighbor* n = lldp_of(ctx, *d, *p);
    ends.push_back(cat(end_name(*d, *p), "=", n ? cat(n->system_name, ":", n->port_id) : std::string("unknown")));
  }
  return join(ends, ", ");
}

Result base(std::string_view check, const Endpoint& a, std::optional<Endpoint> b) {
  Result r;
  r.check = std::string(check);
  r.severity = Severity::error;
  r.a = a;
  r.b = std::move(b);
  return r;
}

std::string cabling_hint(const CheckContext& ctx, const DeviceDesired& d, const PortDesired& p) {
  return ctx.fix(Fix{Setting::cabling, &d, &p, {}});
}

// ---- cabling.lldp.mismatch: one per link

void run_lldp(const CheckContext& ctx, ResultSink& out) {
  for (const LinkEnds& le : ctx.links) {
    const Cabling c = analyze(ctx, le);
    if (c.kind == Cabling::ok) {
      out.pass(le);
      continue;
    }
    Result r = base("cabling.lldp.mismatch", {le.a_device->name, le.a->name}, Endpoint{le.b_device->name, le.b->name});
    r.link = link_ref(le);
    r.expected = cat("LLDP: ", end_name(*le.a_device, *le.a), " <-> ", end_name(*le.b_device, *le.b));
    r.observed = seen_text(ctx, le);
    if (c.kind == Cabling::unknown) {
      r.status = Status::missing;
      r.message =
          cat("LLDP neighbour not collected on ", end_name(*le.a_device, *le.a), " or ", end_name(*le.b_device, *le.b));
    } else if (c.kind == Cabling::mismatch && c.finding == r.check + " " + r.object()) {
      r.status = Status::fail;
      r.message = c.message;
      const bool a_wrong = seen_at(ctx, *le.a_device, *le.a) == Seen::other;
      r.hint = a_wrong ? cabling_hint(ctx, *le.a_device, *le.a) : cabling_hint(ctx, *le.b_device, *le.b);
    } else {
      r.status = Status::consequence;
      r.cause = c.finding;
      r.message = cat("LLDP neighbours of ", end_name(*le.a_device, *le.a), " and ", end_name(*le.b_device, *le.b),
                      " are not the inventory's");
    }
    out.add(std::move(r));
  }
}

// ---- cabling.swapped: one per swapped pair of a host's NICs

void run_swapped(const CheckContext& ctx, ResultSink& out) {
  for (const LinkEnds& le : ctx.links) {
    if (le.a_device->role != Role::host || seen_at(ctx, *le.a_device, *le.a) != Seen::other) continue;
    const Cabling c = host_cause(ctx, *le.a_device, *le.a, le);
    // A pair is reported once, from its first NIC in natural order.
    if (c.kind != Cabling::swapped || natural_less(c.partner->name, le.a->name)) continue;
    Result r = base("cabling.swapped", {le.a_device->name, le.a->name}, Endpoint{le.a_device->name, c.partner->name});
    r.status = Status::fail;
    r.link = link_ref(le);
    r.expected = cat(le.a->name, " -> ", le.a->peer_device, ":", le.a->peer_port, ", ", c.partner->name, " -> ",
                     c.partner->peer_device, ":", c.partner->peer_port);
    r.observed = "swapped";
    r.message = c.message;
    r.hint = cabling_hint(ctx, *le.a_device, *le.a) + "\n" + cabling_hint(ctx, *le.a_device, *c.partner);
    out.add(std::move(r));
  }
}

// ---- cabling.rail.mismatch: one per host NIC with a rail

void run_rail(const CheckContext& ctx, ResultSink& out) {
  for (const LinkEnds& le : ctx.links) {
    if (le.a_device->role != Role::host || !le.a->rail) continue;
    const Seen seen = seen_at(ctx, *le.a_device, *le.a);
    if (seen == Seen::expected) {
      out.pass(*le.a_device, *le.a);
      continue;
    }
    Result r = base("cabling.rail.mismatch", {le.a_device->name, le.a->name}, std::nullopt);
    r.link = link_ref(le);
    r.expected = cat("a ", rail_text(le.a->rail), " switch");
    if (const LldpNeighbor* n = lldp_of(ctx, *le.a_device, *le.a)) r.observed = cat(n->system_name, ":", n->port_id);
    if (seen == Seen::nothing) {
      r.status = Status::missing;
      r.message = cat("LLDP neighbour not collected on ", end_name(*le.a_device, *le.a));
      out.add(std::move(r));
      continue;
    }
    const Cabling c = host_cause(ctx, *le.a_device, *le.a, le);
    if (c.kind == Cabling::rail) {
      r.status = Status::fail;
      r.message = c.message;
      r.hint = cabling_hint(ctx, *le.a_device, *le.a);
    } else if (c.kind == Cabling::swapped) {
      r.status = Status::consequence;
      r.cause = c.finding;
      r.message = cat(end_name(*le.a_device, *le.a), " does not reach its ", rail_text(le.a->rail), " switch");
    } else {
      // Wrong neighbour, but on the right rail (or of unknown rail): cabling.lldp.mismatch reports it.
      out.pass(*le.a_device, *le.a);
      continue;
    }
    out.add(std::move(r));
  }
}

}  // namespace

std::string miscabled_cause(const CheckContext& ctx, const LinkEnds& link) {
  const Cabling c = analyze(ctx, link);
  return c.kind == Cabling::unknown || c.kind == Cabling::ok ? std::string() : c.finding;
}

std::vector<Check> cabling_checks() {
  // LLDP is not always running; without it these checks cannot say anything (optional data).
  return {
      {"cabling.lldp.mismatch", Severity::error, "the LLDP neighbours of a link's ends are each other", &run_lldp,
       true},
      {"cabling.swapped", Severity::error, "no two NICs of a host have their cables swapped", &run_swapped, true},
      {"cabling.rail.mismatch", Severity::error, "each host NIC reaches a switch of its own rail", &run_rail, true}};
}

}  // namespace fabricctl
