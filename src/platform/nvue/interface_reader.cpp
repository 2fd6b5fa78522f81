#include "platform/nvue/interface_reader.h"

#include <array>

#include "util/diag.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::nvue {
namespace {

using jsonr::Path;
using jsonr::Value;

/// NVUE's speed text: "<n>G" or "<n>M" -> Mb/s (the forms of NVUE's `link speed` enum); nothing for
/// "unknown", NVUE's word for a port without a link. Anything else fails, quoted.
std::optional<int> speed_of(Value v, const Path& path) {
  const std::string_view s = jsonr::string_value(v, path);
  if (s == "unknown") return std::nullopt;
  const std::optional<int64_t> n = s.size() >= 2 ? parse_int(s.substr(0, s.size() - 1)) : std::nullopt;
  const int64_t scale = s.empty() ? 0 : s.back() == 'G' ? 1000 : s.back() == 'M' ? 1 : 0;
  if (!n || scale == 0 || *n <= 0 || *n * scale > 1'600'000)
    jsonr::fail(path, quote(s) + " is not a speed such as 400G");
  return static_cast<int>(*n * scale);
}

/// link.stats' counters fabricctl keeps: the kernel's counts of the port's netdev, as NVUE reports them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kStats{{
    {"carrier-transitions", "link_changes"},  // every change, up and down: one flap is two
    {"in-drops", "rx_discards"},
    {"out-drops", "tx_discards"},
    {"in-errors", "rx_errors"},  // every frame received in error: FCS and length errors among them
    {"out-errors", "tx_errors"},
}};

InterfaceState read_interface(Value v, const Path& path) {
  jsonr::expect_object(v, path);
  InterfaceState s;
  if (const auto type = jsonr::find(v, "type")) s.type = std::string(jsonr::string_value(*type, child(path, "type")));
  const auto link = jsonr::find(v, "link");
  if (!link) return s;
  const Path lp = child(path, "link");
  jsonr::expect_object(*link, lp);
  if (const auto oper = jsonr::find(*link, "oper-status"))
    s.oper_up = jsonr::choice(*oper, child(lp, "oper-status"), {"up", "down"}) == 0;
  if (const auto speed = jsonr::find(*link, "speed")) s.speed_mbps = speed_of(*speed, child(lp, "speed"));
  if (const auto mtu = jsonr::find(*link, "mtu"))
    s.mtu = static_cast<int>(jsonr::integer(*mtu, child(lp, "mtu"), 68, 9216));
  if (const auto stats = jsonr::find(*link, "stats")) {
    const Path sp = child(lp, "stats");
    jsonr::expect_object(*stats, sp);
    for (const auto& [native, neutral] : kStats)
      if (const auto n = jsonr::find(*stats, native))
        s.counters[std::string(neutral)] = jsonr::unsigned_integer(*n, child(sp, native));
  }
  return s;
}

}  // namespace

Expected<Interfaces> interfaces(std::string_view text) {
  // 512 ports with their flags and counters: a few MB; the deepest documented value is 4 levels down.
  const jsonr::JsonLimits limits{size_t{32} << 20, 8};
  auto doc = jsonr::parse_json(text, limits);
  if (!doc) return unexpected("nv show interface: " + doc.error());
  const Value root = doc->root();
  if (!root.is_object()) return unexpected("nv show interface: not a JSON object of interfaces");
  Interfaces out;
  for (const auto& [name, value] : root.members()) {
    if (!valid_port_name(name)) {
      out.unreadable.emplace(printable(name, 64), "not a port name (" + std::string(kPortNameRule) + ")");
      continue;
    }
    try {
      out.by_name.insert_or_assign(std::string(name), read_interface(value, Path(name)));
    } catch (const jsonr::JsonError& e) {
      out.unreadable.emplace(std::string(name), "nv show interface: " + e.message);
    }
  }
  return out;
}

}  // namespace fabricctl::nvue
