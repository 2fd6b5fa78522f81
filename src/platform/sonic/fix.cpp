// SONiC fixes: the CONFIG_DB fields the rendered config_db.json sets, written with SONiC's own CLI where
// it has a command for the setting (`config interface mtu|pfc|startup`, `config pfcwd`) and with
// `sonic-db-cli CONFIG_DB hset` where it has none (QoS maps, schedulers, WRED profiles), from the
// entries of the same CONFIG_DB document (config_db()), so a fix and config_db.json cannot disagree.
// Every line can be pasted into a shell on the switch.
#include <algorithm>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "platform/sonic/config_db.h"
#include "platform/sonic/names.h"
#include "util/escape.h"
#include "util/text.h"

namespace fabricctl {
namespace {

/// `sonic-db-cli CONFIG_DB hset 'TABLE|key' field value ...`
std::string hset(const std::string& key, const std::vector<std::pair<std::string, std::string>>& fields) {
  std::string s = "sonic-db-cli CONFIG_DB hset " + shell_quote(key);
  for (const auto& [f, v] : fields) s += " " + f + " " + shell_quote(v);
  return s;
}

/// `hset` of the entry `key` of `table` as the document has it, with the fields `only` names (all when
/// `only` is empty); nothing when the document has no such entry.
std::string hset_entry(const nlohmann::ordered_json& doc, const std::string& table, const std::string& key,
                       const std::vector<std::string>& only = {}) {
  const auto t = doc.find(table);
  if (t == doc.end()) return {};
  const auto e = t->find(key);
  if (e == t->end() || !e->is_object()) return {};
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& [field, value] : e->items())
    if (only.empty() || std::find(only.begin(), only.end(), field) != only.end())
      fields.emplace_back(field, value.get<std::string>());
  return hset(table + "|" + key, fields);
}

std::string map_key(std::string_view table) { return std::string(table) + "|" + std::string(sonic::kMapName); }

}  // namespace

std::string sonic_fix(const Fix& f) {
  const QosIntent& q = f.device->qos;
  const std::string port = f.port ? f.port->name : std::string();
  const std::string qport = shell_quote(port);
  std::vector<std::string> lines;
  switch (f.setting) {
    case Setting::mtu: return "sudo config interface mtu " + qport + " " + std::to_string(f.port->mtu);
    case Setting::trust:
      // DSCP: the only trust the SONiC adapter renders (its row in platform.cpp says why).
      return hset("PORT_QOS_MAP|" + port, {{"dscp_to_tc_map", std::string(sonic::kMapName)}}) +
             "\nsonic-db-cli CONFIG_DB hdel " + shell_quote("PORT_QOS_MAP|" + port) + " dot1p_to_tc_map";
    case Setting::dscp_map: {
      std::vector<std::pair<std::string, std::string>> fields;
      for (int d = 0; d < kDscpValues; ++d)
        if (f.covers(d))
          fields.emplace_back(std::to_string(d), std::to_string(q.dscp_to_priority[static_cast<size_t>(d)]));
      return hset(map_key("DSCP_TO_TC_MAP"), fields);
    }
    case Setting::pfc:
      for (int p = 0; p < kPriorities; ++p)
        if (f.covers(p))
          lines.push_back("sudo config interface pfc priority " + qport + " " + std::to_string(p) +
                          (q.lossless[static_cast<size_t>(p)] ? " on" : " off"));
      return join(lines, "\n");
    case Setting::ets: {
      const nlohmann::ordered_json doc = sonic::config_db(*f.device, *f.port);  // this port's entries
      lines.push_back(hset_entry(doc, "TC_TO_QUEUE_MAP", sonic::kMapName));
      for (int tc = 0; tc < kTrafficClasses; ++tc) {
        if (!q.tc[static_cast<size_t>(tc)].used) continue;
        lines.push_back(hset_entry(doc, "SCHEDULER", sonic::scheduler_name(tc)));
        lines.push_back(hset_entry(doc, "QUEUE", port + "|" + std::to_string(tc), {"scheduler"}));
      }
      return join(lines, "\n");
    }
    case Setting::ecn: {
      // The queue's WRED profile as config_db.json has it: its ECN profile, or the one that marks nothing.
      const nlohmann::ordered_json doc = sonic::config_db(*f.device, *f.port);  // this port's entries
      for (int tc = 0; tc < kTrafficClasses; ++tc) {
        if (!f.covers(tc)) continue;
        const std::string queue = port + "|" + std::to_string(tc);
        const auto& entry = doc["QUEUE"].contains(queue) ? doc["QUEUE"][queue] : nlohmann::ordered_json();
        if (!entry.is_object()) {  // a queue no priority uses: fabricctl deletes SONiC's entry
          lines.push_back("sonic-db-cli CONFIG_DB hdel " + shell_quote("QUEUE|" + queue) + " wred_profile");
          continue;
        }
        lines.push_back(hset_entry(doc, "WRED_PROFILE", entry["wred_profile"].get<std::string>()));
        lines.push_back(hset_entry(doc, "QUEUE", queue, {"wred_profile"}));
      }
      return join(lines, "\n");
    }
    case Setting::watchdog: {
      const Watchdog& w = q.watchdog;
      if (!w.enabled || q.lossless_priorities().empty()) return "sudo config pfcwd stop " + qport;
      // Times in milliseconds, as `config pfcwd` takes them.
      return "sudo config pfcwd interval " + std::to_string(w.poll_interval_ms) +
             "\nsudo config pfcwd start --action " + std::string(to_string(w.action)) + " --restoration-time " +
             std::to_string(w.restoration_ms) + " " + qport + " " + std::to_string(w.detection_ms);
    }
    case Setting::link_up: return "sudo config interface startup " + qport;
    case Setting::speed: return "show interfaces status " + qport + "\nshow interfaces transceiver presence " + qport;
    case Setting::cabling: return "show lldp neighbors " + qport;
    case Setting::dcqcn:
    case Setting::dcqcn_params:
    case Setting::cnp:
    case Setting::rdma_gid:
    case Setting::rdma_port:
    case Setting::roce_tos:
    case Setting::nccl_tc:
    case Setting::nccl_gid: break;  // host NIC settings
  }
  return {};
}

}  // namespace fabricctl
