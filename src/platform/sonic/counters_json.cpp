#include "platform/sonic/counters_json.h"

#include <array>
#include <utility>

#include "platform/sonic/counters.h"
#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::sonic {
namespace {

using jsonr::Path;
using jsonr::Value;
using Field = std::pair<std::string_view, std::string_view>;  // native key, neutral name (prefix)

// A port of objects of queues of strings: 4 levels. A 512-port switch's queue counters are some 2 MB.
const jsonr::JsonLimits kLimits{size_t{32} << 20, 6};

/// A string count ("1,200") at `path`, or nothing for "N/A"; fails on anything else.
std::optional<uint64_t> cell(Value v, const Path& path) {
  const std::string_view s = jsonr::string_value(v, path);
  if (s == "N/A") return std::nullopt;
  const auto n = count(s);
  if (!n) jsonr::fail(path, jsonr::describe(v) + " is not a count (digits with thousands separators, or \"N/A\")");
  return n;
}

/// Each port of the document whose name fabricctl accepts (no inventory port has another): its object,
/// its path and its counters to fill, given to `body`.
template <typename Body>
Expected<PortCounters> each_port(std::string_view text, Body body) {
  return jsonr::read_json(text, kLimits, [&body](Value root) {
    jsonr::expect_object(root, Path(""));
    PortCounters out;
    for (const auto& m : root.members()) {
      if (!valid_port_name(m.key)) continue;
      const Path port(m.key);
      jsonr::expect_object(m.value, port);
      body(m.value, port, out[std::string(m.key)]);
    }
    return out;
  });
}

/// The `fields` `object` has, as <neutral><suffix>; "N/A" gives none.
template <size_t N>
void take(Value object, const Path& path, const std::array<Field, N>& fields, const std::string& suffix,
          std::map<std::string, uint64_t>& counters) {
  for (const auto& [native, neutral] : fields)
    if (const auto v = jsonr::find(object, native))
      if (const auto n = cell(*v, jsonr::child(path, native))) counters[std::string(neutral) + suffix] = *n;
}

/// Each port's counters from its object of `fields` (portstat's flat rows).
template <size_t N>
Expected<PortCounters> per_port(std::string_view text, const std::array<Field, N>& fields) {
  return each_port(text, [&fields](Value port, const Path& at, std::map<std::string, uint64_t>& counters) {
    take(port, at, fields, "", counters);
  });
}

/// The queue of a key of queuestat's and wredstat's port objects: "UC3" -> 3; nullopt for a multicast
/// or aggregate queue, and for the reading's "time" and "cached_time". Fails on any other key.
std::optional<int> unicast_queue(std::string_view key, const Path& path) {
  if (key == "time" || key == "cached_time") return std::nullopt;
  for (const std::string_view kind : {"UC", "MC", "ALL"}) {
    if (!key.starts_with(kind)) continue;
    const auto q = parse_u64(key.substr(kind.size()));
    if (q && *q <= 63 && key.size() - kind.size() <= 2)
      return kind == "UC" ? std::optional<int>(int(*q)) : std::nullopt;
  }
  jsonr::fail(path, "not a queue (UC<n>, MC<n>, ALL<n>) or the reading's time");
}

/// Each port's unicast queues' counters, `fields` of each as <neutral>_<q>.
template <size_t N>
Expected<PortCounters> per_queue(std::string_view text, const std::array<Field, N>& fields) {
  return each_port(text, [&fields](Value port, const Path& path, std::map<std::string, uint64_t>& counters) {
    for (const auto& q : port.members()) {
      const Path at = jsonr::child(path, q.key);
      const auto queue = unicast_queue(q.key, at);
      if (!queue) continue;
      jsonr::expect_object(q.value, at);
      take(q.value, at, fields, "_" + std::to_string(*queue), counters);
    }
  });
}

}  // namespace

Expected<PortCounters> port_errors_json(std::string_view text) {
  return per_port(
      text,
      std::array<Field, 4>{
          {{"RX_ERR", "rx_errors"}, {"RX_DRP", "rx_discards"}, {"TX_ERR", "tx_errors"}, {"TX_DRP", "tx_discards"}}});
}

Expected<PortCounters> fec_stats_json(std::string_view text) {
  return per_port(text, std::array<Field, 2>{{{"FEC_CORR", "fec_corrected"}, {"FEC_UNCORR", "fec_uncorrectable"}}});
}

Expected<PortCounters> queue_counters_json(std::string_view text) {
  return per_queue(text, std::array<Field, 2>{{{"totalpacket", "queue_tx_packets"}, {"droppacket", "queue_drops"}}});
}

Expected<PortCounters> wred_counters_json(std::string_view text) {
  return per_queue(text, std::array<Field, 2>{{{"wreddroppacket", "wred_drops"}, {"ecnmarkedpacket", "ecn_marked"}}});
}

}  // namespace fabricctl::sonic
