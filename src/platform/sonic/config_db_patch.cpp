#include "platform/sonic/config_db_patch.h"

#include <set>
#include <string>
#include <string_view>

#include "platform/json_object.h"
#include "platform/json_patch.h"
#include "platform/platform.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/default_config_db.h"
#include "platform/sonic/names.h"

namespace fabricctl::sonic {
namespace {

using nlohmann::ordered_json;

/// What fabricctl owns in a table, beyond the keys `desired` has.
enum class Owns {
  named_entries,   // entries whose key is a name fabricctl gives (ROCE...)
  port_entries,    // entries keyed by a port of the device: "<port>" or "<port>|<n>"
  listed_entries,  // only the entries `desired` lists (a null: deleted), whole; the others are SONiC's
  fields,          // only the fields desired sets, inside entries the switch already has
};

struct TableRule {
  std::string_view table;
  Owns owns;
  std::string_view shared_key = {};  // an entry shared with SONiC: fabricctl owns only its fields there
};

// Every table config_db() can write, in its order (which the patch keeps).
constexpr TableRule kTables[] = {
    {"DSCP_TO_TC_MAP", Owns::named_entries},
    {"DOT1P_TO_TC_MAP", Owns::named_entries},
    {"TC_TO_PRIORITY_GROUP_MAP", Owns::named_entries},
    {"TC_TO_QUEUE_MAP", Owns::named_entries},
    {"MAP_PFC_PRIORITY_TO_QUEUE", Owns::named_entries},
    {"PFC_PRIORITY_TO_PRIORITY_GROUP_MAP", Owns::named_entries},
    {"SCHEDULER", Owns::named_entries},
    {"WRED_PROFILE", Owns::named_entries},
    // PORT_QOS_MAP|global binds the switch-wide DSCP map, beside fields that are not fabricctl's.
    {"PORT_QOS_MAP", Owns::port_entries, "global"},
    {"QUEUE", Owns::port_entries},
    {"BUFFER_QUEUE", Owns::port_entries},
    // The lossless PGs of the dynamic model and the template PG that no longer is one; PG 0 (lossy) and
    // the PGs the traditional model's buffermgrd writes are SONiC's.
    {"BUFFER_PG", Owns::listed_entries},
    {"CABLE_LENGTH", Owns::fields},
    // PFC_WD|GLOBAL also holds BIG_RED_SWITCH (`pfcwd big_red_switch`), which is not fabricctl's.
    {"PFC_WD", Owns::port_entries, "GLOBAL"},
    {"PORT", Owns::fields},
};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// The names config_db.cpp gives its maps, schedulers and WRED profiles.
bool fabricctl_name(std::string_view key) {
  return key == "ROCE" || key == "ROCE_LOSSLESS" || key == kNoEcnWred || starts_with(key, "ROCE_TC") ||
         starts_with(key, "ROCE_ECN_TC");
}

/// "Ethernet0" or "Ethernet0|3" for a port of the device.
bool port_key(std::string_view key, const std::set<std::string, std::less<>>& ports) {
  const std::string_view port = key.substr(0, key.find('|'));
  return ports.find(port) != ports.end();
}

/// Whether fabricctl owns only the fields it sets in entry `key` of the rule's table.
bool field_owned(const TableRule& rule, std::string_view key) {
  return rule.owns == Owns::fields || (!rule.shared_key.empty() && key == rule.shared_key);
}

/// Whether an entry of the table that `desired` does not have is still fabricctl's, so it is removed.
bool removable(const TableRule& rule, std::string_view key, const std::set<std::string, std::less<>>& ports) {
  if (field_owned(rule, key) || rule.owns == Owns::listed_entries) return false;
  return rule.owns == Owns::named_entries ? fabricctl_name(key) : port_key(key, ports);
}

/// `entry` with only the fields `want` has: what a field-owned entry may change.
ordered_json fields_of(const ordered_json& entry, const ordered_json& want) {
  ordered_json part = ordered_json::object();
  if (!entry.is_object()) return part;
  for (const auto& [field, value] : entry.items())
    if (want.contains(field)) part[field] = value;
  return part;
}

/// The operations for one table the switch has: desired's entries in its order (added, replaced
/// whole, or field by field where fabricctl owns only fields), then removals in the switch's order.
void diff_table(const TableRule& rule, const ordered_json& have, const ordered_json& want, const std::string& path,
                const std::set<std::string, std::less<>>& ports, ordered_json& ops) {
  // ordered_json finds a key by scanning: index both sides once (a spine's QUEUE has ~20,000 entries).
  const auto have_index = member_index(have);
  const auto want_index = member_index(want);
  for (const auto& [key, value] : want.items()) {
    std::string entry_path = path + "/" + json_pointer_token(key);
    const auto it = have_index.find(key);
    // A null entry is one fabricctl does not want: removed where the switch has it.
    if (value.is_null()) {
      if (it != have_index.end()) ops.push_back(patch_op("remove", std::move(entry_path)));
    } else if (it == have_index.end()) ops.push_back(patch_op("add", std::move(entry_path), value));
    else if (field_owned(rule, key) && value.is_object())
      append_json_diff(fields_of(*it->second, value), value, entry_path, 1, ops);
    else append_json_diff(*it->second, value, entry_path, 0, ops);
  }
  for (const auto& [key, value] : have.items())
    if (!want_index.count(key) && removable(rule, key, ports))
      ops.push_back(patch_op("remove", path + "/" + json_pointer_token(key)));
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
      // added whole, without the entries fabricctl deletes (the switch has none to delete).
      if (want == desired.end()) continue;
      ordered_json entries = ordered_json::object();
      for (const auto& [key, value] : want->items())
        if (!value.is_null()) append_member(entries, key, value);
      if (!entries.empty()) ops.push_back(patch_op("add", path, entries));
      continue;
    }
    diff_table(rule, *have, want != desired.end() ? *want : empty, path, ports, ops);
  }
  return ops;
}

bool owns_fields_only(std::string_view table, std::string_view key) {
  for (const TableRule& rule : kTables)
    if (rule.table == table) return field_owned(rule, key);
  return false;
}

std::vector<std::string_view> patched_tables() {
  std::vector<std::string_view> out;
  for (const TableRule& rule : kTables) out.push_back(rule.table);
  return out;
}

}  // namespace fabricctl::sonic

namespace fabricctl {

std::string sonic_config_db_patch_json(const DeviceDesired& device, const Document& db) {
  // The default tables depend only on the port names and the buffer model, and a fabric repeats a few
  // port lists on hundreds of switches (every rail leaf alike, every spine alike): each thread keeps
  // the last one it built.
  thread_local std::string key;
  thread_local nlohmann::ordered_json base;
  std::string k(sonic::dynamic_buffers(device) ? "d" : "t");
  for (const PortDesired& p : device.ports) (k += '|') += p.name;
  if (k != key || base.is_null()) {
    base = sonic::default_config_db(device);
    key = std::move(k);
  }
  return sonic::dump_config_db(sonic::config_db_patch(base, db));
}

}  // namespace fabricctl
