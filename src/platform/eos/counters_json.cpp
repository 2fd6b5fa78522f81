#include "platform/eos/counters_json.h"

#include <array>

#include "util/json_reader.h"
#include "util/names.h"
#include "util/text.h"

namespace fabricctl::eos {
namespace {

using jsonr::Path;
using jsonr::Value;

// Both outputs are an object of ports of small objects: 4 levels. A 512-port switch's is some 100 kB.
const jsonr::JsonLimits kLimits{size_t{16} << 20, 6};

/// A port this reader reports: an Ethernet interface whose name fabricctl accepts.
bool reported(std::string_view name) { return name.rfind("Ethernet", 0) == 0 && valid_port_name(name); }

/// `key`'s object of ports under the document's root; fails when it is missing or not an object.
Value ports_of(Value root, std::string_view key) {
  const Value all = jsonr::required(root, Path(""), key);
  jsonr::expect_object(all, Path(key));
  return all;
}

}  // namespace

Expected<PortCounters> pfc_counters_json(std::string_view text) {
  return jsonr::read_json(text, kLimits, [](Value root) {
    constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kFields{
        {{"rxFrames", "pfc_rx_pause"}, {"txFrames", "pfc_tx_pause"}}};
    PortCounters out;
    const Path top("interfaceCounters");
    for (const auto& m : ports_of(root, "interfaceCounters").members()) {
      if (!reported(m.key)) continue;
      const Path port = jsonr::child(top, m.key);
      jsonr::expect_object(m.value, port);
      auto& counters = out[std::string(m.key)];
      for (const auto& [native, neutral] : kFields)
        if (const auto v = jsonr::find(m.value, native))
          counters[std::string(neutral)] = jsonr::unsigned_integer(*v, jsonr::child(port, native));
    }
    return out;
  });
}

Expected<PortCounters> ecn_counters_json(std::string_view text) {
  return jsonr::read_json(text, kLimits, [](Value root) {
    PortCounters out;
    const Path top("intfQueueCounters");
    for (const auto& m : ports_of(root, "intfQueueCounters").members()) {
      if (!reported(m.key)) continue;
      const Path port = jsonr::child(top, m.key);
      const Value queues = jsonr::required(m.value, port, "queueCounters");
      const Path at = jsonr::child(port, "queueCounters");
      jsonr::expect_object(queues, at);
      auto& counters = out[std::string(m.key)];
      for (const auto& q : queues.members()) {
        const Path where = jsonr::child(at, q.key);
        if (q.key.size() != 1 || q.key[0] < '0' || q.key[0] > '7') jsonr::fail(where, "not a queue (0-7)");
        const std::string_view s = jsonr::string_value(q.value, where);
        if (s == "-") continue;  // no ECN on this queue: nothing counted
        const auto n = parse_u64(s);
        if (!n) jsonr::fail(where, jsonr::describe(q.value) + " is not a count (digits, or \"-\")");
        counters["ecn_marked_" + std::string(q.key)] = *n;
      }
    }
    return out;
  });
}

}  // namespace fabricctl::eos
