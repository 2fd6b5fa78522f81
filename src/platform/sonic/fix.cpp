// SONiC fixes: the CONFIG_DB fields the rendered config_db.json sets, written with SONiC's own CLI where
// it has a command for the setting (`config interface mtu|pfc|startup`, `config pfcwd`) and with
// `sonic-db-cli CONFIG_DB hset` on the same keys and names as config_db.json where it has none (QoS
// maps, schedulers, WRED profiles). Every line can be pasted into a shell on the switch.
#include <algorithm>
#include <string>
#include <vector>

#include "platform/platform.h"
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
      if (q.trust == Trust::dscp)
        return hset("PORT_QOS_MAP|" + port, {{"dscp_to_tc_map", std::string(sonic::kMapName)}}) +
               "\nsonic-db-cli CONFIG_DB hdel " + shell_quote("PORT_QOS_MAP|" + port) + " dot1p_to_tc_map";
      return hset("PORT_QOS_MAP|" + port, {{"dot1p_to_tc_map", std::string(sonic::kMapName)}}) +
             "\nsonic-db-cli CONFIG_DB hdel " + shell_quote("PORT_QOS_MAP|" + port) + " dscp_to_tc_map";
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
      std::vector<std::pair<std::string, std::string>> map;
      for (int p = 0; p < kPriorities; ++p)
        map.emplace_back(std::to_string(p), std::to_string(q.priority_to_tc[static_cast<size_t>(p)]));
      lines.push_back(hset(map_key("TC_TO_QUEUE_MAP"), map));
      for (int tc = 0; tc < kTrafficClasses; ++tc) {
        const TcSchedule& s = q.tc[static_cast<size_t>(tc)];
        if (!s.used) continue;
        if (s.strict) lines.push_back(hset("SCHEDULER|" + sonic::scheduler_name(tc), {{"type", "STRICT"}}));
        else
          lines.push_back(hset("SCHEDULER|" + sonic::scheduler_name(tc),
                               {{"type", "DWRR"}, {"weight", std::to_string(std::clamp(s.bandwidth_pct, 1, 100))}}));
        lines.push_back(hset("QUEUE|" + port + "|" + std::to_string(tc), {{"scheduler", sonic::scheduler_name(tc)}}));
      }
      return join(lines, "\n");
    }
    case Setting::ecn:
      for (int tc = 0; tc < kTrafficClasses; ++tc) {
        if (!f.covers(tc)) continue;
        const std::string queue = "QUEUE|" + port + "|" + std::to_string(tc);
        const EcnQueue* want = nullptr;
        if (q.ecn_enabled)
          for (const EcnQueue& e : q.ecn)
            if (e.tc == tc) want = &e;
        if (!want) {
          lines.push_back("sonic-db-cli CONFIG_DB hdel " + shell_quote(queue) + " wred_profile");
          continue;
        }
        const std::string profile = sonic::wred_profile_name(q, tc);
        // Thresholds in bytes and probability in percent, as config_db.json writes them.
        lines.push_back(
            hset("WRED_PROFILE|" + profile, {{"ecn", "ecn_all"},
                                             {"wred_green_enable", "true"},
                                             {"green_min_threshold", std::to_string(want->min_bytes)},
                                             {"green_max_threshold", std::to_string(want->max_bytes)},
                                             {"green_drop_probability", std::to_string(want->probability_pct)}}));
        lines.push_back(hset(queue, {{"wred_profile", profile}}));
      }
      return join(lines, "\n");
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
