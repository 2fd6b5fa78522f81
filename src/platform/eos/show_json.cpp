#include "platform/eos/show_json.h"

#include <array>

#include "platform/neighbor_text.h"
#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"

namespace fabricctl::eos {
namespace {

using jsonr::Path;
using jsonr::Value;

// `show interfaces` of a 512-port switch, with counters, is a few MB; its objects are 5 levels deep.
const jsonr::JsonLimits kLimits{size_t{64} << 20, 10};
constexpr size_t kMaxNeighbors = 100000;

/// The counters of `show interfaces`' interfaceCounters fabricctl keeps, in neutral names
/// (docs/counters-reference.md): a key, or an object's key and the key in it.
struct CounterField {
  std::string_view object;  // "" for a top-level counter of interfaceCounters
  std::string_view key;
  std::string_view neutral;
};
constexpr std::array<CounterField, 5> kCounters{{
    {"", "inDiscards", "rx_discards"},
    {"", "outDiscards", "tx_discards"},
    {"inputErrorsDetail", "fcsErrors", "fcs_errors"},
    {"inputErrorsDetail", "symbolErrors", "symbol_errors"},
    {"", "linkStatusChanges", "link_changes"},  // every change, up and down: one flap is two
}};

/// A port this reader reports: an Ethernet interface (Ethernet1, Ethernet1/1, Ethernet3/1/1).
bool ethernet(std::string_view name) { return name.rfind("Ethernet", 0) == 0; }

PortObserved interface_of(std::string_view name, Value v) {
  const std::string where = "interfaces." + std::string(name);
  const Path path(where);
  jsonr::expect_object(v, path);
  PortObserved p;
  p.name = std::string(name);
  if (const auto mtu = jsonr::find(v, "mtu")) {
    const std::string at = where + ".mtu";
    p.mtu = static_cast<int>(jsonr::integer(*mtu, Path(at), 68, 65535));
  }
  if (const auto bw = jsonr::find(v, "bandwidth")) {
    const std::string at = where + ".bandwidth";
    const int64_t bits = jsonr::integer(*bw, Path(at), 0, int64_t{1'600'000} * 1'000'000);  // up to 1.6 Tb/s
    if (bits > 0) p.speed_mbps = static_cast<int>(bits / 1'000'000);
  }
  if (const auto status = jsonr::find(v, "lineProtocolStatus")) {
    const std::string at = where + ".lineProtocolStatus";
    p.oper_up = jsonr::string_value(*status, Path(at)) == "up";
  }
  if (const auto counters = jsonr::find(v, "interfaceCounters")) {
    const std::string at = where + ".interfaceCounters";
    jsonr::expect_object(*counters, Path(at));
    for (const CounterField& c : kCounters) {
      std::optional<Value> parent = *counters;
      std::string key_at = at;
      if (!c.object.empty()) {
        parent = jsonr::find(*counters, c.object);
        key_at += "." + std::string(c.object);
        if (parent) jsonr::expect_object(*parent, Path(key_at));
      }
      if (!parent) continue;
      if (const auto n = jsonr::find(*parent, c.key)) {
        key_at += "." + std::string(c.key);
        p.counters[std::string(c.neutral)] = jsonr::unsigned_integer(*n, Path(key_at));
      }
    }
  }
  return p;
}

}  // namespace

Expected<InterfacesJson> interfaces_json(std::string_view text) {
  auto doc = jsonr::parse_json(text, kLimits);
  if (!doc) return unexpected("show interfaces: " + doc.error());
  const std::optional<Value> all = jsonr::find(doc->root(), "interfaces");
  if (!all || !all->is_object()) return unexpected("show interfaces: not a JSON object with an \"interfaces\" object");
  InterfacesJson out;
  for (const auto& m : all->members()) {
    if (!ethernet(m.key)) continue;
    if (!valid_port_name(m.key)) {
      out.unreadable.emplace(printable(m.key, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    try {
      out.ports.insert_or_assign(std::string(m.key), interface_of(m.key, m.value));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.insert_or_assign(std::string(m.key), "show interfaces: " + e.message);
    }
  }
  return out;
}

namespace {

/// `port` without the one pair of double quotes older EOS releases put around an interface name in
/// `interfaceId` (shared/reference/outputs/SOURCES.md: `"\"Ethernet51\""` beside `interfaceId_v2`
/// `"Ethernet51"` on 4.28.9M; a switch with breakouts prints `"\"et-0/0/20\""`).
std::string_view unquoted(std::string_view port) {
  if (port.size() >= 2 && port.front() == '"' && port.back() == '"') return port.substr(1, port.size() - 2);
  return port;
}

/// Adds the neighbour `device` / `port` of `local` to `out`, when it names either: a value a snapshot would
/// refuse makes the port unreadable instead (platform/neighbor_text.h); non-strings fail the reading.
void add_neighbor(PortTable<LldpNeighbor>& out, std::string_view local, Value device, Value port,
                  const std::string& where, bool quoted) {
  const std::string d = where + ".device", p = where + ".port";
  std::string_view id = jsonr::string_value(port, Path(p));
  LldpNeighbor n{std::string(jsonr::string_value(device, Path(d))), std::string(quoted ? unquoted(id) : id)};
  if (n.system_name.empty() && n.port_id.empty()) return;
  if (const std::string bad = neighbor_text_problem(n, d, p); !bad.empty())
    out.unreadable.emplace(std::string(local), "show lldp neighbors: " + bad);
  else out.ports.emplace(std::string(local), std::move(n));
}

}  // namespace

Expected<PortTable<LldpNeighbor>> lldp_neighbors_json(std::string_view text) {
  return jsonr::read_json(text, kLimits, [](Value root) {
    PortTable<LldpNeighbor> out;
    const Value all = jsonr::required(root, Path(""), "lldpNeighbors");
    const std::string top = "lldpNeighbors";
    if (all.is_array()) {  // show lldp neighbors
      jsonr::expect_array(all, Path(top), kMaxNeighbors, "neighbours");
      size_t i = 0;
      for (const Value e : all.elements()) {
        const std::string where = top + "[" + std::to_string(i++) + "]";
        const Path path(where);
        jsonr::expect_object(e, path);
        const std::string_view port = jsonr::string_value(jsonr::required(e, path, "port"), path);
        if (!ethernet(port) || !valid_port_name(port) || out.ports.count(port) || out.unreadable.count(port)) continue;
        const Value device = jsonr::required(e, path, "neighborDevice");  // in order: the first missing is named
        const Value neighbor_port = jsonr::required(e, path, "neighborPort");
        add_neighbor(out, port, device, neighbor_port, where, false);
      }
      return out;
    }
    jsonr::expect_object(all, Path(top));  // show lldp neighbors detail
    for (const auto& m : all.members()) {
      if (!ethernet(m.key) || !valid_port_name(m.key)) continue;
      const std::string where = top + "." + std::string(m.key) + ".lldpNeighborInfo";
      const Value infos = jsonr::required(m.value, Path(top), "lldpNeighborInfo");
      jsonr::expect_array(infos, Path(where), kMaxNeighbors, "neighbours");
      for (const Value info : infos.elements()) {
        jsonr::expect_object(info, Path(where));
        const Value system = jsonr::required(info, Path(where), "systemName");
        const Value intf = jsonr::required(info, Path(where), "neighborInterfaceInfo");
        jsonr::expect_object(intf, Path(where));
        const auto v2 = jsonr::find(intf, "interfaceId_v2");
        const Value port = v2 ? *v2 : jsonr::required(intf, Path(where), "interfaceId");
        add_neighbor(out, m.key, system, port, where, true);
        break;
      }
    }
    return out;
  });
}

}  // namespace fabricctl::eos
