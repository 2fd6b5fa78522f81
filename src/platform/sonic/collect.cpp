// SONiC collection: six whole-device show commands (no value of the inventory in any of them).
// - `show runningconfiguration all`: CONFIG_DB as JSON, read by config_db_reader. Only the tables the
//   reader uses are kept in the raw file: CONFIG_DB also holds TACACS+ and RADIUS passkeys, SNMP
//   communities and users, which must never reach disk (an allowlist, so a table SONiC adds later
//   cannot leak either).
// - `show interfaces status` (sonic-utilities intfutil, a tabulate table): oper state and speed.
// - `show lldp table`: the neighbour on each port.
// - `show version`: the image's release, HWSKU and ASIC, which decide what the config updater refuses
//   (image.h); only the lines fabricctl reads are kept. Read by plan, not by verify.
// - `show pfc counters` and `show pfcwd stats -e`: the ports' PFC pauses and the watchdog's storms and
//   drops, as counters (counters.h); `show priority-group drop counters`: the ingress drops per priority
//   group; `portstat -e -j` and `portstat -f -j`: errors, discards and FEC codewords; `show queue
//   counters --json` and `show queue wredcounters --json`: per unicast queue, packets, drops, WRED drops
//   and ECN marks (counters_json.h); `show interfaces flap`: each port's changes of oper status. Each is
//   optional: a release without the command (portstat -f before 202205, `interfaces flap` before 202411,
//   wredstat before 202505) or a raw directory from before fabricctl read it gives no counters of it,
//   never zeros.
#include <nlohmann/json.hpp>

#include <array>

#include "platform/platform.h"
#include "platform/raw_outputs.h"
#include "platform/sonic/config_db_reader.h"
#include "platform/sonic/counters.h"
#include "platform/sonic/counters_json.h"
#include "platform/sonic/image.h"
#include "platform/sonic/show_table.h"

