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

/// Each port's counters from its object of `fields` (portstat's flat rows).
template <size_t N>
Expected<PortCounters> per_port(std::string_view text, const std::array<Field, N>& fields) {
  return jsonr::read_json(text, kLimits, [&fields](Value root) {
    jsonr::expect_object(root, Path(""));
    PortCounters out;
    for (const auto& m : root.members()) {
      if (!valid_port_name(m.key)) continue;  // no inventory port has it
      const Path port(m.key);
      jsonr::expect_object(m.value, port);
      auto& counters = out[std::string(m.key)];
      for (const auto& [native, neutral] : fields)
        if (const auto v = jsonr::find(m.value, native))
          if (const auto n = cell(*v, jsonr::child(port, native))) counters[std::string(neutral)] = *n;
    }
    return out;
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
  return jsonr::read_json(text, kLimits, [&fields](Value root) {
    jsonr::expect_object(root, Path(""));
    PortCounters out;
    for (const auto& m : root.members()) {
      if (!valid_port_name(m.key)) continue;
      const Path port(m.key);
      jsonr::expect_object(m.value, port);
      auto& counters = out[std::string(m.key)];
      for (const auto& q : m.value.members()) {
        const Path at = jsonr::child(port, q.key);
        const auto queue = unicast_queue(q.key, at);
        if (!queue) continue;
        jsonr::expect_object(q.value, at);
        for (const auto& [native, neutral] : fields)
          if (const auto v = jsonr::find(q.value, native))
            if (const auto n = cell(*v, jsonr::child(at, native)))
              counters[std::string(neutral) + "_" + std::to_string(*queue)] = *n;
      }
    }
    return out;
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
