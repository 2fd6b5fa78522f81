#include "platform/nxos/show_json.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "platform/neighbor_text.h"
#include "platform/nxos/nxapi_json.h"
#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nxos {
namespace {

using jsonr::Path;
using jsonr::Value;

// `show interface` of a 512-port switch is a few MB (each row carries ~100 counters); rows are 3 levels
// deep, and NX-API's envelope is never part of what the CLI prints.
const jsonr::JsonLimits kLimits{size_t{64} << 20, 8};

/// The counters of a `show interface` row fabricctl keeps, in neutral names (docs/counters-reference.md),
/// each a number NX-OS prints as a string or an integer. `eth_inpause` / `eth_outpause` are not read:
/// whether they count PFC frames or only 802.3x pause is UNCONFIRMED.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kCounters{{
    {"eth_crc", "fcs_errors"},
    {"eth_indiscard", "rx_discards"},
    {"eth_outdiscard", "tx_discards"},
}};

PortObserved interface_of(std::string_view name, Value row, const std::string& where) {
  PortObserved p;
  p.name = std::string(name);
  if (const auto mtu = jsonr::find(row, "eth_mtu")) {
    const std::string at = where + ".eth_mtu";
    p.mtu = static_cast<int>(nxapi_number(*mtu, Path(at), 68, 65535));
  }
  if (const auto bw = jsonr::find(row, "eth_bw")) {
    const std::string at = where + ".eth_bw";
    const int64_t kbits = nxapi_number(*bw, Path(at), 0, int64_t{1'600'000} * 1'000);  // up to 1.6 Tb/s
    if (kbits > 0) p.speed_mbps = static_cast<int>(kbits / 1'000);
  }
  if (const auto state = nxapi_text(row, where, "state")) p.oper_up = *state == "up";
  for (const auto& [key, neutral] : kCounters)
    if (const auto v = jsonr::find(row, key)) {
      const std::string at = where + "." + std::string(key);
      p.counters[std::string(neutral)] = static_cast<uint64_t>(nxapi_number(*v, Path(at), 0, INT64_MAX));
    }
  return p;
}

}  // namespace

std::string long_port_name(std::string_view name) {
  if (name.rfind("Eth", 0) == 0 && !ethernet(name) && name.size() > 3 && name[3] >= '0' && name[3] <= '9')
    return "Ethernet" + std::string(name.substr(3));
  return std::string(name);
}

Expected<PortTable<PortObserved>> interfaces_json(std::string_view text) {
  auto doc = jsonr::parse_json(text, kLimits);
  if (!doc) return unexpected("show interface: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object() || !jsonr::find(root, "TABLE_interface"))
    return unexpected("show interface: not a JSON object with a \"TABLE_interface\"");
  PortTable<PortObserved> out;
  std::vector<NxapiRow> all;
  try {
    all = nxapi_rows(root, "interface");
  } catch (const jsonr::JsonError& e) {
    return unexpected("show interface: " + e.message);
  }
  for (const auto& [where, row] : all) {
    std::string name;
    try {
      name = std::string(jsonr::string_value(jsonr::required(row, Path(where), "interface"), Path(where)));
    } catch (const jsonr::JsonError& e) {
      return unexpected("show interface: " + e.message);  // a row without its name cannot be one port's
    }
    if (!ethernet(name)) continue;
    if (!valid_port_name(name)) {
      out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    try {
      out.ports.insert_or_assign(name, interface_of(name, row, where));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.insert_or_assign(name, "show interface: " + e.message);
    }
  }
  return out;
}

Expected<PortTable<LldpNeighbor>> lldp_neighbors_json(std::string_view text) {
  auto doc = jsonr::parse_json(text, kLimits);
  if (!doc) return unexpected("show lldp neighbors detail: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object()) return unexpected("show lldp neighbors detail: not a JSON object");
  PortTable<LldpNeighbor> out;
  std::vector<NxapiRow> all;
  try {
    all = nxapi_rows(root, "nbor_detail");
  } catch (const jsonr::JsonError& e) {
    return unexpected("show lldp neighbors detail: " + e.message);
  }
  for (const auto& [where, row] : all) {
    std::string port;
    try {
      port = long_port_name(jsonr::string_value(jsonr::required(row, Path(where), "l_port_id"), Path(where)));
    } catch (const jsonr::JsonError& e) {
      return unexpected("show lldp neighbors detail: " + e.message);  // no port to charge the row to
    }
    if (!ethernet(port) || out.ports.count(port) || out.unreadable.count(port)) continue;
    if (!valid_port_name(port)) continue;  // not a port this switch can have: nothing to pair it with
    try {
      const std::optional<std::string_view> system = nxapi_text(row, where, "sys_name");
      const std::optional<std::string_view> remote = nxapi_text(row, where, "port_id");
      LldpNeighbor n{std::string(system.value_or("")), std::string(remote.value_or(""))};
      if (const std::string bad = neighbor_text_problem(n, where + ".sys_name", where + ".port_id"); !bad.empty()) {
        out.unreadable.emplace(port, "show lldp neighbors detail: " + bad);
        continue;
      }
      if (!n.system_name.empty() || !n.port_id.empty()) out.ports.emplace(port, std::move(n));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.emplace(port, "show lldp neighbors detail: " + e.message);
    }
  }
  return out;
}

}  // namespace fabricctl::nxos
