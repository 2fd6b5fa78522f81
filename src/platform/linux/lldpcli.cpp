#include "platform/linux/lldpcli.h"

#include "util/json_reader.h"
#include "util/names.h"

namespace fabricctl::linux_host {
namespace {

using jsonr::Path;
using jsonr::Value;

/// The "value" of the first object of a json0 list, or "" when the list or the key is absent.
std::string_view first_value(Value obj, const Path& path, std::string_view key) {
  const auto list = jsonr::find(obj, key);
  if (!list) return {};
  jsonr::expect_array(*list, path, 64, "entries");
  for (const Value v : list->elements()) {
    const auto value = jsonr::find(v, "value");
    return value ? jsonr::string_value(*value, path) : std::string_view{};
  }
  return {};
}

}  // namespace

Expected<std::map<std::string, LldpNeighbor, std::less<>>> lldp_neighbors(std::string_view json0) {
  // lldpd's json0 nests ~8 deep (lldp/interface/port/id/value); unknown TLVs one more.
  const jsonr::JsonLimits limits{size_t{8} << 20, 12};
  auto read = [](Value root) {
    std::map<std::string, LldpNeighbor, std::less<>> out;
    const Path top;
    jsonr::expect_object(root, top);
    const Value lldp = jsonr::required(root, top, "lldp");
    const Path lp("lldp");
    jsonr::expect_array(lldp, lp, 1, "lldp objects");
    for (const Value l : lldp.elements()) {
      const auto interfaces = jsonr::find(l, "interface");
      if (!interfaces) continue;  // no neighbours
      const Path ip("lldp.interface");
      jsonr::expect_array(*interfaces, ip, 4096, "interfaces");
      for (const Value i : interfaces->elements()) {
        jsonr::expect_object(i, ip);
        const std::string name(jsonr::string_value(jsonr::required(i, ip, "name"), ip));
        const Path np = jsonr::child(ip, name);
        std::string system, port;
        if (const auto chassis = jsonr::find(i, "chassis")) {
          jsonr::expect_array(*chassis, np, 16, "chassis");
          for (const Value c : chassis->elements()) {
            system = first_value(c, np, "name");
            break;
          }
        }
        if (const auto ports = jsonr::find(i, "port")) {
          jsonr::expect_array(*ports, np, 16, "ports");
          for (const Value p : ports->elements()) {
            port = first_value(p, np, "id");
            break;
          }
        }
        if (!valid_port_name(name) || !valid_device_name(system) || !valid_port_name(port)) continue;
        out.emplace(name, LldpNeighbor{system, port});
      }
    }
    return out;
  };
  auto parsed = jsonr::read_json(json0, limits, read);
  if (!parsed) return unexpected("lldpcli -f json0 show neighbors: " + parsed.error());
  return parsed;
}

}  // namespace fabricctl::linux_host