namespace fabricctl {
namespace {

constexpr std::string_view kRunningConfig = "runningconfiguration.json";
constexpr std::string_view kStatus = "interfaces-status.txt";
constexpr std::string_view kLldp = "lldp-table.txt";
constexpr std::string_view kVersion = "version.txt";
constexpr std::string_view kPfcCounters = "pfc-counters.txt";
constexpr std::string_view kPfcwdStats = "pfcwd-stats.txt";
constexpr std::string_view kPgDrops = "pg-drop-counters.txt";
constexpr std::string_view kPortErrors = "port-errors.json";
constexpr std::string_view kFecStats = "fec-stats.json";
constexpr std::string_view kQueueCounters = "queue-counters.json";
constexpr std::string_view kWredCounters = "wred-counters.json";
constexpr std::string_view kFlaps = "interfaces-flap.txt";

constexpr std::array<CounterSource, 8> kCounterSources{{
    {kPfcCounters, "show pfc counters", sonic::pfc_counters},
    {kPfcwdStats, "show pfcwd stats -e", sonic::pfcwd_stats},
    {kPgDrops, "show priority-group drop counters", sonic::pg_drop_counters},
    {kPortErrors, "portstat -e -j", sonic::port_errors_json},
    {kFecStats, "portstat -f -j", sonic::fec_stats_json},
    {kQueueCounters, "show queue counters --json", sonic::queue_counters_json},
    {kWredCounters, "show queue wredcounters --json", sonic::wred_counters_json},
    {kFlaps, "show interfaces flap", sonic::interface_flaps},
}};

// The CONFIG_DB tables config_db_reader reads and those apply's patch touches (config_db_patch.h
// patched_tables(), which a test holds inside this list); nothing else of CONFIG_DB is kept.
constexpr std::array<std::string_view, 15> kKeptTables = {"PORT",
                                                          "PORT_QOS_MAP",
                                                          "QUEUE",
                                                          "SCHEDULER",
                                                          "WRED_PROFILE",
                                                          "DSCP_TO_TC_MAP",
                                                          "TC_TO_QUEUE_MAP",
                                                          "PFC_WD",
                                                          "DOT1P_TO_TC_MAP",
                                                          "TC_TO_PRIORITY_GROUP_MAP",
                                                          "MAP_PFC_PRIORITY_TO_QUEUE",
                                                          "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP",
                                                          "BUFFER_QUEUE",
                                                          "BUFFER_PG",
                                                          "CABLE_LENGTH"};

/// CONFIG_DB with only the kept tables, re-serialised; "" when the output is not a JSON object (the
/// reader then reports it; the text itself, which may hold anything, is not kept).
/// Of a multi-ASIC switch's CONFIG_DB per namespace (sonic::namespace_name), only the namespaces' names
/// are kept, so that apply and verify can refuse it by name.
std::string keep_qos_tables(std::string_view output) {
  using json = nlohmann::ordered_json;
  bool in_namespace = false;
  const json::parser_callback_t only_kept = [&in_namespace](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key) {
      const std::string key = parsed.get<std::string>();
      in_namespace = sonic::namespace_name(key);
      return in_namespace || std::find(kKeptTables.begin(), kKeptTables.end(), key) != kKeptTables.end();
    }
    if (depth == 2 && event == json::parse_event_t::key && in_namespace) return false;
    return depth <= 8;  // CONFIG_DB is three levels deep; deeper values are dropped, not recursed into
  };
  const json doc = json::parse(output, only_kept, false);
  if (doc.is_discarded() || !doc.is_object()) return {};
  return doc.dump(4) + "\n";
}

Expected<DeviceObserved> observe(std::string_view device, const RawOutputs& raw) {
  for (const std::string_view f : {kRunningConfig, kStatus, kLldp})
    if (raw_file(raw, f) == nullptr) return unexpected("no " + std::string(f) + " was collected");
  auto config = sonic::ports_from_config_db(*raw_file(raw, kRunningConfig));
  if (!config) return unexpected(config.error());
  auto status = sonic::interfaces_status(*raw_file(raw, kStatus));
  if (!status) return unexpected(status.error());
  auto lldp = sonic::lldp_table(*raw_file(raw, kLldp));
  if (!lldp) return unexpected(lldp.error());
  PortCounters counters;
  for (const CounterSource& s : kCounterSources)
    if (auto c = add_counters(raw, s, counters); !c) return unexpected(c.error());
  DeviceObserved d;
  d.name = std::string(device);
  d.platform = Platform::sonic;
  d.source = "fabricctl collect (sonic)";
  for (auto& [port, why] : config->unreadable) d.unreadable_ports.emplace(port, why);
  for (auto& [port, why] : lldp->unreadable) d.unreadable_ports.emplace(port, why);
  for (PortObserved& p : config->ports) {
    if (d.unreadable_ports.count(p.name)) continue;  // unreadable, named above
    // The operational speed and state are the status table's; the configured MTU is CONFIG_DB's.
    if (const auto s = status->find(p.name); s != status->end()) {
      if (s->second.speed_mbps) p.speed_mbps = s->second.speed_mbps;
      p.oper_up = s->second.oper_up;
    }
    if (const auto n = lldp->ports.find(p.name); n != lldp->ports.end()) p.lldp = n->second;
    if (const auto c = counters.find(p.name); c != counters.end()) p.counters = std::move(c->second);
    d.ports.push_back(std::move(p));
  }
  return d;
}

}  // namespace

Collector sonic_collector() {
  Collector c{{required_command(kRunningConfig, "show runningconfiguration all", keep_qos_tables),
               required_command(kStatus, "show interfaces status"), required_command(kLldp, "show lldp table"),
               required_command(kVersion, "show version", sonic::keep_version_lines)},
              observe,
              nullptr,
              true};  // the admin's login shell is bash: the counter commands share an exec
  for (const CounterSource& s : kCounterSources) c.commands.push_back(collect_command(s));
  return c;
}

}  // namespace fabricctl
