#include "platform/sonic/config_db_patch.h"

#include <set>
#include <string>
#include <string_view>

#include "platform/json_patch.h"
#include "platform/platform.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/default_config_db.h"

namespace fabricctl::sonic {
namespace {

using nlohmann::ordered_json;

/// What fabricctl owns in a table, beyond the keys `desired` has.
enum class Owns {
  named_entries,  // entries whose key is a name fabricctl gives (ROCE...)
  port_entries,   // entries keyed by a port of the device: "<port>" or "<port>|<n>"
  fields,         // only the fields desired sets, inside entries the switch already has
};

struct TableRule {
  std::string_view table;
  Owns owns;
};

// Every table config_db() can write, in its order (which the patch keeps).
constexpr TableRule kTables[] = {
    {"DSCP_TO_TC_MAP", Owns::named_entries},
    {"DOT1P_TO_TC_MAP", Owns::named_entries},
    {"TC_TO_PRIORITY_GROUP_MAP", Owns::named_entries},
    {"TC_TO_QUEUE_MAP", Owns::named_entries},
    {"MAP_PFC_PRIORITY_TO_QUEUE", Owns::named_entries},
    {"SCHEDULER", Owns::named_entries},
    {"WRED_PROFILE", Owns::named_entries},
    {"PORT_QOS_MAP", Owns::port_entries},
    {"QUEUE", Owns::port_entries},
    {"CABLE_LENGTH", Owns::fields},
    {"PFC_WD", Owns::port_entries},
    {"PORT", Owns::fields},
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// The names config_db.cpp gives its maps, schedulers and WRED profiles.
bool fabricctl_name(std::string_view key) {
  return key == "ROCE" || key == "ROCE_LOSSLESS" || starts_with(key, "ROCE_TC") || starts_with(key, "ROCE_ECN_TC");
}

/// "Ethernet0" or "Ethernet0|3" for a port of the device.
bool port_key(std::string_view key, const std::set<std::string, std::less<>>& ports) {
  const std::string_view port = key.substr(0, key.find('|'));
  return ports.find(port) != ports.end();
}

/// The part of base[table] fabricctl owns: what the patch may replace or remove.
ordered_json owned_part(const ordered_json& base_table, const ordered_json& desired_table, Owns owns,
                        const std::set<std::string, std::less<>>& ports) {
  ordered_json part = ordered_json::object();
  for (const auto& [key, value] : base_table.items()) {
    if (owns == Owns::fields) {
      const auto want = desired_table.find(key);
      if (want == desired_table.end() || !want->is_object() || !value.is_object()) continue;
      ordered_json fields = ordered_json::object();
      for (const auto& [field, v] : value.items())
        if (want->contains(field)) fields[field] = v;
      part[key] = std::move(fields);
    } else if (desired_table.contains(key) ||
               (owns == Owns::named_entries ? fabricctl_name(key) : port_key(key, ports))) {
      part[key] = value;
    }
  }
  return part;
}

}  // namespace

nlohmann::ordered_json config_db_patch(const ordered_json& base, const ordered_json& desired) {
  std::set<std::string, std::less<>> ports;
  if (const auto it = desired.find("PORT"); it != desired.end())
    for (const auto& [port, fields] : it->items()) ports.insert(port);

  const ordered_json empty = ordered_json::object();
  ordered_json ops = ordered_json::array();
  for (const TableRule& rule : kTables) {
    const std::string table(rule.table);
    const auto want = desired.find(table);
    const auto have = base.find(table);
    const std::string path = "/" + json_pointer_token(table);
    if (have == base.end() || !have->is_object()) {
      // RFC 6902 "add" needs the parent: a table the switch lacks (PFC_WD before `pfcwd start`) is
      // added whole.
      if (want != desired.end() && !want->empty()) ops.push_back({{"op", "add"}, {"path", path}, {"value", *want}});
      continue;
    }
    const ordered_json& target = want != desired.end() ? *want : empty;
    // Entries are compared whole (depth 1 below the table), field tables field by field (depth 2).
    const int depth = rule.owns == Owns::fields ? 2 : 1;
    append_json_diff(owned_part(*have, target, rule.owns, ports), target, path, depth, ops);
  }
  return ops;
}

}  // namespace fabricctl::sonic

namespace fabricctl {

std::string sonic_config_db_patch_json(const DeviceDesired& device) {
  return sonic::dump_config_db(sonic::config_db_patch(sonic::default_config_db(device), sonic::config_db(device)));
}

}  // namespace fabricctl
